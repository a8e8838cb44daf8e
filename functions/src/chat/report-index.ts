/**
 * The search index of one day's report: one document per control, made of the catalog's text for it (title, aliases,
 * family, framework ids, objective, guidance) and the report's findings, with lookups by control id and by framework
 * requirement. Built once per report and cached by the caller, so a question only pays for the search.
 */
import MiniSearch from 'minisearch';
import type { Catalog, Check, Control, ControlResult, ControlStatus, Finding, Report, Severity } from '../assessment/model.js';
import { severityRank } from '@evident/contract';
import { stem, stopWords, tokenize } from './vocabulary.js';
import type { CheckMatch } from './question.js';

export interface IndexedControl {
  result: ControlResult;
  /** The catalog's control; absent when the catalog no longer has it (an old report). */
  control: Control | undefined;
  /** Every framework requirement it maps to, as the catalog spells them. */
  frameworks: string[];
}

export interface ReportIndex {
  report: Report;
  /** Controls in the report's order (by id). */
  controls: IndexedControl[];
  byId: ReadonlyMap<string, IndexedControl>;
  /** Lower-cased framework id → ids of the controls mapped to it. */
  byFramework: ReadonlyMap<string, string[]>;
  /** Built on first use. */
  readonly search: MiniSearch<ControlDocument>;
  /** Every stemmed term of the index, to tell a word the report knows from one it never mentions. */
  readonly vocabulary: ReadonlySet<string>;
  /** The kinds of evidence the catalog asks of the report's controls (`idp.user`, `repo.branch_protection`). */
  evidenceKinds: ReadonlySet<string>;
}

/** Each field of a control's document, and how much a match in it weighs; `aliases` are what people call its subject. */
const boost = { title: 4, aliases: 20, family: 2.5, frameworks: 3, objective: 1, guidance: 0.6, findings: 0.5, subjects: 1.5 };
type Field = keyof typeof boost;
type ControlDocument = { id: string } & Record<Field, string>;
const fields = Object.keys(boost) as Field[];

/**
 * Fields a match must be in for a control to count as being about the question: finding messages carry incidental
 * words (a scoping statement mentions "the CEO"), and a question about those is not about the control.
 */
const coreFields = new Set<string>(fields.filter((field) => field !== 'findings'));
/** Fields that name what the control is about, not only mention it. */
const namingFields = new Set(['title', 'aliases', 'subjects']);

function documentOf({ result, control, frameworks }: IndexedControl): ControlDocument {
  const subjects = [
    ...result.findings.flatMap((finding) => finding.subject || []),
    ...(result.expiring ?? []).map((item) => item.subject),
  ];
  return {
    id: result.id,
    title: result.title,
    aliases: (control?.aliases ?? []).join('\n'),
    family: result.family.replaceAll('-', ' '),
    frameworks: frameworks.join(' '),
    objective: control?.objectiveMarkdown ?? '',
    guidance: control?.guidanceMarkdown ?? '',
    findings: result.findings.map((finding) => finding.message).join('\n'),
    subjects: [...new Set(subjects)].join('\n'),
  };
}

export function indexReport(report: Report, catalog: Catalog): ReportIndex {
  const catalogById = new Map(catalog.controls.map((control) => [control.id, control]));
  const controls: IndexedControl[] = report.controls.map((result) => {
    const control = catalogById.get(result.id);
    const { soc2 = [], iso27001 = [], nist80053 = [] } = control?.frameworks ?? {};
    return { result, control, frameworks: [...soc2, ...iso27001, ...nist80053] };
  });
  const byFramework = new Map<string, string[]>();
  for (const { result, frameworks } of controls) {
    for (const key of frameworks.map((id) => id.toLowerCase())) {
      const ids = byFramework.get(key) ?? byFramework.set(key, []).get(key)!;
      if (!ids.includes(result.id)) ids.push(result.id);
    }
  }
  // The search and its vocabulary are built on the first question that needs them: many (the score, a list by status,
  // a named control) need neither, and building them is most of the index's cost on a cold instance.
  let text: { search: MiniSearch<ControlDocument>; vocabulary: Set<string> } | undefined;
  const textIndex = () => (text ??= searchOf(controls.map(documentOf)));
  return {
    report,
    controls,
    byId: new Map(controls.map((entry) => [entry.result.id, entry])),
    byFramework,
    evidenceKinds: new Set(controls.flatMap(({ control }) => (control?.evidence ?? []).map((requirement) => requirement.kind))),
    get search() {
      return textIndex().search;
    },
    get vocabulary() {
      return textIndex().vocabulary;
    },
  };
}

