/**
 * The names a question may use for what the report holds besides controls: the subjects of its
 * findings and of the evidence going stale ("priya.patel", "acme/billing-service", "ACME-XPS-004"),
 * the people its messages name by address, and the controls' owners ("the IT lead"). Each is known
 * under the names people use for it: a repository without its owner, a bucket without its provider
 * prefix, an address without its domain, a person's first and last name, or their first name when
 * no one else in the report has it.
 *
 * A question is read against them word by word, not with an expression built from the names: a
 * name is mentioned where its words follow one another in the question, each word as written or,
 * for a word of six letters or more, one slip of the keyboard away ("priya.patle"), found in a
 * MiniSearch index of the names' words. The longest name mentioned wins.
 */
import MiniSearch from 'minisearch';
import type { ReportIndex } from '../report-index.js';
import { stopWords } from '../vocabulary.js';

export interface NamedEntity {
  kind: 'subject' | 'owner';
  /** How the report names it. */
  display: string;
  /** Lower-cased strings that identify a subject in a finding's subject or message. */
  keys: Set<string>;
}

export interface Mention {
  /** The name's words, as the report's name for it has them. */
  alias: string;
  entity: NamedEntity;
  /** Where the question mentions it (its first mention). */
  at: number;
  end: number;
}

export interface Entities {
  /** Every name, lower-cased as written, to what it names. */
  byAlias: ReadonlyMap<string, NamedEntity>;
  /** What the text names, each by the longest name it uses for it, longest first. */
  mentions(text: string): Mention[];
}

/**
 * An address starts where a run of the characters an address may hold starts: tried inside a run
 * too, the expression rescans the rest of it from every character, quadratic in a finding message
 * of 64,000 letters and no `@` (an address can only end the run it starts in, so it finds the same).
 */
export const emailPattern = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

const wordPattern = /[a-z0-9]+/g;
/** What may stand between two words of one name: "priya.patel", "billing-service", "acme/api". */
const joiner = /^[\s._@/-]{1,3}$/;
/** Words this long are matched one slip away; shorter ones only as written. */
const fuzzyLength = 6;
/** Words longer than this are matched only as written: a long run of letters would cost its length squared. */
const maxFuzzyLength = 40;

/** The names a subject goes by, longest meaning first. */
function aliasesOf(subject: string): string[] {
  const lower = subject.toLowerCase();
  const aliases = [lower];
  const email = /^([a-z0-9._%+-]+)@/.exec(lower);
  if (email) aliases.push(email[1]!);
  const last = lower.split('/').at(-1)!;
  if (last !== lower && !email) aliases.push(last);
  // A one-word alias must look like a name, not a word a question uses for something else.
  return aliases.filter((alias) => alias.length >= 4 && !stopWords.has(alias) && (/[^a-z]/.test(alias) || alias === lower));
}

const built = new WeakMap<ReportIndex, Entities>();

export function entitiesOf(index: ReportIndex): Entities {
  const known = built.get(index);
  if (known) return known;
  const byAlias = namesOf(index);
  const entities = finderOf(byAlias);
  built.set(index, entities);
  return entities;
}

function namesOf(index: ReportIndex): Map<string, NamedEntity> {
  const byAlias = new Map<string, NamedEntity>();
  const add = (kind: NamedEntity['kind'], display: string, aliases: string[], keys: string[]) => {
    for (const alias of aliases) {
      const named = byAlias.get(alias) ?? { kind, display, keys: new Set<string>() };
      for (const key of keys) named.keys.add(key.toLowerCase());
      byAlias.set(alias, named);
    }
  };
  for (const { result } of index.controls) {
    for (const finding of result.findings) {
      if (finding.subject) add('subject', finding.subject, aliasesOf(finding.subject), [finding.subject]);
      for (const email of finding.message.match(emailPattern) ?? []) add('subject', email, aliasesOf(email), [email]);
    }
    for (const item of result.expiring ?? []) add('subject', item.subject, aliasesOf(item.subject), [item.subject]);
  }
  // A person's first name alone ("is lucas' laptop ok"), when only one person of the report has it.
  const firstNames = new Map<string, Set<NamedEntity>>();
  for (const [alias, named] of byAlias) {
    const first = /^([a-z]{4,})\.[a-z]+$/.exec(alias)?.[1];
    if (first && !stopWords.has(first)) firstNames.set(first, (firstNames.get(first) ?? new Set()).add(named));
  }
  for (const [first, people] of firstNames) if (people.size === 1 && !byAlias.has(first)) byAlias.set(first, [...people][0]!);
  for (const { result } of index.controls)
    if (result.owner && !byAlias.has(result.owner.toLowerCase())) add('owner', result.owner, [result.owner.toLowerCase()], []);
  return byAlias;
}

