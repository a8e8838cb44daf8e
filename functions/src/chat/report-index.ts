/**
 * The search index of one day's report: one document per control, made of the catalog's text
 * for it (title, family, framework ids, objective, guidance) and the report's findings, with
 * lookups by control id and by framework requirement. Built once per report and cached by the
 * caller, so a question only pays for the search.
 */
import MiniSearch from 'minisearch';
import type { Catalog, Check, Control, ControlResult, Finding, Report } from '../assessment/model.js';
import { stem, stopWords, tokenize } from './vocabulary.js';
import type { CheckMatch } from './query-model.js';

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
}

interface ControlDocument {
  id: string;
  title: string;
  /** What people call its subject where its text says it otherwise (the catalog's `aliases`). */
  aliases: string;
  family: string;
  frameworks: string;
  objective: string;
  guidance: string;
  findings: string;
  subjects: string;
}

/**
 * Fields a match must be in for a control to count as being about the question. Finding messages
 * alone are not enough: they carry incidental words (a scoping statement mentions "the CEO"),
 * and a question about those words is not a question about the control.
 */
const coreFields = new Set(['title', 'aliases', 'family', 'frameworks', 'objective', 'guidance', 'subjects']);
/** Fields that name what the control is about, not only mention it. */
const namingFields = ['title', 'aliases', 'subjects'];
const fields = ['title', 'aliases', 'family', 'frameworks', 'objective', 'guidance', 'findings', 'subjects'];
const boost = { title: 4, aliases: 20, family: 2.5, frameworks: 3, objective: 1, guidance: 0.6, findings: 0.5, subjects: 1.5 };

const processTerm = (term: string) => (stopWords.has(term) ? null : stem(term));

function documentOf(entry: IndexedControl): ControlDocument {
  const { result, control } = entry;
  return {
    id: result.id,
    title: result.title,
    aliases: (control?.aliases ?? []).join('\n'),
    family: result.family.replaceAll('-', ' '),
    frameworks: entry.frameworks.join(' '),
    objective: control?.objectiveMarkdown ?? '',
    guidance: control?.guidanceMarkdown ?? '',
    findings: result.findings.map((finding) => finding.message).join('\n'),
    subjects: [
      ...new Set([
        ...result.findings.flatMap((finding) => (finding.subject ? [finding.subject] : [])),
        ...(result.expiring ?? []).map((item) => item.subject),
      ]),
    ].join('\n'),
  };
}

export function indexReport(report: Report, catalog: Catalog): ReportIndex {
  const catalogById = new Map(catalog.controls.map((control) => [control.id, control]));
  const controls: IndexedControl[] = report.controls.map((result) => {
    const control = catalogById.get(result.id);
    const frameworks = control
      ? [...control.frameworks.soc2, ...control.frameworks.iso27001, ...control.frameworks.nist80053]
      : [];
    return { result, control, frameworks };
  });
  const byFramework = new Map<string, string[]>();
  for (const { result, frameworks } of controls) {
    for (const id of frameworks) {
      const key = id.toLowerCase();
      const ids = byFramework.get(key);
      if (!ids) byFramework.set(key, [result.id]);
      else if (!ids.includes(result.id)) ids.push(result.id);
    }
  }
  // The search and its vocabulary are built on the first question that needs them: many (the
  // score, a list by status, a named control) need neither, and building them is most of the
  // index's cost on a cold instance.
  let text: { search: MiniSearch<ControlDocument>; vocabulary: Set<string> } | undefined;
  const textIndex = () => (text ??= searchOf(controls.map(documentOf)));
  return {
    report,
    controls,
    byId: new Map(controls.map((entry) => [entry.result.id, entry])),
    byFramework,
    get search() {
      return textIndex().search;
    },
    get vocabulary() {
      return textIndex().vocabulary;
    },
  };
}

function searchOf(documents: ControlDocument[]): { search: MiniSearch<ControlDocument>; vocabulary: Set<string> } {
  const search = new MiniSearch<ControlDocument>({ fields, tokenize, processTerm });
  search.addAll(documents);
  const vocabulary = new Set<string>();
  for (const document of documents) {
    for (const field of fields) {
      for (const token of tokenize(document[field as keyof ControlDocument])) vocabulary.add(stem(token));
    }
  }
  return { search, vocabulary };
}

/**
 * A control id as people type it: `IAM-01`, `iam-01`, `IAM_01`, `iam 01`, `IAM01`, `iam-1`. It must
 * not be part of a longer word or number; lookarounds rather than `\b`, since `_` is a word
 * character and `IAM_01` has no word boundary inside it.
 */
const idPattern = /(?<![a-z0-9])([a-z]{2,5})[-_ ]?(\d{1,3})(?![a-z0-9])/gi;

