/**
 * What a question asks, decided from its words and the conversation so far: the overall
 * posture, a list of controls by status (today's, or an earlier day's), one topic's status, its
 * evidence, how to fix it, why it is in its state, its objective, the framework requirements it
 * maps to, or what changed since an earlier day. Anything the report cannot speak to is
 * classified as a decline here, before any answer is composed, so nothing is guessed later.
 *
 * The topic of a question is resolved to control ids: named ids ("IAM-01"), framework
 * requirements ("CC6.1" → every control mapped to it), a search of the report's text ("backups"),
 * or, for a follow-up ("why?", "how do I fix it?"), the controls the previous answer cited.
 */
import { addDays, isCalendarDate } from '../assessment/dates.js';
import type { ControlStatus, Severity } from '../assessment/model.js';
import type { components } from '../generated/api-types.js';
import { controlIdsIn, frameworkMatches, searchControls, sortIds, withoutControlIds, type ReportIndex } from './report-index.js';
import { isOneEditFrom, isSynonym, questionWords, stem, stopWords, tokenize, topicTerms, topicWords } from './vocabulary.js';

export type ChatTurn = components['schemas']['ChatTurn'];

export interface Topic {
  controlIds: string[];
  /** How the question named it, for the answer's lead: "IAM-01", "CC6.1", "backups". */
  label: string;
  source: 'id' | 'framework' | 'search' | 'previous' | 'status';
}

export type ChangeFocus = 'all' | 'fixed' | 'newlyFailing' | 'newlyStale';

export interface Since {
  /** The earlier day, or null for "the previous report" (whichever day that is). */
  date: string | null;
  /** How the question said it ("yesterday", "2026-11-15"), to echo it back. */
  phrase: string;
}

export type DeclineReason =
  'off_topic' | 'unknown_subject' | 'no_match' | 'no_topic' | 'other_day' | 'invalid_date' | 'date_format' | 'not_earlier';

export type Intent =
  | { kind: 'posture' }
  | {
      kind: 'list';
      statuses: ControlStatus[];
      topic?: Topic;
      severities?: Severity[];
      limit?: number;
      /** The earlier day whose report to list from ("what failed on 2026-11-18"); today's when absent. */
      on?: Since;
    }
  | { kind: 'status'; topic: Topic }
  | { kind: 'objective'; topic: Topic }
  | { kind: 'frameworks'; topic: Topic }
  | { kind: 'evidence'; topic: Topic }
  | { kind: 'fix'; topic: Topic }
  | { kind: 'why'; topic: Topic }
  | { kind: 'changes'; since: Since; focus: ChangeFocus; topic?: Topic }
  | { kind: 'decline'; reason: DeclineReason; subject?: string };

export const attentionStatuses: ControlStatus[] = ['failing', 'stale', 'missing'];

/** Requests the report can never answer, however they are worded (and instructions aimed at the assistant itself). */
const offTopic =
  /\b(ignore (all |any |the |your )?(previous|prior|above|earlier) (instructions|prompts?)|system prompt|jailbreak|pretend (to be|you are)|revenue|profits?|earnings|salar(y|ies)|payroll|budget|weather|forecast|jokes?|funny|poems?|poetry|haiku|songs?|lyrics|recipes?|cook(ing)?|restaurants?|movies?|films?|sports?|football|soccer|basketball|baseball|world cup|super bowl|olympics|stock price|share price|bitcoin|cryptocurrenc\w*|lottery|horoscope|translate|capital of|meaning of life|who (won|invented|wrote|painted)|your name|are you (a |an )?(bot|ai|human|robot)|what time is it|what day is it|dating|girlfriend|boyfriend|vacation|holiday plans?)\b/;

