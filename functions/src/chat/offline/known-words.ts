/**
 * Whether a question's words are about this report: a capitalised name it never mentions
 * ("Kubernetes") or topic words it never uses make a question about something else, and a status
 * word mistyped by one edit ("faling") is put right before anything else reads the question.
 */
import { controlIdsIn, frameworkMatches, type ReportIndex } from '../report-index.js';
import { correctableStatusWords } from './status-words.js';
import { isOneEditFrom, questionWords, stem, stopWords, tokenize } from '../vocabulary.js';

/**
 * The text with each status word mistyped by one edit put right. A word the report or the engine
 * knows is left alone, and so is one whose first letter differs (a slip rarely hits the first
 * letter, and "mailing" is not "failing").
 */
export function withStatusTyposFixed(text: string, index: ReportIndex): string {
  return text.replace(/\b[a-z]{5,}\b/g, (word) => {
    const stemmed = stem(word);
    if (stopWords.has(word) || questionWords.has(stemmed) || isKnownTerm(stemmed, index)) return word;
    return correctableStatusWords.find((status) => status[0] === word[0] && isOneEditFrom(word, status)) ?? word;
  });
}

/**
 * A capitalised word the report never mentions ("Google", "Kubernetes") is a question about
 * something else. A sentence's first word is only checked when it is possessive ("Google's"),
 * since "Describe…" is capitalised for grammar, not as a name.
 */
export function unknownName(message: string, index: ReportIndex): string | undefined {
  const sentences = message.split(/[.!?;:]\s+|\n/);
  for (const sentence of sentences) {
    const words = [...sentence.matchAll(/[A-Za-z][A-Za-z0-9'\u2019&]*(?:[.-][A-Za-z0-9]+)*/g)];
    for (let position = 0; position < words.length; position++) {
      const raw = words[position]![0].replace(/['\u2019]s$/, '');
      const possessive = raw !== words[position]![0];
      if (!/^[A-Z]/.test(raw) || (position === 0 && !possessive)) continue;
      if (!isKnownWord(raw, index)) return raw;
    }
  }
  return undefined;
}

/** Calendar words name no subject ("since Monday"); months are matched by their first three letters. */
const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const frameworkWords = new Set(['sp', 'rev', 'revision', 'annex', 'iec', 'tsc', 'type', 'ii', 'nist', 'iso', 'soc', 'aicpa']);

function isKnownWord(word: string, index: ReportIndex): boolean {
  const lower = word.toLowerCase();
  if (stopWords.has(lower) || controlIdsIn(index, word).length > 0 || frameworkMatches(index, word).length > 0) return true;
  // How frameworks are named ("NIST SP 800-53 Rev 5", "Annex A"), and NIST's control families ("AC", "SI").
  if (
    /^(q[1-4]|h[12]|fy\d{0,4})$/.test(lower) ||
    frameworkWords.has(lower) ||
    (/^[a-z]{2}$/.test(lower) && [...index.byFramework.keys()].some((key) => key.startsWith(`${lower}-`)))
  )
    return true;
  // Split as the index splits the report's text, so `ACME-CB-002` is `acme` and `cb-002`, as in the findings.
  const parts = tokenize(lower);
  return parts.every((part) => {
    const stemmed = stem(part);
    return (
      stopWords.has(part) ||
      questionWords.has(stemmed) ||
      index.vocabulary.has(stemmed) ||
      monthNames.some((month) => part.startsWith(month)) ||
      weekdays.includes(part) ||
      /^\d/.test(part)
    );
  });
}

/** A stemmed topic word the report uses, its catalog's aliases among them. */
export function isKnownTerm(term: string, index: ReportIndex): boolean {
  if (index.vocabulary.has(term) || /^\d+$/.test(term)) return true;
  if (/^un.{4,}/.test(term) && index.vocabulary.has(term.slice(2))) return true;
  if (term.length < 5) return false;
  for (const word of index.vocabulary) if (word.startsWith(term)) return true;
  return false;
}

const surfaces = new WeakMap<ReportIndex, Set<string>>();

/** The words the catalog and report spell out (titles, families, owners, checks' messages and kinds), as written. */
function surfaceWords(index: ReportIndex): Set<string> {
  const known = surfaces.get(index);
  if (known) return known;
  const words = new Set<string>();
  const add = (text: string) => {
    for (const word of text.toLowerCase().match(/[a-z]{5,}/g) ?? []) words.add(word);
  };
  for (const { result, control } of index.controls) {
    add(`${result.title} ${result.family} ${result.owner ?? ''}`);
    for (const check of control?.checks ?? []) add(`${check.id} ${check.kind} ${check.pass} ${check.fail}`);
    for (const requirement of control?.evidence ?? []) add(requirement.kind);
  }
  surfaces.set(index, words);
  return words;
}

/**
 * The text with each word one slip away from exactly one word the catalog spells out put right
 * ("secuirty lead" → "security lead", "acess review" → "access review"). Words the report or the
 * engine knows, and short ones, are left alone.
 */
export function withTyposFixed(text: string, index: ReportIndex): string {
  const known = surfaceWords(index);
  return text.replace(/\b[a-z]{5,}\b/g, (word) => {
    if (known.has(word) || stopWords.has(word) || questionWords.has(stem(word)) || isKnownTerm(stem(word), index)) return word;
    // A five-letter word is only put right for a dropped letter ("acess"): "whole" is a word, not "while" mistyped.
    const near = [...known].filter(
      (candidate) =>
        candidate[0] === word[0] && (word.length >= 6 || candidate.length > word.length) && isOneEditFrom(word, candidate),
    );
    return near.length === 1 ? near[0]! : word;
  });
}