/** Each mention of a control id in the text, with the id as the report spells it. */
function idMentions(index: ReportIndex, text: string): { id: string; start: number; end: number }[] {
  const mentions: { id: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(idPattern)) {
    const [written, prefix = '', number = ''] = match;
    const id = [1, 2, 3]
      .map((width) => `${prefix}-${number.padStart(width, '0')}`.toUpperCase())
      .find((candidate) => index.byId.has(candidate));
    if (id) mentions.push({ id, start: match.index, end: match.index + written.length });
  }
  return mentions;
}

/** The control ids the text names, in the order it names them. */
export function controlIdsIn(index: ReportIndex, text: string): string[] {
  return [...new Set(idMentions(index, text).map((mention) => mention.id))];
}

/** The text with every control id it names blanked out, so what is left is the rest of the question. */
export function withoutControlIds(index: ReportIndex, text: string): string {
  let rest = text;
  for (const { start, end } of idMentions(index, text).reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`;
  return rest;
}

/**
 * Framework requirements named in the text and the controls mapped to each. A requirement also
 * takes in its enhancements and sub-clauses: `IA-2` includes `ia-2.1`, `A.5` includes `A.5.17`.
 */
export function frameworkMatches(index: ReportIndex, text: string): { id: string; controlIds: string[] }[] {
  const found: { id: string; controlIds: string[] }[] = [];
  for (const token of tokenize(text)) {
    // `CC6.1`, `ia-2`, `A.5.17`, or a series such as `CC6`.
    if (!/^[a-z]{1,3}\d*(?:[.-]\d+)+$|^[a-z]{1,3}\d+$/.test(token) || found.some((entry) => entry.id.toLowerCase() === token))
      continue;
    const controlIds: string[] = [];
    for (const [key, ids] of index.byFramework) {
      if (key !== token && !key.startsWith(`${token}.`)) continue;
      for (const id of ids) if (!controlIds.includes(id)) controlIds.push(id);
    }
    if (controlIds.length > 0) found.push({ id: spellingOf(index, token), controlIds: sortIds(controlIds) });
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

export const sortIds = (ids: Iterable<string>) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export interface ControlHit {
  id: string;
  score: number;
  /** Positions of the question's topic words met in the control's own text (not only its findings). */
  covered: ReadonlySet<number>;
  /** A topic word is in its title, aliases or finding subjects. */
  named: boolean;
  /** A topic word names its family ("backups" → backup and recovery). */
  inFamily: boolean;
}

/** The words a topic word is met by: itself, and for "unpatched" or "unencrypted" what it lacks. */
const waysOf = (term: string) => (/^un.{4,}/.test(term) ? [term, term.slice(2)] : [term]);

/**
 * Controls whose text matches the topic words, best first; what people call a control's subject
 * is in its aliases (the catalog's front-matter). A control's score is scaled by the share of
 * words it meets, so "encrypted backups" prefers the control about both over ones about either.
 */
export function searchControls(index: ReportIndex, terms: readonly string[]): ControlHit[] {
  if (terms.length === 0) return [];
  const ways = terms.map(waysOf);
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
  for (const result of results) {
    const found = { core: new Set<string>(), naming: new Set<string>(), family: new Set<string>() };
    for (const [documentTerm, inFields] of Object.entries(result.match)) {
      for (const queryTerm of result.queryTerms) {
        if (!matches(queryTerm, documentTerm)) continue;
        if (inFields.some((field) => coreFields.has(field))) found.core.add(queryTerm);
        if (inFields.some((field) => namingFields.includes(field))) found.naming.add(queryTerm);
        if (inFields.includes('family')) found.family.add(queryTerm);
      }
    }
    const covered = new Set<number>();
    ways.forEach((options, position) => {
      if (options.some((word) => found.core.has(word))) covered.add(position);
    });
    if (covered.size === 0) continue;
    const share = covered.size / terms.length;
    hits.push({
      id: result.id as string,
      score: result.score * share * share,
      covered,
      named: ways.some((options) => options.some((word) => found.naming.has(word))),
      inFamily: ways.some((options) => options.some((word) => found.family.has(word))),
    });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** Whether a query term (after prefix or fuzzy expansion) is the one that found a document term. */
function matches(queryTerm: string, documentTerm: string): boolean {
  if (documentTerm === queryTerm || (queryTerm.length >= 5 && documentTerm.startsWith(queryTerm))) return true;
  return queryTerm.length >= 6 && editDistanceAtMost(queryTerm, documentTerm, 2);
}

function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]! <= limit;
}

/** The catalog check a match names, if the control has it. */
export function checkOf(index: ReportIndex, match: CheckMatch): Check | undefined {
  return index.byId.get(match.controlId)?.control?.checks?.find((check) => check.id === match.checkId);
}

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