const cues = {
  changes:
    /\b((were|was|got|been|get|gotten) fixed|broke|started failing|changed|changes since|what'?s new|what is new|(any|recent|latest|new) changes|differen(t|ce)s?|compared?|diff|went (up|down)|gone (up|down)|(got|get|getting|gotten) (better|worse)|improved|regress\w*|worse|trend)\b/,
  fix: /\b(fix|fixing|remediat\w*|resolve|repair|address|solve|make (it|them|that|this|\w+(-\d+)?) pass|get (it|them|that|this) (to )?pass(ing)?|what (should|can|do|must) (we|i) do|how (do|can|should|would|to) (we |i )?(fix|get|make|resolve|improve|handle|address|remediate|close)|next steps?|recommend\w*|guidance)\b/,
  evidence:
    /\b(evidence|proof|proves?|proven|supports?|supporting|backs? (it|this|that) up|based on|sources?|artifacts?|which (items|data|records)|what (items|data|records))\b/,
  why: /\b(why|how come|explain\w*|reasons?|what'?s wrong|what is wrong|what went wrong|causes?|caused|details?|more about|elaborate)\b/,
  posture:
    /\b(how (are|is|'re) (we|things|it|everything|the company|acme|our security|security) (doing|looking|going)|how'?s it (going|looking)|how is it (going|looking)|scores?|posture|summary|summari[sz]e|overview|overall|big picture|in a nutshell|report card|tl;?dr|health|how (healthy|secure|compliant|good) (are we|is it)|are we ([\w.-]+ ){0,3}(compliant|secure|ok|okay|good|doing ok|audit[- ]ready|ready)|where do we stand|state of (things|security|compliance))\b/,
  superlative:
    /\b(riskiest|biggest (risk|problem|issue|gap|concern)|most (critical|urgent|important|severe|pressing|serious|risky)|worst|top( \d+| three| five)? (risk|priority|priorities|issue|problem|concern)s?|highest (risk|priority)|first)\b/,
  /** The framework requirements a control maps to ("Which frameworks does IAM-01 map to?"). */
  frameworks: /\b(frameworks?|mappings?|map(s|ped|ping)? (to|onto)|mapped|cross-?walk)\b/,
  /** A control's objective: "objective of ENC-04", "what is IAM-01 for?", "what does it check?". */
  objective:
    /\b(objectives? (of|for)|(the|its|their) (control'?s? )?(objectives?|purpose|goals?|aims?)|purpose of|[a-z]{2,5}[-_ ]?\d{1,3}'?s? (objectives?|purpose|goals?)|what (is|are) ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this|they|those) (for|about)|what does ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this) (require|check|cover|test))\b/,
  pronoun: /\b(it|its|that|this|these|those|them|they|their|the same)\b/,
  followUp: /^(and|also|plus|what about|how about|and what about|and how about|same for|what of|ok(ay)?,? (and|what about))\b/,
};

const statusCues: [ControlStatus | 'attention', RegExp][] = [
  [
    'attention',
    /\b((has|have|did|do|does|is|are)n'?t (yet )?pass\w*|(not|never) (yet )?pass(ed|es)?|need\w* (attention|work|fixing)|attention|problems?|issues?|gaps?|risks|wrong|to ?do|action needed|unhealthy|not (ok|okay|passing|green|compliant)|concerns?|weak\w*|red flags?|worr\w*)\b/,
  ],
  [
    'not_applicable',
    /\b(not applicable|n\/a|scoped out|out of scope|excluded|exempt\w*|(doesn'?t|does not|do not|don'?t) apply)\b/,
  ],
  ['failing', /\b(fail\w*|broken|red|non-?compliant|violat\w*)\b/],
  ['stale', /\b(stale|out[- ]of[- ]date|outdated|expired|too old|old evidence|not fresh|overdue evidence)\b/],
  ['missing', /\b(missing|no evidence|never (been )?(received|submitted|sent)|without (any )?evidence|unevidenced)\b/],
  ['passing', /\b(passing|passes|passed|pass|green|in good shape)\b/],
];

/**
 * Status words long enough that one slip of the keyboard still leaves them recognisable ("whats
 * faling?"). Shorter ones ("stale", "red") are too close to other words to be corrected.
 */
const statusWords = [
  'failing',
  'failed',
  'failure',
  'failures',
  'passing',
  'passed',
  'missing',
  'applicable',
  'attention',
  'problem',
  'problems',
  'issues',
  'unhealthy',
];

/**
 * The text with each status word mistyped by one edit put right. A word the report or the engine
 * knows is left alone, and so is one whose first letter differs (a slip rarely hits the first
 * letter, and "mailing" is not "failing").
 */
function withStatusTyposFixed(text: string, index: ReportIndex): string {
  return text.replace(/\b[a-z]{5,}\b/g, (word) => {
    const stemmed = stem(word);
    if (stopWords.has(word) || questionWords.has(stemmed) || isKnownTerm(stemmed, index)) return word;
    return statusWords.find((status) => status[0] === word[0] && isOneEditFrom(word, status)) ?? word;
  });
}

const severityCue =
  /\b(critical|high|medium|low)(?:[- ](?:severity|risk|priority))?\s+(controls?|ones|issues|problems|findings|risks|items|failures|gaps)\b|\b(critical|high|medium|low)[- ]severity\b/g;

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const numberWords: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
};

/** Curly quotes and dashes as people's keyboards type them, in lower case. */
const normalize = (text: string) =>
  text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2014]/g, '-')
    .toLowerCase()
    .trim();