function searchOf(documents: ControlDocument[]) {
  const processTerm = (term: string) => (stopWords.has(term) ? null : stem(term));
  const search = new MiniSearch<ControlDocument>({ fields, tokenize, processTerm });
  search.addAll(documents);
  // Token by token: a large report's findings hold too many words to gather in one array first.
  const vocabulary = new Set<string>();
  for (const document of documents) {
    for (const field of fields) for (const token of tokenize(document[field])) vocabulary.add(stem(token));
  }
  return { search, vocabulary };
}

/**
 * A control id as people type it: `IAM-01`, `iam_01`, `iam 01`, `IAM01`, `iam-1`, not part of a longer word or number;
 * lookarounds rather than `\b`, since `_` is a word character and `IAM_01` has no word boundary inside it.
 */
const idPattern = /(?<![a-z0-9])([a-z]{2,5})[-_ ]?(\d{1,3})(?![a-z0-9])/gi;

/** A family named by its controls' id prefix: "ENC controls", "the PPL family", "(INC)". */
const prefixPattern = /\(([a-z]{2,5})\)|(?<![a-z0-9-])([a-z]{2,5})(?= (?:controls?|family|series)\b)/gi;

/** Each mention of a control id in the text, with the id as the report spells it; a prefix mentions each of its ids. */
function idMentions(index: ReportIndex, text: string): { id: string; start: number; end: number }[] {
  const ids = [...text.matchAll(idPattern)].flatMap(({ 0: written, 1: prefix = '', 2: number = '', index: start }) => {
    const id = [1, 2, 3]
      .map((width) => `${prefix}-${number.padStart(width, '0')}`.toUpperCase())
      .find((candidate) => index.byId.has(candidate));
    return id ? [{ id, start, end: start + written.length }] : [];
  });
  const families = [...text.matchAll(prefixPattern)].flatMap(({ 0: written, 1: inBrackets, 2: prefix, index: start }) =>
    index.controls
      .filter(({ result }) => result.id.startsWith(`${(inBrackets ?? prefix)!.toUpperCase()}-`))
      .map(({ result }) => ({ id: result.id, start, end: start + written.length })),
  );
  return [...ids, ...families].sort((a, b) => a.start - b.start);
}

/** The control ids the text names, in the order it names them. */
export const controlIdsIn = (index: ReportIndex, text: string): string[] => [
  ...new Set(idMentions(index, text).map((mention) => mention.id)),
];

