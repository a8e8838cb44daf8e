/**
 * Subject-level questions ("which people do not have MFA enabled", "which laptops aren't
 * patched"): the question's words are matched against the catalog's checks, by the check's id
 * and the evidence fields its expression reads (`item.data.mfaEnabled` → "mfa", "enabled"), so
 * the vocabulary is the evidence schemas' own. The answer lists the subjects each matched check
 * fails, from the report's findings, and how many pass.
 */
import type { Check, ControlResult, Finding } from '../../assessment/model.js';
import { plural } from '@evident/contract';
import { escapeMarkdown, type ComposedAnswer } from '../compose.js';
import { severityCue, statusesIn } from '../question-cues.js';
import { controlIdsIn, type ReportIndex } from '../report-index.js';
import { stem, stopWords } from '../vocabulary.js';
import type { CheckMatch, Query } from './query-model.js';

type QueryOf<K extends Query['kind']> = Extract<Query, { kind: K }>;
import { answered } from './report-queries.js';
import { statusLabel } from '../retrieve.js';

/** Words too general to pick a check ("data", "item", "active" describe most of them). */
const generic = new Set(
  [
    'item',
    'data',
    'active',
    'has',
    'are',
    'all',
    'any',
    'control',
    'check',
    'evidence',
    'run',
    'day',
    'subject',
    'last',
    'days',
  ].map(stem),
);

const wordsIn = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((word) => stem(word.toLowerCase()))
    .filter((word) => word.length >= 3 && !stopWords.has(word) && !generic.has(word));

/**
 * The words a check answers to, weighted: its id's and those of the fields its expression reads
 * (split at camelCase) weigh most; its evidence kind's and the words of its messages less.
 */
