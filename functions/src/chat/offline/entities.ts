/**
 * The names a question may use for what the report holds besides controls: the subjects of its
 * findings and expiring evidence ("priya.patel", "acme/billing-service"), the people its messages
 * name by address, and the controls' owners ("the IT lead"), each under the shorter names people
 * use too (a repository without its owner, an address without its domain, a unique first name).
 *
 * A question is read word by word, not with an expression built from the names: a name is
 * mentioned where its words follow one another, each as written or, six letters or longer, one
 * slip away ("priya.patle") in a MiniSearch index of the names' words. The longest name wins.
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
  /** Where the question first mentions it. */
  at: number;
  end: number;
}

export interface Entities {
  /** Every name, lower-cased as written, to what it names. */
  byAlias: ReadonlyMap<string, NamedEntity>;
  /** What the text names, each by the longest name it uses for it, longest first. */
  mentions(text: string): readonly Mention[];
}

/**
 * Tried only where a run of address characters starts: inside a run it would rescan the rest of
 * it from every character, quadratic in a 64,000-letter message with no `@`.
 */
export const emailPattern = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** What may stand between two words of one name: "priya.patel", "billing-service", "acme/api". */
const joiner = /^[\s._@/-]{1,3}$/;
/** Words this long are matched one slip away; shorter ones only as written. */
const fuzzyLength = 6;
/** Longer words only as written: a long run of letters would cost its length squared. */
const maxFuzzyLength = 40;

/** What people call a resource by the kind its path starts with: "the billing database" is `cloudsql/acme-prod-billing`. */
const resourceNouns: Record<string, string> = {
  cloudsql: 'database',
  rds: 'database',
  db: 'database',
  gcs: 'bucket',
  s3: 'bucket',
  bucket: 'bucket',
  host: 'host',
  vm: 'server',
  image: 'image',
};

/** "Billing database", "marketing bucket": each word of a resource's name (past its first) with the noun of its kind. */
function resourceAliases(lower: string): string[] {
  const [kind, name, ...rest] = lower.split('/');
  const noun = kind && resourceNouns[kind];
  if (!noun || !name || rest.length > 0) return [];
  const words = name
    .split(/[-_.]/)
    .slice(1)
    .filter((word) => word.length >= 4 && /^[a-z]+$/.test(word));
  return [...words.map((word) => `${word} ${noun}`), ...(words.length > 1 ? [`${words.join(' ')} ${noun}`] : [])];
}

/** The names a subject goes by: itself, an address's local part, a path's last part, a resource's words and kind. */
function aliasesOf(subject: string): string[] {
  const lower = subject.toLowerCase();
  const local = /^([a-z0-9._%+-]+)@/.exec(lower)?.[1];
  const aliases = [lower, local ?? lower.split('/').at(-1)!, ...resourceAliases(lower)];
  // A one-word alias must look like a name, not a word a question uses for something else.
  return [...new Set(aliases)].filter(
    (alias) => alias.length >= 4 && !stopWords.has(alias) && (/[^a-z]/.test(alias) || alias === lower),
  );
}

const built = new WeakMap<ReportIndex, Entities>();

export const entitiesOf = (index: ReportIndex): Entities =>
  built.get(index) ?? built.set(index, finderOf(namesOf(index))).get(index)!;

function namesOf(index: ReportIndex): Map<string, NamedEntity> {
  const byAlias = new Map<string, NamedEntity>();
  const add = (kind: NamedEntity['kind'], display: string, aliases = aliasesOf(display)) => {
    for (const alias of aliases) {
      const named = byAlias.get(alias) ?? { kind, display, keys: new Set<string>() };
      if (kind === 'subject') named.keys.add(display.toLowerCase());
      byAlias.set(alias, named);
    }
  };
  for (const { result } of index.controls) {
    for (const finding of result.findings) {
      if (finding.subject) add('subject', finding.subject);
      for (const email of finding.message.match(emailPattern) ?? []) add('subject', email);
    }
    for (const item of result.expiring ?? []) add('subject', item.subject);
  }
  // A person's first name alone ("is lucas' laptop ok"), when only one person of the report has it.
  const firstNames = new Map<string, Set<NamedEntity>>();
  for (const [alias, named] of byAlias) {
    const first = /^([a-z]{4,})\.[a-z]+$/.exec(alias)?.[1];
    if (first && !stopWords.has(first)) firstNames.set(first, (firstNames.get(first) ?? new Set()).add(named));
  }
  for (const [first, people] of firstNames) if (people.size === 1 && !byAlias.has(first)) byAlias.set(first, [...people][0]!);
  for (const { result } of index.controls)
    if (result.owner && !byAlias.has(result.owner.toLowerCase())) add('owner', result.owner, [result.owner.toLowerCase()]);
  return byAlias;
}