/** A day the question names: relative ("yesterday", "3 days ago") or by weekday, and whether it names one day only. */
type RelativeDay = Since & {
  /**
   * Names one day on its own ("3 days ago", "on Monday", "in the last report") rather than where
   * a comparison or a period starts ("since yesterday", "over the past 3 days").
   */
  point: boolean;
};

/**
 * The earlier day a question names. A relative day or weekday is returned with its date; a date
 * that is named but not as a starting point ("what failed on 2026-11-15") is returned as `other`;
 * a date written in a format whose day and month order cannot be told ("11/14/2026",
 * "14.11.2026") as `format`, to be declined rather than guessed.
 */
export function sinceIn(
  text: string,
  reportDate: string,
): RelativeDay | { other: string; phrase: string } | { invalid: string } | { format: string } | undefined {
  const foreign = foreignDateIn(text);
  if (foreign) return { format: foreign };
  const count = (word: string) => (/^\d+$/.test(word) ? Number(word) : (numberWords[word] ?? 1));
  // [pattern, days back (null: the previous report), whether it can name one day on its own]
  const relative: [RegExp, (match: RegExpMatchArray) => number | null, boolean][] = [
    [/\byesterday\b/, () => 1, true],
    [/\b(the )?(last|previous|prior|latest) (report|run|assessment|one)\b|\bday before\b/, () => null, true],
    [/\b(last|past|previous) week\b/, () => 7, false],
    [/\ba week ago\b|\bweek ago\b/, () => 7, true],
    [/\b(last two weeks|past two weeks|fortnight)\b/, () => 14, false],
    [/\btwo weeks ago\b/, () => 14, true],
    [
      /\b(\d+|a|an|one|two|three|four|five|six|seven|ten) (day|week)s? ago\b/,
      (match) => (match[2] === 'week' ? 7 : 1) * count(match[1]!),
      true,
    ],
    [
      /\b(?:last|past) (\d+|two|three|four|five|six|seven|ten) (day|week)s\b/,
      (match) => (match[2] === 'week' ? 7 : 1) * count(match[1]!),
      false,
    ],
  ];
  for (const [pattern, days, canBePoint] of relative) {
    const match = text.match(pattern);
    if (!match) continue;
    const back = days(match);
    return {
      date: back === null ? null : addDays(reportDate, -back),
      phrase: match[0],
      point: canBePoint && !namedAsStart(text, match[0]),
    };
  }
  const weekday = text.match(
    /\b(?:since|from|on|compared (?:to|with)|last) (sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/,
  );
  if (weekday) {
    const target = weekdays.indexOf(weekday[1]!);
    let date = addDays(reportDate, -1);
    while (new Date(`${date}T00:00:00Z`).getUTCDay() !== target) date = addDays(date, -1);
    return { date, phrase: weekday[1]!, point: !namedAsStart(text, weekday[1]!) };
  }
  const named = namedDate(text, reportDate);
  if (!named) return undefined;
  if (!isCalendarDate(named.date)) return { invalid: named.phrase };
  return namedAsStart(text, named.phrase) ? { ...named, point: false } : { other: named.date, phrase: named.phrase };
}

/** Whether the day is named as where a comparison starts: "since …", "compared with …", "from last …". */
const namedAsStart = (text: string, phrase: string) =>
  new RegExp(
    `\\b(since|from|between|compared (to|with)|versus|vs\\.?|after|relative to|than( on)?)\\s+(the\\s+|last\\s+)?${escapeRegExp(phrase)}`,
  ).test(text);

/**
 * A numeric date that is not ISO: three numbers with slashes, dots or day-first dashes
 * ("11/14/2026", "14.11.2026", "14-11-2026", "2026/11/14"), or day and month with a slash right
 * after a word that introduces a day ("since 11/14"). Whether 05/06 is May or June cannot be told,
 * so such a date is never read. Two numbers without such a word ("24/7", a score of "75.7") are not
 * dates.
 */
function foreignDateIn(text: string): string | undefined {
  const full = /(?<![\w./-])(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.]\d{1,2}[/.]\d{1,2})(?![\w/-]|\.\d)/.exec(text);
  if (full) return full[0];
  return /\b(?:since|from|before|after|until|between|compared (?:to|with)|versus|vs\.?|as of) (\d{1,2}\/\d{1,2})(?![\w/.-])/.exec(
    text,
  )?.[1];
}

