/**
 * Whether a question's words are about this report: a capitalised name it never mentions
 * ("Kubernetes") or topic words it never uses make a question about something else, and a word
 * mistyped by one edit ("faling", "secuirty") is put right before anything else reads the question.
 */
import { controlIdsIn, frameworkMatches, type ReportIndex } from '../report-index.js';
import { correctableStatusWords } from './status-words.js';
import { isOneEditFrom, questionWords, stem, stopWords, tokenize } from '../vocabulary.js';

/** A word the report or the engine knows is no slip ("mailing" is not "failing"). */
const isKnown = (word: string, index: ReportIndex) =>
  stopWords.has(word) || questionWords.has(stem(word)) || isKnownTerm(stem(word), index);

/**
 * The text with each word one slip of the keyboard away from a word the report spells out put
 * right, in one pass: a status word ("faling" → "failing") or a word every question is about
 * ("contorls" → "controls"), else exactly one word the catalog
 * spells out ("secuirty lead" → "security lead", "acess review" → "access review"). A word the
 * report or the engine knows is no slip ("mailing" is not "failing"), nor is one whose first letter
 * differs (a slip rarely hits it); a five-letter word is only put right for a dropped letter
 * ("acess"): "whole" is a word, not "while" mistyped.
 */
export function withTyposFixed(text: string, index: ReportIndex): string {
  const known = surfaceWords(index);
  const near = (word: string, candidate: string) => candidate[0] === word[0] && isOneEditFrom(word, candidate);
  return text.replace(/\b[a-z0-9]+\b/g, (word) => {
    const written = shorthand.get(word);
    if (written || word.length < 5 || !/^[a-z]+$/.test(word)) return written ?? word;
    // Before the known-word test, which takes any prefix of a report word ("attestaions" starts as "attestation" does).
    const noun = questionNouns.find((candidate) => near(word, candidate));
    if (noun && !index.vocabulary.has(stem(word))) return noun;
    if (isKnown(word, index)) return word;
    const status = correctableStatusWords.find((candidate) => near(word, candidate));
    if (status) return status;
    if (known.has(word)) return word;
    const spelled = [...known].filter(
      (candidate) => (word.length >= 6 || candidate.length > word.length) && near(word, candidate),
    );
    return spelled.length === 1 ? spelled[0]! : word;
  });
}

/** What every question is about, though no title spells it out ("contorls", "evidnce"). */
const questionNouns = [
  ...['control', 'controls', 'evidence', 'requirement', 'requirements', 'framework', 'frameworks'],
  ...['attestation', 'attestations'],
];

/** Chat shorthand, written out ("how r we doin", "wat changed", "any probs"). */
const shorthand = new Map(
  Object.entries({
    r: 'are',
    u: 'you',
    ur: 'your',
    wat: 'what',
    wut: 'what',
    doin: 'doing',
    probs: 'problems',
    b4: 'before',
    abt: 'about',
    thru: 'through',
    hw: 'how',
    mgmt: 'management',
  }),
);

/**
 * A capitalised word the report never mentions ("Google", "Kubernetes") is a question about
 * something else. A sentence's first word is only checked when it is possessive ("Google's"),
 * since "Describe…" is capitalised for grammar, not as a name.
 */
export function unknownName(message: string, index: ReportIndex): string | undefined {
  for (const sentence of message.split(/[.!?;:]\s+|\n/)) {
    const words = [...sentence.matchAll(/[A-Za-z][A-Za-z0-9'\u2019&]*(?:[.-][A-Za-z0-9]+)*/g)].map(([word]) => word);
    for (const [position, word] of words.entries()) {
      const raw = word.replace(/['\u2019]s$/, '');
      if (/^[A-Z]/.test(raw) && (position > 0 || raw !== word) && !isKnownWord(raw, index)) return raw;
    }
  }
  return undefined;
}

/** How frameworks are named ("NIST SP 800-53 Rev 5", "Annex A", "Q3", "FY2026"). */
const frameworkWords = new Set(['sp', 'rev', 'revision', 'annex', 'iec', 'tsc', 'type', 'ii', 'nist', 'iso', 'soc', 'aicpa']);
/** Who an answer may be for ("a summary for the CISO"): a reader, not a subject of the report. */
const audienceWords = new Set([
  'ciso',
  'cio',
  'cto',
  'ceo',
  'cfo',
  'coo',
  'vp',
  'svp',
  'evp',
  'board',
  'exec',
  'execs',
  'auditor',
  'auditors',
]);
/** Numbers and calendar words name no subject ("since Monday"); months are matched by their first three letters. */
const calendarWord = /^(\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|(sun|mon|tues|wednes|thurs|fri|satur)day$)/;

function isKnownWord(word: string, index: ReportIndex): boolean {
  const lower = word.toLowerCase();
  if (stopWords.has(lower) || controlIdsIn(index, word).length > 0 || frameworkMatches(index, word).length > 0) return true;
  if (/^(q[1-4]|h[12]|fy\d{0,4})$/.test(lower) || frameworkWords.has(lower) || audienceWords.has(lower)) return true;
  // NIST's control families ("AC", "SI").
  if (/^[a-z]{2}$/.test(lower) && [...index.byFramework.keys()].some((key) => key.startsWith(`${lower}-`))) return true;
  // Split as the index splits the report's text, so `ACME-CB-002` is `acme` and `cb-002`, as in the findings.
  return tokenize(lower).every(
    (part) => stopWords.has(part) || questionWords.has(stem(part)) || index.vocabulary.has(stem(part)) || calendarWord.test(part),
  );
}

/** A stemmed topic word the report uses, its catalog's aliases among them. */
export function isKnownTerm(term: string, index: ReportIndex): boolean {
  if (index.vocabulary.has(term) || /^\d+$/.test(term) || (/^un.{4,}/.test(term) && index.vocabulary.has(term.slice(2))))
    return true;
  if (term.length >= 5) for (const word of index.vocabulary) if (word.startsWith(term)) return true;
  return false;
}

const surfaces = new WeakMap<ReportIndex, Set<string>>();

/** The words the catalog and report spell out (titles, families, owners, checks' messages and kinds), as written. */
const surfaceWords = (index: ReportIndex): Set<string> =>
  surfaces.get(index) ?? surfaces.set(index, spelledOut(index)).get(index)!;

const spelledOut = (index: ReportIndex) =>
  new Set(
    index.controls
      .flatMap(({ result, control }) => [
        `${result.title} ${result.family} ${result.owner ?? ''}`,
        ...(control?.checks ?? []).map((check) => `${check.id} ${check.kind} ${check.pass} ${check.fail}`),
        ...(control?.evidence ?? []).map((requirement) => requirement.kind),
      ])
      .join(' ')
      .toLowerCase()
      .match(/[a-z]{5,}/g),
  );