const wordsOf = (text: string) =>
  [...text.matchAll(/[a-z0-9]+/g)].map(({ 0: word, index: at }) => ({ word, at, end: at + word.length }));

/** A name as its words and what stands between them in the report's spelling; names that differ only in punctuation are one. */
interface Name {
  key: string;
  words: string[];
  gaps: string[];
  entity: NamedEntity;
  /** Its place among the names, so the names a word starts are tried in one order whichever way they are found. */
  order: number;
}

/**
 * What finds a name: its one word, or its first two. Keyed by the first word alone, a question's
 * word would try every name it starts — all 60,000 "user-…" subjects of a large report, at every
 * "user" of the question.
 */
const startOf = (words: readonly string[]) => words.slice(0, 2).join(' ');

function finderOf(byAlias: Map<string, NamedEntity>): Entities {
  const byStart = new Map<string, Name[]>();
  const keys = new Set<string>();
  for (const [alias, entity] of byAlias) {
    const found = wordsOf(alias);
    const words = found.map(({ word }) => word);
    const key = words.join(' ');
    if (words.length === 0 || keys.has(key)) continue;
    keys.add(key);
    const gaps = found.slice(1).map((word, at) => alias.slice(found[at]!.end, word.at));
    const name = { key, words, gaps, entity, order: keys.size };
    const start = startOf(words);
    const named = byStart.get(start);
    if (named) named.push(name);
    else byStart.set(start, [name]);
  }
  const vocabulary = new MiniSearch<{ id: string }>({ fields: ['id'], tokenize: (text) => [text] });
  vocabulary.addAll([...new Set([...keys].flatMap((key) => key.split(' ')))].map((id) => ({ id })));
  /** The names' words a question's word may be: itself, and those one slip away. */
  const near = (word: string): Set<string> => {
    const found = new Set([word]);
    if (word.length >= fuzzyLength && word.length <= maxFuzzyLength)
      for (const hit of vocabulary.search(word, { fuzzy: 1 })) found.add(hit.id as string);
    return found;
  };
  /** The last text read and what it names: the reader asks for owners, subjects and a subject's past of one text. */
  let last: { text: string; mentions: readonly Mention[] } | undefined;
  const mentionsIn = (text: string): Mention[] => {
    const words = wordsOf(text);
    const seen = new Map<string, Set<string>>();
    const nearWords = words.map(({ word }) => seen.get(word) ?? seen.set(word, near(word)).get(word)!);
    /** Whether the name's words follow one another from word `start`, joined as the report joins them or by a mark names use. */
    const follows = ({ words: own, gaps }: Name, start: number) =>
      start + own.length <= words.length &&
      own.every((word, offset) => {
        const gap = offset > 0 ? text.slice(words[start + offset - 1]!.end, words[start + offset]!.at) : '';
        return nearWords[start + offset]!.has(word) && (offset === 0 || gap === gaps[offset - 1] || joiner.test(gap));
      }) &&
      // A one-word name shorter than the fuzzy length is matched only as written.
      (own.length > 1 || own[0]!.length >= fuzzyLength || words[start]!.word === own[0]);
    /** The names a word may start, by their one word or first two, in the names' order. */
    const startingAt = (start: number, first: string): Name[] =>
      [first, ...[...(nearWords[start + 1] ?? [])].map((second) => `${first} ${second}`)]
        .flatMap((key) => byStart.get(key) ?? [])
        .sort((a, b) => a.order - b.order);
    const found = new Map<string, Mention>();
    for (const [start, { at }] of words.entries())
      for (const first of nearWords[start]!)
        for (const name of startingAt(start, first))
          if (!found.has(name.key) && follows(name, start))
            found.set(name.key, { alias: name.key, entity: name.entity, at, end: words[start + name.words.length - 1]!.end });
    const longestFirst = [...found.values()].sort((a, b) => b.alias.length - a.alias.length);
    return longestFirst.filter(
      (mention, at) => longestFirst.findIndex(({ entity }) => entity.display === mention.entity.display) === at,
    );
  };
  return {
    byAlias,
    mentions(asked) {
      const text = asked.toLowerCase();
      if (last?.text !== text) last = { text, mentions: mentionsIn(text) };
      return last.mentions;
    },
  };
}