interface Word {
  word: string;
  at: number;
  end: number;
}

/** A name as its words and what stands between them in the report's spelling. */
interface Name {
  key: string;
  words: string[];
  gaps: string[];
}

const wordsOf = (text: string): Word[] =>
  [...text.matchAll(wordPattern)].map((match) => ({ word: match[0], at: match.index, end: match.index + match[0].length }));

function nameOf(alias: string): Name {
  const words = wordsOf(alias);
  const gaps = words.slice(1).map((word, at) => alias.slice(words[at]!.end, word.at));
  return { key: words.map(({ word }) => word).join(' '), words: words.map(({ word }) => word), gaps };
}

function finderOf(byAlias: Map<string, NamedEntity>): Entities {
  /** Each name by its first word; names that differ only in punctuation are one. */
  const byFirstWord = new Map<string, Name[]>();
  const byKey = new Map<string, NamedEntity>();
  for (const [alias, entity] of byAlias) {
    const name = nameOf(alias);
    if (name.words.length === 0 || byKey.has(name.key)) continue;
    byKey.set(name.key, entity);
    byFirstWord.set(name.words[0]!, [...(byFirstWord.get(name.words[0]!) ?? []), name]);
  }
  const vocabulary = new MiniSearch<{ id: string }>({ fields: ['id'], tokenize: (text) => [text] });
  vocabulary.addAll([...new Set([...byKey.keys()].flatMap((key) => key.split(' ')))].map((id) => ({ id })));
  /** The names' words a question's word may be: itself, and those one slip away (a word longer than any name's is none). */
  const near = (word: string): Set<string> => {
    const found = new Set([word]);
    if (word.length >= fuzzyLength && word.length <= maxFuzzyLength)
      for (const hit of vocabulary.search(word, { fuzzy: 1 })) found.add(hit.id as string);
    return found;
  };
  return {
    byAlias,
    mentions(asked) {
      const text = asked.toLowerCase();
      const words = wordsOf(text);
      const seen = new Map<string, Set<string>>();
      const nearWords = words.map(({ word }) => seen.get(word) ?? seen.set(word, near(word)).get(word)!);
      const found = new Map<string, Mention>();
      for (let start = 0; start < words.length; start++) {
        for (const first of nearWords[start]!) {
          for (const name of byFirstWord.get(first) ?? []) {
            if (found.has(name.key) || !follows(name, start, words, nearWords, text)) continue;
            const [at, end] = [words[start]!.at, words[start + name.words.length - 1]!.end];
            found.set(name.key, { alias: name.key, entity: byKey.get(name.key)!, at, end });
          }
        }
      }
      const longestFirst = [...found.values()].sort((a, b) => b.alias.length - a.alias.length);
      return longestFirst.filter(
        (mention, at) => longestFirst.findIndex(({ entity }) => entity.display === mention.entity.display) === at,
      );
    },
  };
}

/**
 * Whether the name's words follow one another in the question from word `start`, each pair
 * joined as the report joins them or by a mark names use.
 */
function follows(name: Name, start: number, words: Word[], nearWords: Set<string>[], text: string): boolean {
  if (start + name.words.length > words.length) return false;
  for (let offset = 0; offset < name.words.length; offset++) {
    const at = start + offset;
    if (!nearWords[at]!.has(name.words[offset]!)) return false;
    const gap = offset > 0 ? text.slice(words[at - 1]!.end, words[at]!.at) : '';
    if (offset > 0 && gap !== name.gaps[offset - 1] && !joiner.test(gap)) return false;
  }
  // A one-word name shorter than the fuzzy length is matched only as written.
  return name.words.length > 1 || name.words[0]!.length >= fuzzyLength || words[start]!.word === name.words[0];
}
