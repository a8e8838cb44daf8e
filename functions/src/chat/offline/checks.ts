/**
 * The catalog checks a question's words meet ("which laptops aren't patched", "has ravi.sharma
 * enrolled a second factor"): by the check's id and the evidence fields its expression reads
 * (`item.data.mfaEnabled` → "mfa", "enabled"), so the vocabulary is the evidence schemas' own.
 */
import type { Check } from '../../assessment/model.js';
import { severityCue, statusesIn } from './question-cues.js';
import { openFindingsOf, type ReportIndex } from '../report-index.js';
import type { Asked } from './asked.js';
import { stem, stopWords } from '../vocabulary.js';
import type { CheckMatch } from '../question.js';

/** Words too general to pick a check ("data", "item", "active" describe most of them). */
const generic = new Set('item data active has are all any control check evidence run day subject last days'.split(' ').map(stem));

const wordsIn = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((word) => stem(word.toLowerCase()))
    .filter((word) => word.length >= 3 && !stopWords.has(word) && !generic.has(word));

const checkWords = new WeakMap<Check, Map<string, number>>();

/**
 * The words a check answers to, worked out once (the catalog lives as long as the process): its
 * id's and those of the fields its expression reads (split at camelCase) weigh 2, its evidence
 * kind's, its messages' and its expression's literals' 1.
 */
const wordsOf = (check: Check) => checkWords.get(check) ?? checkWords.set(check, weighed(check)).get(check)!;

function weighed(check: Check): Map<string, number> {
  const source = `${check.expression} ${check.where ?? ''}`;
  const fields = [...source.matchAll(/\bdata\.([A-Za-z0-9]+)/g)].map((match) => match[1]!);
  const literals = [...source.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
  const messages = `${check.pass} ${check.fail}`.replace(/\{\{[^{}]*\}\}/g, ' ');
  const weights = new Map(wordsIn(`${messages} ${check.kind} ${literals.join(' ')}`).map((word) => [word, 1]));
  for (const word of wordsIn([check.id, ...fields].join(' '))) weights.set(word, 2);
  return weights;
}

const subjectQuestion =
  /^(which|who|whose|list|show|name|how many|(has|have|did|is|are|does) (everyone|everybody|anyone|anybody|every \w+|all (the )?\w+)|are there (any )?|is there (any|an?)|do (any|all|we have any)|does (any|every)|what (people|users|accounts|devices|laptops|machines|computers|repos|repositories|buckets|hosts|servers|vendors|keys|certificates|certs|alerts|policies|systems|services|assets|backups|databases|apps|applications|employees|staff))\b/;

/** The checks a subject-level question is about: those meeting the most of its words, then the most of their own. */
export function checksAskedAbout({ text, index, ids }: Asked): CheckMatch[] {
  // "Past their review window" still asks after subjects; "which of them" leans on the previous answer.
  const leans = /^(which|what) evidence\b/.test(text) || /\b(it|that|this|those|these|them|they)\b/.test(text);
  // A question for controls, requirements or named controls is not about subjects ("for the key rotation control" still is).
  const forControls = /\b(which|what|list|show|any|all|how many) (\w+ )?(controls?|requirements?)\b/.test(text) || ids.length > 0;
  return !subjectQuestion.test(text) || leans || forControls ? [] : checksMeeting(text, index);
}

type Candidate = CheckMatch & { check: Check; score: number; share: number };

/** The checks a question's words meet best (statuses and severities pick no check), with the chosen controls' others it speaks of. */
export function checksMeeting(text: string, index: ReportIndex): CheckMatch[] {
  const { statuses, rest } = statusesIn(text.replace(severityCue, ' '));
  const words = new Set(wordsIn(rest));
  const candidates: Candidate[] = index.controls.flatMap(({ control }) =>
    (control?.checks ?? []).flatMap((check) => {
      const weights = [...wordsOf(check)];
      const score = weights.reduce((sum, [word, weight]) => sum + (words.has(word) ? weight : 0), 0);
      const core = weights.filter(([, weight]) => weight === 2);
      const share = core.filter(([word]) => words.has(word)).length / Math.max(1, core.length);
      // With a status asked, one word will do: only checks with subjects in it are kept (withOutcomes).
      return score >= (statuses.length > 0 ? 1 : 2) ? [{ controlId: control!.id, checkId: check.id, check, score, share }] : [];
    }),
  );
  // "Which bucket is open to the internet?" asks about buckets: the checks on the evidence kind its subject names.
  const subject = wordsIn(/^(?:which|what) (\w+)/.exec(rest.trim())?.[1] ?? '');
  const ofKind = candidates.filter(({ check }) => wordsIn(check.kind).some((word) => subject.includes(word)));
  const asked = withOutcomes(ofKind.length > 0 ? ofKind : candidates, statuses, index);
  const best = Math.max(0, ...asked.map((candidate) => candidate.score));
  const tied = asked.filter((candidate) => candidate.score === best);
  const share = Math.max(0, ...tied.map((candidate) => candidate.share));
  // Met only through an evidence kind's words ("which laptops fail device checks"), every check tied at share 0 is chosen.
  const chosen = tied.filter((candidate) => candidate.share === share);
  const controls = new Set(chosen.map((candidate) => candidate.controlId));
  const found = asked.filter(
    (candidate) => chosen.includes(candidate) || (candidate.score >= 3 && controls.has(candidate.controlId)),
  );
  return controls.size <= 3 ? found.map(({ controlId, checkId, score }) => ({ controlId, checkId, score })) : [];
}

/** Of the matched checks, those whose control has findings in the statuses asked ("stale", "failing"), if any has. */
function withOutcomes(found: Candidate[], statuses: readonly string[], index: ReportIndex): Candidate[] {
  const outcomes = statuses.flatMap((status) => (status === 'failing' ? ['fail'] : status === 'stale' ? ['stale'] : []));
  const having = found.filter(({ controlId, check }) =>
    openFindingsOf(index.byId.get(controlId)?.result, check).some((finding) => outcomes.includes(finding.outcome)),
  );
  return having.length > 0 ? having : found.filter((candidate) => candidate.score >= 2);
}