/** The text with every control id it names blanked out, so what is left is the rest of the question. */
export function withoutControlIds(index: ReportIndex, text: string): string {
  let rest = text;
  const spans = new Map(idMentions(index, text).map(({ start, end }) => [start, end]));
  for (const [start, end] of [...spans].reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`;
  return rest;
}

/**
 * Framework requirements named in the text (`CC6.1`, `ia-2`, `A.5.17`, a series such as `CC6`) and the controls mapped to
 * each, as the catalog spells it. A requirement takes in its enhancements and sub-clauses: `IA-2` includes `ia-2.1`.
 */
export function frameworkMatches(index: ReportIndex, text: string): { id: string; controlIds: string[] }[] {
  const found: { id: string; controlIds: string[] }[] = [];
  for (const token of tokenize(text)) {
    if (!/^[a-z]{1,3}\d*(?:[.-]\d+)+$|^[a-z]{1,3}\d+$/.test(token) || found.some((entry) => entry.id.toLowerCase() === token))
      continue;
    const controlIds = new Set<string>();
    for (const [key, ids] of index.byFramework) {
      if (key === token || key.startsWith(`${token}.`)) ids.forEach((id) => controlIds.add(id));
    }
    if (controlIds.size > 0) found.push({ id: spellingOf(index, token), controlIds: sortIds(controlIds) });
  }
  return found;
}

/** The catalog's own spelling of a framework id (`ia-2`, `CC6.1`), or the upper-cased question's. */
function spellingOf(index: ReportIndex, token: string): string {
  for (const { frameworks } of index.controls) {
    const same = frameworks.find((id) => id.toLowerCase() === token);
    if (same) return same;
  }
  return token.toUpperCase();
}

export const sortIds = (ids: Iterable<string>) => [...ids].sort();

const statusRank: Record<ControlStatus, number> = { failing: 0, stale: 1, missing: 2, not_applicable: 3, passing: 4 };

/** Riskiest first: by severity, then failing before stale before missing, then by id. */
export function rankByRisk<T extends { id: string; severity: Severity; status: ControlStatus }>(results: readonly T[]): T[] {
  return [...results].sort(
    (a, b) =>
      severityRank[a.severity] - severityRank[b.severity] ||
      statusRank[a.status] - statusRank[b.status] ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

interface ControlHit {
  id: string;
  score: number;
  /** Positions of the question's topic words met in the control's own text (not only its findings). */
  covered: ReadonlySet<number>;
  /** A topic word is in its title, aliases or finding subjects. */
  named: boolean;
  /** A topic word names its family ("backups" → backup and recovery). */
  inFamily: boolean;
}

/**
 * Controls whose text matches the topic words, best first. A word starting "un" ("unpatched") is also met by what it
 * lacks. A control's score is scaled by the share of words it meets, so "encrypted backups" prefers the control about
 * both over ones about either.
 */
export function searchControls(index: ReportIndex, terms: readonly string[]): ControlHit[] {
  if (terms.length === 0) return [];
  const ways = terms.map((term) => (/^un.{4,}/.test(term) ? [term, term.slice(2)] : [term]));
  const results = index.search.search(ways.flat().join(' '), {
    boost,
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term,
    prefix: (term) => term.length >= 5,
    fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
    maxFuzzy: 2,
    weights: { fuzzy: 0.35, prefix: 0.5 },
  });
  const hits: ControlHit[] = [];
  for (const { id, score, match, queryTerms } of results) {
    const found = { core: new Set<string>(), naming: new Set<string>(), family: new Set<string>() };
    for (const [documentTerm, inFields] of Object.entries(match)) {
      for (const queryTerm of queryTerms) {
        if (!matches(queryTerm, documentTerm)) continue;
        if (inFields.some((field) => coreFields.has(field))) found.core.add(queryTerm);
        if (inFields.some((field) => namingFields.has(field))) found.naming.add(queryTerm);
        if (inFields.includes('family')) found.family.add(queryTerm);
      }
    }
    const meets = (words: Set<string>) => (options: string[]) => options.some((word) => words.has(word));
    const covered = new Set(ways.flatMap((options, position) => (meets(found.core)(options) ? [position] : [])));
    if (covered.size === 0) continue;
    const share = covered.size / terms.length;
    const [named, inFamily] = [ways.some(meets(found.naming)), ways.some(meets(found.family))];
    hits.push({ id: id as string, score: score * share * share, covered, named, inFamily });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** Whether a query term (after prefix or fuzzy expansion) is the one that found a document term. */
function matches(queryTerm: string, documentTerm: string): boolean {
  if (documentTerm === queryTerm || (queryTerm.length >= 5 && documentTerm.startsWith(queryTerm))) return true;
  if (queryTerm.length < 6 || Math.abs(queryTerm.length - documentTerm.length) > 2) return false;
  let previous = Array.from({ length: documentTerm.length + 1 }, (_, j) => j);
  for (let i = 1; i <= queryTerm.length; i++) {
    const row = [i];
    for (let j = 1; j <= documentTerm.length; j++) {
      const replace = previous[j - 1]! + (queryTerm[i - 1] === documentTerm[j - 1] ? 0 : 1);
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, replace);
    }
    previous = row;
  }
  return previous[documentTerm.length]! <= 2;
}

/** The catalog check a match names, if the control has it. */
export const checkOf = (index: ReportIndex, match: CheckMatch): Check | undefined =>
  index.byId.get(match.controlId)?.control?.checks?.find((check) => check.id === match.checkId);

/** The matched checks the report's controls have, each with its control's result, in the matches' order. */
export function matchedChecks(index: ReportIndex, matches: readonly CheckMatch[]): { result: ControlResult; check: Check }[] {
  return matches.flatMap((match) => {
    const result = index.byId.get(match.controlId)?.result;
    const check = checkOf(index, match);
    return result && check ? [{ result, check }] : [];
  });
}

export const failed = (finding: Finding) => finding.outcome === 'fail' || finding.outcome === 'error';

/** A check's failing subjects, and those whose evidence of the check's kind is stale or missing. */
export const openFindingsOf = (result: ControlResult | undefined, check: Check) =>
  (result?.findings ?? []).filter(
    (finding) =>
      (failed(finding) && finding.check === check.id) ||
      ((finding.outcome === 'stale' || finding.outcome === 'missing') && finding.kind === check.kind),
  );