function wordsOf(check: Check): Map<string, number> {
  const known = checkWords.get(check);
  if (known) return known;
  const source = `${check.expression} ${check.where ?? ''}`;
  const fields = [...source.matchAll(/\bdata\.([A-Za-z0-9]+)/g)].map((match) => match[1]!);
  const literals = [...source.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
  const weights = new Map<string, number>();
  const add = (words: string[], weight: number) => {
    for (const word of words) weights.set(word, Math.max(weights.get(word) ?? 0, weight));
  };
  add(wordsIn(`${check.pass} ${check.fail}`.replace(/\{\{[^{}]*\}\}/g, ' ')), 1);
  add(wordsIn(check.kind), 1);
  add(wordsIn(literals.join(' ')), 1);
  add(wordsIn([check.id, ...fields].join(' ')), 2);
  checkWords.set(check, weights);
  return weights;
}

/** Each catalog check's words, worked out once: the catalog's checks live as long as the process. */
const checkWords = new WeakMap<Check, Map<string, number>>();

const subjectQuestion =
  /^(which|who|whose|list|show|name|how many|(has|have|did|is|are|does) (everyone|everybody|anyone|anybody|every \w+|all (the )?\w+)|are there (any )?|is there (any|an?)|do (any|all|we have any)|does (any|every)|what (people|users|accounts|devices|laptops|machines|computers|repos|repositories|buckets|hosts|servers|vendors|keys|certificates|certs|alerts|policies|systems|services|assets|backups|databases|apps|applications|employees|staff))\b/;

/** The checks a subject-level question is about: those meeting the most of its words, then the most of their own. */
export function checksAskedAbout(text: string, index: ReportIndex): CheckMatch[] {
  // "Past their review window" still asks after subjects; "which of them" leans on the previous answer.
  if (
    !subjectQuestion.test(text) ||
    /^(which|what) evidence\b/.test(text) ||
    /\b(it|that|this|those|these|them|they)\b/.test(text)
  )
    return [];
  // A question for controls, requirements or named controls is not about subjects ("for the key rotation control" still is).
  if (
    /\b(which|what|list|show|any|all|how many) (\w+ )?(controls?|requirements?)\b/.test(text) ||
    controlIdsIn(index, text).length > 0
  )
    return [];
  return checksMeeting(text, index);
}

/** The checks a question's words meet best (statuses and severities pick no check), with the chosen controls' others it speaks of. */
export function checksMeeting(text: string, index: ReportIndex): CheckMatch[] {
  const { statuses, rest } = statusesIn(text.replace(severityCue, ' '));
  const words = new Set(wordsIn(rest));
  const candidates: (CheckMatch & { check: Check; score: number; share: number })[] = [];
  for (const { control } of index.controls) {
    for (const check of control?.checks ?? []) {
      const weights = wordsOf(check);
      const score = [...weights].reduce((sum, [word, weight]) => sum + (words.has(word) ? weight : 0), 0);
      const core = [...weights].filter(([, weight]) => weight === 2);
      const share = core.filter(([word]) => words.has(word)).length / Math.max(1, core.length);
      // With a status asked, one word will do: only checks with subjects in it are kept (withOutcomes).
      if (score >= (statuses.length > 0 ? 1 : 2))
        candidates.push({ controlId: control!.id, checkId: check.id, check, score, share });
    }
  }
  const asked = withOutcomes(candidates, statuses, index);
  const best = asked.reduce((top, candidate) => Math.max(top, candidate.score), 0);
  const tied = asked.filter((candidate) => candidate.score === best);
  const share = tied.reduce((top, candidate) => Math.max(top, candidate.share), 0);
  // Met only through an evidence kind's words ("which laptops fail device checks"): every check of that kind with subjects in the statuses asked.
  const chosen = share === 0 && statuses.length > 0 ? tied : tied.filter((candidate) => candidate.share === share);
  const found = asked.filter(
    (candidate) =>
      chosen.includes(candidate) || chosen.some((best) => best.controlId === candidate.controlId && candidate.score >= 3),
  );
  const controls = new Set(chosen.map((candidate) => candidate.controlId));
  return controls.size <= 3 ? found.map(({ controlId, checkId, score }) => ({ controlId, checkId, score })) : [];
}

/** Of the matched checks, those whose control has findings in the statuses asked ("stale", "failing"), if any has. */
function withOutcomes<T extends CheckMatch & { check: Check; score: number }>(
  found: T[],
  statuses: readonly string[],
  index: ReportIndex,
): T[] {
  const outcomes = new Set(statuses.flatMap((status) => (status === 'failing' ? ['fail'] : status === 'stale' ? ['stale'] : [])));
  if (outcomes.size === 0) return found.filter((candidate) => candidate.score >= 2);
  const having = found.filter(({ controlId, check }) =>
    openFindings(index.byId.get(controlId)?.result, check).some((finding) => outcomes.has(finding.outcome)),
  );
  return having.length > 0 ? having : found.filter((candidate) => candidate.score >= 2);
}

/** The catalog check a match names, if the control has it. */
export function checkOf(index: ReportIndex, match: CheckMatch): Check | undefined {
  return index.byId.get(match.controlId)?.control?.checks?.find((check) => check.id === match.checkId);
}

/** A check's failing subjects, and those whose evidence of the check's kind is stale or missing. */
function openFindings(result: ControlResult | undefined, check: Check): Finding[] {
  return (result?.findings ?? []).filter(
    (finding) =>
      ((finding.outcome === 'fail' || finding.outcome === 'error') && finding.check === check.id) ||
      ((finding.outcome === 'stale' || finding.outcome === 'missing') && finding.kind === check.kind),
  );
}

export function answerChecks({ checks: matches }: QueryOf<'checks'>, index: ReportIndex): ComposedAnswer {
  const lines: string[] = [];
  const cited: ControlResult[] = [];
  for (const match of matches) {
    const result = index.byId.get(match.controlId)?.result;
    const check = checkOf(index, match);
    if (!result || !check) continue;
    const findings = result.findings.filter((finding) => finding.check === check.id);
    const open = openFindings(result, check);
    const failing = open.filter((finding) => finding.outcome === 'fail' || finding.outcome === 'error').length;
    const outdated = open.length - failing;
    const passing = findings
      .filter((finding) => finding.outcome === 'pass')
      .reduce((sum, finding) => sum + subjectsIn(finding.message), 0);
    const counts = [
      ...(failing > 0 ? [`${plural(failing, 'subject')} ${failing === 1 ? 'fails' : 'fail'}`] : []),
      ...(outdated > 0 ? [`${plural(outdated, 'subject')} without fresh evidence`] : []),
      ...(passing > 0 ? [`${passing} pass`] : []),
    ];
    lines.push(
      `**${result.id}** ${escapeMarkdown(result.title)}, check ${escapeMarkdown(check.id)} on ${check.kind} evidence: ` +
        (counts.length === 0
          ? `not evaluated in this report (the control is ${result.status.replace('_', ' ')}).`
          : `${failing === 0 && outdated === 0 ? 'no subject fails; ' : ''}${counts.join('; ')}.`),
      ...open.map((finding) => `- ${escapeMarkdown(finding.message)}`),
      '',
    );
    if (!cited.includes(result)) cited.push(result);
  }
  return answered(lines, cited);
}

/** Subjects a pass finding speaks for: "12 subjects pass mfa-enrolled." counts 12, one named subject 1. */
const subjectsIn = (message: string) => Number(/^(\d+) subjects pass\b/.exec(message)?.[1] ?? 1);

/** The subjects behind controls: each one's failing findings and those without fresh evidence. */
export function answerFindings({ controlIds }: QueryOf<'findings'>, index: ReportIndex): ComposedAnswer {
  const lines: string[] = [];
  const cited: ControlResult[] = [];
  const openOf = (result: ControlResult) =>
    result.findings.filter((finding) => ['fail', 'error', 'stale', 'missing'].includes(finding.outcome));
  const results = controlIds.flatMap((id) => index.byId.get(id)?.result ?? []);
  // The controls with subjects at fault, when some have: those are what "which devices are behind that" asks after.
  const withOpen = results.filter((result) => openOf(result).length > 0);
  for (const result of withOpen.length > 0 ? withOpen : results) {
    const open = openOf(result);
    cited.push(result);
    lines.push(
      `**${result.id}** ${escapeMarkdown(result.title)} (${statusLabel[result.status]}): ` +
        (open.length === 0 ? 'no subject fails.' : `${plural(open.length, 'open finding')}:`),
      ...open.map((finding) => `- ${escapeMarkdown(finding.message)}`),
      '',
    );
  }
  return answered(lines, cited);
}