function namedDate(text: string, reportDate: string): { date: string; phrase: string } | undefined {
  const iso = text.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (iso) return { date: `${iso[1]}-${iso[2]!.padStart(2, '0')}-${iso[3]!.padStart(2, '0')}`, phrase: iso[0] };
  const [reportYear, reportMonth] = reportDate.split('-').map(Number) as [number, number];
  const month = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
  const dated = (monthName: string, day: string, year: string | undefined, phrase: string) => {
    const m = monthNames.indexOf(monthName) + 1;
    const candidate = (y: number) => `${y}-${String(m).padStart(2, '0')}-${day.padStart(2, '0')}`;
    const date = year ? candidate(Number(year)) : candidate(reportYear);
    return { date: !year && date > reportDate ? candidate(reportYear - 1) : date, phrase };
  };
  const monthFirst = text.match(new RegExp(`\\b${month} (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?\\b`));
  if (monthFirst) return dated(monthFirst[1]!, monthFirst[2]!, monthFirst[3], monthFirst[0]);
  const dayFirst = text.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${month}(?:,? (\\d{4}))?\\b`));
  if (dayFirst) return dated(dayFirst[2]!, dayFirst[1]!, dayFirst[3], dayFirst[0]);
  const ordinal = text.match(/\bthe (\d{1,2})(?:st|nd|rd|th)\b/);
  if (ordinal) {
    const day = Number(ordinal[1]);
    const sameMonth = `${reportDate.slice(0, 8)}${String(day).padStart(2, '0')}`;
    const previousMonth = new Date(Date.UTC(reportYear, reportMonth - 2, day)).toISOString().slice(0, 10);
    return { date: sameMonth <= reportDate ? sameMonth : previousMonth, phrase: ordinal[0] };
  }
  return undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A capitalised word the report never mentions ("Google", "Kubernetes") is a question about
 * something else. A sentence's first word is only checked when it is possessive ("Google's"),
 * since "Describe…" is capitalised for grammar, not as a name.
 */
function unknownName(message: string, index: ReportIndex): string | undefined {
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

function isKnownWord(word: string, index: ReportIndex): boolean {
  const lower = word.toLowerCase();
  if (stopWords.has(lower) || controlIdsIn(index, word).length > 0 || frameworkMatches(index, word).length > 0) return true;
  // Split as the index splits the report's text, so `ACME-CB-002` is `acme` and `cb-002`, as in the findings.
  const parts = tokenize(lower);
  return parts.every((part) => {
    const stemmed = stem(part);
    return (
      stopWords.has(part) ||
      questionWords.has(stemmed) ||
      index.vocabulary.has(stemmed) ||
      isSynonym(stemmed) ||
      monthNames.some((month) => part.startsWith(month)) ||
      weekdays.includes(part) ||
      /^\d/.test(part)
    );
  });
}

/** A stemmed topic word the report uses, or a known everyday name for something it uses. */
function isKnownTerm(term: string, index: ReportIndex): boolean {
  if (index.vocabulary.has(term) || isSynonym(term) || /^\d+$/.test(term)) return true;
  if (/^un.{4,}/.test(term) && index.vocabulary.has(term.slice(2))) return true;
  if (term.length < 5) return false;
  for (const word of index.vocabulary) if (word.startsWith(term)) return true;
  return false;
}

/** The statuses a question names, and the text with those phrases taken out ("not passing" is attention, not passing). */
function statusesIn(text: string): { statuses: ControlStatus[]; rest: string } {
  const statuses = new Set<ControlStatus>();
  let attention = false;
  let rest = text;
  for (const [status, pattern] of statusCues) {
    if (!pattern.test(rest)) continue;
    rest = rest.replace(new RegExp(pattern.source, 'g'), ' ');
    if (status === 'attention') attention = true;
    else statuses.add(status);
  }
  if (attention) for (const status of attentionStatuses) statuses.add(status);
  return { statuses: [...statuses], rest };
}

interface SearchTopic {
  topic: Topic;
  /** The words matched a title, family, framework id or subject, not only guidance prose. */
  strong: boolean;
}

/**
 * Keeps the controls that meet as many topic words as the best one and score within reach of it
 * (the score already favours controls meeting more of the words). A one-word topic also keeps
 * every control it names outright: by title ("training" → both training controls) or by family
 * ("backups" → the whole backup-and-recovery family).
 */
function searchTopic(index: ReportIndex, terms: string[], label: string): SearchTopic | undefined {
  const hits = searchControls(index, terms);
  const best = hits[0];
  if (!best) return undefined;
  // With three or more words, one may be incidental ("are admins *using* phishing-resistant MFA").
  const slack = terms.length >= 3 ? 1 : 0;
  const kept = hits.filter(
    (hit) =>
      hit.covered.size >= best.covered.size - slack &&
      (hit.score >= best.score * 0.45 || (terms.length === 1 && (hit.named || (hit.inFamily && best.inFamily)))),
  );
  const strong = kept.some((hit) => hit.named || hit.inFamily);
  return { topic: { controlIds: kept.map((hit) => hit.id), label, source: 'search' }, strong };
}

/** The controls cited by the latest assistant turn, in the order it cited them. */
export function previouslyCited(history: readonly ChatTurn[], index: ReportIndex): string[] {
  for (let at = history.length - 1; at >= 0; at--) {
    const turn = history[at]!;
    if (turn.role !== 'assistant') continue;
    const ids: string[] = [];
    for (const citation of turn.citations ?? []) {
      if (index.byId.has(citation.controlId) && !ids.includes(citation.controlId)) ids.push(citation.controlId);
    }
    return ids;
  }
  return [];
}

/** The intent of the latest user turn before now, for "and backups?" to repeat. */
function previousIntent(history: readonly ChatTurn[], index: ReportIndex): Intent | undefined {
  for (let at = history.length - 1; at >= 0; at--) {
    const turn = history[at]!;
    if (turn.role === 'user') return classify(turn.content, history.slice(0, at), index);
  }
  return undefined;
}

export function classify(message: string, history: readonly ChatTurn[], index: ReportIndex): Intent {
  const text = withStatusTyposFixed(normalize(message), index);
  if (text.length === 0) return { kind: 'decline', reason: 'no_topic' };
  if (offTopic.test(text)) return { kind: 'decline', reason: 'off_topic' };
  const unknown = unknownName(withoutControlIds(index, message), index);
  if (unknown) return { kind: 'decline', reason: 'unknown_subject', subject: unknown };

  const reportDate = index.report.date;
  const named = sinceIn(text, reportDate);
  if (named && 'format' in named) return { kind: 'decline', reason: 'date_format', subject: named.format };
  if (named && 'invalid' in named) return { kind: 'decline', reason: 'invalid_date', subject: named.invalid };
  const asksChange = cues.changes.test(text);
  const asksHow = cues.fix.test(text) || cues.evidence.test(text) || cues.why.test(text);
  /** A day named on its own ("on 2026-11-18", "3 days ago"), not as where a comparison starts. */
  const day: Since | undefined =
    named && 'other' in named
      ? { date: named.other, phrase: named.phrase }
      : named && named.point
        ? { date: named.date, phrase: named.phrase }
        : undefined;

  // Named ids and framework requirements are the most precise topic there is.
  const ids = controlIdsIn(index, text);
  const frameworks = frameworkMatches(index, text);
  const explicit: Topic | undefined =
    ids.length > 0 || frameworks.length > 0
      ? {
          controlIds: sortIds(new Set([...ids, ...frameworks.flatMap((framework) => framework.controlIds)])),
          label: [...ids, ...frameworks.map((framework) => framework.id)].join(', '),
          source: ids.length > 0 ? 'id' : 'framework',
        }
      : undefined;

  const severities = [...text.matchAll(severityCue)].map((match) => (match[1] ?? match[3]) as Severity);
  const superlative = cues.superlative.test(text);
  const posture = cues.posture.test(text);
  const { statuses, rest: withoutStatuses } = statusesIn(text.replace(severityCue, ' '));
  // "Is CC8.1 passing?" asks after named controls: answer with each one's status, whatever it is.
  const yesNo = /^(is|are|does|do|did|has|have|was|were)\b/.test(text);
  const asksList = (statuses.length > 0 || superlative || severities.length > 0) && !(explicit && yesNo);

  // A list by status on a day named on its own ("What failed 3 days ago?", "What failed on
  // 2026-11-18?", "What was stale in the last report?") is that day's list, whichever way the day
  // is named: it comes from that day's own report (the caller's `reportOn`), never from today's.
  // Named as where a comparison starts ("since yesterday"), or in a change question, a day asks for
  // the diff. In any other question a relative day ("yesterday") asks what changed since it, and a
  // date is declined below, as this report cannot say what another day's held.
  const listDay = day && asksList && !asksChange && !asksHow ? day : undefined;
  // "What changed on 2026-11-15?" compares with that day too.
  const since: Since | undefined = listDay
    ? undefined
    : named && 'other' in named
      ? asksChange
        ? { date: named.other, phrase: named.phrase }
        : undefined
      : named && { date: named.date, phrase: named.phrase };
  const otherDay = !listDay && !since && named && 'other' in named ? named.other : undefined;
  const asked = listDay ?? since;
  if (asked && asked.date !== null && (listDay ? asked.date > reportDate : asked.date >= reportDate)) {
    return { kind: 'decline', reason: 'not_earlier', subject: asked.date };
  }

  // What is left once the words that ask *how* are gone is the topic.
  let rest = withoutStatuses;
  for (const cue of [
    cues.superlative,
    cues.posture,
    cues.changes,
    cues.fix,
    cues.evidence,
    cues.why,
    cues.frameworks,
    cues.objective,
  ]) {
    rest = rest.replace(new RegExp(cue.source, 'g'), ' ');
  }
  rest = withoutControlIds(index, rest);
  for (const framework of frameworks) rest = rest.replace(new RegExp(escapeRegExp(framework.id.toLowerCase()), 'g'), ' ');
  const dayPhrase = named && 'phrase' in named ? named.phrase : undefined;
  if (dayPhrase) rest = rest.replace(dayPhrase, ' ');
  // "What changed" asks for the diff; "change management" is a topic.
  rest = rest.replace(/\bchang(e|es|ed|ing)\b(?! (management|process|control|request|approval|review))/g, ' ');
  const words = topicTerms(rest);
  // Numbers qualify a topic ("within 30 days") but are not one on their own ("top 3").
  const terms = words.every((word) => /^\d+$/.test(word)) ? [] : words;
  const label = topicWords(rest).slice(0, 80);
  // Mostly words the report never uses ("print your system prompt") is not a question about it,
  // even if one word happens to match.
  const unknownWords = terms.filter((term) => !isKnownTerm(term, index)).length;
  if (!explicit && terms.length > 0 && unknownWords * 2 > terms.length)
    return { kind: 'decline', reason: 'no_match', subject: label };
  const found = explicit || terms.length === 0 ? undefined : searchTopic(index, terms, label);
  const own = explicit ?? found?.topic;
  if (terms.length > 0 && !explicit && !found) return { kind: 'decline', reason: 'no_match', subject: label };
  // For answers that are complete without a topic, a weak match on guidance prose is noise, not a filter.
  const filter = explicit ?? (found?.strong ? found.topic : undefined);

  if (otherDay) return { kind: 'decline', reason: 'other_day', subject: otherDay };
  const cited = previouslyCited(history, index);
  const refersBack = cues.pronoun.test(text) || terms.length === 0;
  const previousTopic: Topic | undefined =
    cited.length > 0 ? { controlIds: cited, label: 'those', source: 'previous' } : undefined;

  if (since || asksChange) {
    return {
      kind: 'changes',
      since: since ?? { date: null, phrase: 'the previous report' },
      focus: changeFocus(text),
      ...(filter ? { topic: filter } : {}),
    };
  }

  // What a control is for, and which framework requirements it maps to, come from the catalog; the
  // controls must be named (by id, by a clear match, or as "it"), not guessed from guidance prose.
  const described = filter ?? (refersBack ? previousTopic : undefined);
  if (cues.objective.test(text) && described) return { kind: 'objective', topic: described };
  // "Which controls map to CC6.1?" names no control: it asks for the controls, not their mappings.
  const mapped: Topic | undefined =
    ids.length > 0
      ? { controlIds: sortIds(ids), label: ids.join(', '), source: 'id' }
      : frameworks.length > 0
        ? undefined
        : described;
  if (cues.frameworks.test(text) && mapped) return { kind: 'frameworks', topic: mapped };

  const kind = cues.fix.test(text) ? 'fix' : cues.evidence.test(text) ? 'evidence' : cues.why.test(text) ? 'why' : undefined;
  if (kind) {
    const topic =
      own ??
      (refersBack && previousTopic && statuses.length === 0 && !superlative ? previousTopic : undefined) ??
      statusTopic(index, statuses.length > 0 ? statuses : superlative ? attentionStatuses : [], severities, superlative);
    if (topic) return { kind, topic };
    // "Why is the score 75.7?" asks about the whole report.
    return posture ? { kind: 'posture' } : { kind: 'decline', reason: 'no_topic' };
  }

  if (asksList) {
    return {
      kind: 'list',
      statuses: statuses.length > 0 ? statuses : attentionStatuses,
      ...(filter ? { topic: filter } : {}),
      ...(severities.length > 0 ? { severities } : {}),
      ...(superlative ? { limit: limitIn(text) } : {}),
      // On the report's own day, it is today's list.
      ...(listDay && listDay.date !== reportDate ? { on: listDay } : {}),
    };
  }

  if (posture && !explicit && !found?.strong) return { kind: 'posture' };

  // "and backups?", "what about IAM-05?", or a topic on its own ("encryption?") asks the previous question again.
  const bare = tokenize(text).every((token) => !stopWords.has(token)) && terms.length <= 3;
  if (cues.followUp.test(text) || (own && history.length > 0 && bare)) {
    const before = previousIntent(history, index);
    if (own && before && before.kind !== 'decline' && before.kind !== 'posture') {
      if (before.kind === 'list') return { ...before, topic: own };
      if (before.kind === 'changes') return { ...before, topic: own };
      return { kind: before.kind, topic: own };
    }
  }
  if (own) return { kind: 'status', topic: own };
  if (refersBack && previousTopic && cues.followUp.test(text)) return { kind: 'status', topic: previousTopic };
  return { kind: 'decline', reason: terms.length > 0 ? 'no_match' : 'no_topic' };
}

/** "top 3 risks" → 3, "the riskiest control" → 1. */
function limitIn(text: string): number {
  const count = /\btop (\d+|three|five)\b/.exec(text)?.[1];
  if (!count) return 1;
  return Math.min(10, /^\d+$/.test(count) ? Number(count) : (numberWords[count] ?? 1));
}

function changeFocus(text: string): ChangeFocus {
  if (/\b(fixed|resolved|improved|better|now passing|recovered|went green)\b/.test(text)) return 'fixed';
  if (
    /\b(newly failing|new(ly)? fail\w*|broke|broken|started failing|regress\w*|worse|new (failures|problems|issues))\b/.test(text)
  )
    return 'newlyFailing';
  if (/\b(newly stale|went stale|became stale|gone stale|new(ly)? stale)\b/.test(text)) return 'newlyStale';
  return 'all';
}

/** "How do I fix the failing ones?" with no topic: the controls in those statuses, riskiest first. */
function statusTopic(
  index: ReportIndex,
  statuses: ControlStatus[],
  severities: Severity[],
  superlative: boolean,
): Topic | undefined {
  if (statuses.length === 0) return undefined;
  const ids = rankByRisk(
    index.controls
      .map((entry) => entry.result)
      .filter((result) => statuses.includes(result.status) && (severities.length === 0 || severities.includes(result.severity))),
  ).map((result) => result.id);
  if (ids.length === 0) return undefined;
  return { controlIds: superlative ? ids.slice(0, 1) : ids, label: statuses.join(', '), source: 'status' };
}

const severityRank: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };
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
