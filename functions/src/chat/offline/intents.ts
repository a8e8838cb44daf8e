/**
 * What a question asks of one control topic, from its words and the conversation so far: the
 * posture, a list by status (today's or an earlier day's), a topic's status, evidence, fix, why,
 * objective or framework mappings, or what changed since an earlier day. What the report cannot
 * speak to is declined here, before any answer is composed, so nothing is guessed later.
 *
 * The topic is resolved to control ids: named ids ("IAM-01"), framework requirements ("CC6.1"),
 * a search of the report's text ("backups"), or, for a follow-up ("why?"), the previous answer's.
 */
import { addDays } from '../../assessment/dates.js';
import { dayAsked, dayStepIn, daysIn, spanIn, unreadableDate } from './days.js';
import { controlStatuses } from '@evident/contract';
import type { ChatTurn, Intent, QuestionOf, Since, Topic } from '../question.js';
import { isKnownTerm, unknownName } from './known-words.js';
import { askedOf, type Asked } from './asked.js';
import {
  asksToAct,
  attentionStatuses,
  changeFocus,
  cues,
  followedBy,
  limitIn,
  offTopic,
  prediction,
  severitiesIn,
  severityCue,
  statusesIn,
  withTheirStatus,
} from './question-cues.js';
import { frameworkMatches, sortIds, withoutControlIds, type ReportIndex } from '../report-index.js';
import { namedTopic, searchTopic, statusTopic, topicTermsOf, type SearchTopic } from './topics.js';
import { stopWords, tokenize } from '../vocabulary.js';

type Decline = Extract<Intent, { kind: 'decline' }>;

/** Everything read from a question, for the step that decides its intent. */
interface Reading extends Asked, Asks {
  /** A day whose own list is asked for ("what failed on 2026-11-18"), or where a comparison starts ("since yesterday"). */
  listDay: Since | undefined;
  since: Since | undefined;
  terms: string[];
  /** The question's own topic: named controls, or what a search found. */
  own: Topic | undefined;
  /** For answers complete without a topic: only a precise or strong one narrows them. */
  filter: Topic | undefined;
  found: SearchTopic | undefined;
  /** The controls the previous answer cited. */
  previous: Topic | undefined;
  /** The previous answer's topic, when the question leans on it ("why?", "how do I fix it?"). */
  leansOn: Topic | undefined;
}

/** What a question asks of one control topic's state, a list or changes; declined when the report cannot speak to it. */
export const classify = (asked: Asked): Intent | QuestionOf<'day' | 'trend'> => refusal(asked) ?? topicQuestion(asked);

/** A question the report cannot speak to, before anything else is read: empty, off topic, naming what the report never mentions, or a date it cannot read. */
export function refusal({ text, message, index, reportDate }: Asked): Decline | undefined {
  if (text.length === 0) return { kind: 'decline', reason: 'no_topic' };
  if (offTopic.test(text)) return { kind: 'decline', reason: 'off_topic' };
  if (asksToAct(text)) return { kind: 'decline', reason: 'action' };
  if (prediction.test(text)) return { kind: 'decline', reason: 'prediction' };
  const unknown = unknownName(withoutControlIds(index, message), index);
  if (unknown) return { kind: 'decline', reason: 'unknown_subject', subject: unknown };
  const unreadable = unreadableDate(text, reportDate);
  return unreadable && { kind: 'decline', reason: unreadable.reason, subject: unreadable.phrase };
}

/** What a question the report can speak to asks of a control topic (after `refusal`). */
export function topicQuestion(asked: Asked): Intent | QuestionOf<'day' | 'trend'> {
  // "How many controls do we track, and how many pass?", "what percentage of controls pass": the whole report's counts.
  if (countsAsked.test(asked.text)) return { kind: 'posture' };
  const reading = readingOf(asked);
  if ('kind' in reading) return reading;
  const { text, since, asksChange, filter, posture, explicit, found, previous } = reading;
  if (since || asksChange) {
    const topic = filter ?? (eitherOfThose.test(text) ? previous : undefined);
    return {
      kind: 'changes',
      since: since ?? spanStart(reading) ?? dayAskedBefore(reading) ?? { date: null, phrase: 'the previous report' },
      focus: changeFocus(text),
      ...(topic ? { topic } : {}),
    };
  }
  const answer = catalogIntent(reading) ?? howIntent(reading) ?? listIntent(reading);
  if (answer) return answer;
  if (posture && !explicit && !found?.strong) return { kind: 'posture' };
  return followUpIntent(reading);
}

/** The evidence asked for, not a status named by it ("which ones have stale evidence", "missing evidence"). */
const asksEvidence = (text: string) =>
  cues.evidence.test(text.replace(/\b(stale|missing|no|old|outdated|expired|without( any)?) evidence\b/g, ' '));

const countsAsked =
  /\bhow many (controls|checks) (in total |altogether )?(do|does|are|is|have) (we|you|the report|the catalog|there)\b|\bhow many controls (?:were|are|have been|did (?:it|the report)) (?:assessed|evaluated|checked|tested|covered|in (?:the|today'?s|the latest|this) report)\b|\b(what|which) (percentage|percent|share|proportion|fraction) of (the |our )?controls\b/;

/** "Has either been fixed", "did any of them break again": the previous answer's controls. */
const eitherOfThose = /\b(either|both|each|any of (them|those|these)|those|these|them|they|it|that one|this one)\b/;

/** "What got fixed this week": what changed since the report before the span began. */
function spanStart({ text, reportDate }: Reading): Since | undefined {
  const span = spanIn(text, reportDate);
  // Bare "last month" is the calendar month before, which no report may cover: not counted back from today.
  if (!span || /^last (week|month|quarter|year)$/.test(span.phrase)) return undefined;
  return span.from < reportDate ? { date: addDays(span.from, -1), phrase: `before ${span.phrase}` } : undefined;
}

/** "…been fixed since?" with no day: since the day the question before asked about, when it named one. */
function dayAskedBefore({ text, last, reportDate }: Reading): Since | undefined {
  if (!/\bsince\W*$/.test(text) || !last) return undefined;
  const day = dayAsked(last, reportDate);
  const date = day && ('other' in day ? day.other : day.date);
  return day && date && date < reportDate ? { date, phrase: day.phrase } : undefined;
}

/** What a question asks, apart from its topic words and days. */
type Asks = ReturnType<typeof asksOf>;
function asksOf({ text, index, ids }: Asked) {
  const frameworks = frameworkMatches(index, text);
  const explicit = namedTopic(ids, frameworks);
  const severities = severitiesIn(text);
  const superlative = cues.superlative.test(text);
  const read = statusesIn(text.replace(severityCue, ' '));
  const { rest } = read;
  // "What critical controls do we have, and are they passing?" asks after each of them, whatever its status.
  const ofEach = followedBy(
    text,
    /\b(?:do we have|are there)\b/,
    /\band (?:are|is) (?:they|these|those|all of them|any of them|any)\b/,
  );
  // "List the critical controls and tell me whether each is passing", "the vendor controls with their current status" too.
  const theirStatus = withTheirStatus.test(text);
  const each = ofEach || theirStatus || /\bwhether (?:each|every|they|any|all|it)(?: one| of them)? (?:is|are)\b/.test(text);
  const statuses = each && (read.statuses.length > 0 || theirStatus) ? [...controlStatuses] : read.statuses;
  // "Is CC8.1 passing?" asks after named controls: answer with each one's status, whatever it is.
  const yesNo = /^(is|are|does|do|did|has|have|was|were)\b/.test(text);
  const asksList = (statuses.length > 0 || superlative || severities.length > 0) && !(explicit && yesNo);
  const asksChange = cues.changes.test(text);
  const asksHow = cues.fix.test(text) || asksEvidence(text) || cues.why.test(text);
  const posture = cues.posture.test(text);
  return { frameworks, explicit, severities, superlative, statuses, rest, asksList, asksChange, asksHow, posture };
}

/**
 * A list by status on a day named on its own ("What failed 3 days ago?", "What failed on
 * 2026-11-18?", "What was stale in the last report?") is that day's list, however the day is
 * named: it comes from that day's own report (the caller's `reportOn`), never today's. Named as
 * where a comparison starts ("since yesterday"), or in a change question, a day asks for the
 * diff. Otherwise a relative day ("yesterday") asks what changed since it, and a date is
 * declined, as this report cannot say what another day's held.
 */
function readingOf(asked: Asked): Reading | Intent | QuestionOf<'day' | 'trend'> {
  const { text, index, reportDate, cited } = asked;
  const asks = asksOf(asked);
  const { asksList, asksChange, asksHow, explicit } = asks;
  // "And the day before?" after a question about one day is that day's neighbour, not the report before today's.
  const stepped = dayAfterAsked(asked);
  if (stepped) return onAnotherDay(asked, stepped, explicit);
  const named = dayAsked(text, reportDate);
  const other = named && 'other' in named ? { date: named.other, phrase: named.phrase } : undefined;
  const relative = named && !('other' in named) ? named : undefined;
  const relativeDay: Since | undefined = relative && { date: relative.date, phrase: relative.phrase };
  const listed = asksList && !asksChange && !asksHow;
  const listDay = listed ? (other ?? (relative?.point ? relativeDay : undefined)) : undefined;
  // "What changed on 2026-11-15?" compares with that day too.
  const since = listDay ? undefined : other ? (asksChange ? other : undefined) : relativeDay;
  const day = listDay ?? since;
  if (day && day.date !== null && (listDay ? day.date > reportDate : day.date >= reportDate))
    return { kind: 'decline', reason: 'not_earlier', subject: day.date };
  // A month or range named with nothing else ("and back in September?") is how the score moved over it.
  const span = named ? undefined : spanIn(text, reportDate);
  const { terms, label } = topicTermsOf(asks.rest, asks.frameworks, named?.phrase ?? span?.phrase, index);
  if (span && terms.length === 0 && !explicit && !asksList && !asksChange) return { kind: 'trend', period: span };
  // Mostly words the report never uses ("print your system prompt") is no question about it, even if one matches.
  const unknownWords = terms.filter((term) => !isKnownTerm(term, index)).length;
  const found = explicit || terms.length === 0 || unknownWords * 2 > terms.length ? undefined : searchTopic(index, terms, label);
  const summary =
    asks.posture &&
    /\b(summary|summari[sz]e|overview|recap|rundown|brief\w*|sentence|nutshell|tl;?dr|one line|headline)\b/.test(text);
  if (terms.length > 0 && !explicit && !found && !summary) return { kind: 'decline', reason: 'no_match', subject: label };
  if (!listDay && !since && other?.date) return onAnotherDay(asked, other, explicit ?? (found?.strong ? found.topic : undefined));
  const previous: Topic | undefined = cited.length > 0 ? { controlIds: cited, label: 'those', source: 'previous' } : undefined;
  // For answers complete without a topic, a weak match on guidance prose is noise, not a filter.
  const filter = explicit ?? (found?.strong ? found.topic : undefined);
  const leansOn = cues.pronoun.test(text) || terms.length === 0 ? previous : undefined;
  return { ...asked, ...asks, listDay, since, terms, own: explicit ?? found?.topic, filter, found, previous, leansOn };
}

/**
 * What a control is for, and which framework requirements it maps to, come from the catalog; the
 * controls must be named (by id, by a clear match, or as "it"), not guessed from guidance prose.
 */
function catalogIntent({ text, ids, frameworks, filter, leansOn }: Reading): Intent | undefined {
  const described = filter ?? leansOn;
  if (cues.objective.test(text) && described) return { kind: 'objective', topic: described };
  // "Which controls map to CC6.1?" names no control: it asks for the controls, not their mappings.
  const mapped: Topic | undefined =
    ids.length > 0
      ? { controlIds: sortIds(ids), label: ids.join(', '), source: 'id' }
      : frameworks.length > 0
        ? undefined
        : described;
  return cues.frameworks.test(text) && mapped ? { kind: 'frameworks', topic: mapped } : undefined;
}

/** How to fix, the evidence for, or why: about the question's topic, the previous answer's, or a status. */
function howIntent({ text, own, leansOn, statuses, superlative, severities, posture, index }: Reading): Intent | undefined {
  const kind = cues.fix.test(text) ? 'fix' : asksEvidence(text) ? 'evidence' : cues.why.test(text) ? 'why' : undefined;
  if (!kind) return undefined;
  const topic =
    own ??
    // "Why did it fail?" asks about the previous answer's control, not about every failing one.
    (statuses.length === 0 && !superlative ? leansOn : cues.pronoun.test(text) ? leansOn : undefined) ??
    statusTopic(index, statuses.length > 0 ? statuses : superlative ? attentionStatuses : [], severities, superlative);
  if (topic) return { kind, topic };
  // "Why is the score 75.7?" asks about the whole report.
  return posture ? { kind: 'posture' } : { kind: 'decline', reason: 'no_topic' };
}

/** Words for what needs attention: "critical issues" are the open ones. */
const problemWords = /\b(issues?|problems?|risks?|failures?|gaps?|findings?)\b/;

function listIntent(reading: Reading): Intent | undefined {
  const { text, asksList, statuses, filter, severities, superlative, listDay, reportDate, previous } = reading;
  if (!asksList) return undefined;
  // "Which of those are failing?" narrows the previous answer's controls.
  const topic = previous && cues.ofThose.test(text) ? previous : filter;
  return {
    kind: 'list',
    // "Which controls are low severity?" asks for all of them; "the riskiest", for those needing attention.
    statuses:
      statuses.length > 0
        ? statuses
        : severities.length > 0 && !superlative && !problemWords.test(text)
          ? [...controlStatuses]
          : attentionStatuses,
    ...(topic ? { topic } : {}),
    ...(severities.length > 0 ? { severities } : {}),
    // "List everything that's failing — which one is the most severe?" wants the list, riskiest first.
    ...(superlative && !/\b(list|everything|all of them|all the)\b/.test(text) ? { limit: limitIn(text) } : {}),
    // On the report's own day, it is today's list.
    ...(listDay && listDay.date !== reportDate ? { on: listDay } : {}),
  };
}

/** "and backups?", "what about IAM-05?", or a topic on its own ("encryption?") asks the previous question again. */
function followUpIntent({ text, terms, own, leansOn, history, index }: Reading): Intent | QuestionOf<'day'> {
  const followUp = cues.followUp.test(text);
  const bare = tokenize(text).every((token) => !stopWords.has(token)) && terms.length <= 3;
  if (own && (followUp || (history.length > 0 && bare))) {
    const before = questionBefore(history, index);
    if (before?.kind === 'list' || before?.kind === 'changes') return { ...before, topic: own };
    if (before && before.kind !== 'decline' && before.kind !== 'posture' && before.kind !== 'day' && before.kind !== 'trend')
      return { kind: before.kind, topic: own };
  }
  if (own) return { kind: 'status', topic: own };
  if (leansOn && followUp) return { kind: 'status', topic: leansOn };
  return { kind: 'decline', reason: terms.length > 0 ? 'no_match' : 'no_topic' };
}

/** "And the next day?" after a question about one day: that day's neighbour. */
function dayAfterAsked({ text, last, reportDate }: Asked): Since | undefined {
  const step = dayStepIn(text);
  const [before] = step === 0 ? [] : daysIn(last, reportDate);
  if (!before) return undefined;
  return { date: addDays(before.date, step), phrase: `the day ${step > 0 ? 'after' : 'before'} ${before.phrase}` };
}

/** The previous question of the conversation, as this reader read it. */
function questionBefore(history: readonly ChatTurn[], index: ReportIndex) {
  const at = history.findLastIndex((turn) => turn.role === 'user');
  return at >= 0 ? classify(askedOf(history[at]!.content, history.slice(0, at), index)) : undefined;
}

/**
 * A past day named with nothing else asked of it: "and on the 12th?" asks the list before it again, of that day; "how
 * were the backups on the 12th?" is where the topic's controls stood that day; "what went wrong on the 11th?" is that
 * day's report against the one before.
 */
function onAnotherDay({ history, index, reportDate }: Asked, day: Since, topic: Topic | undefined): Intent | QuestionOf<'day'> {
  if (day.date === null || day.date > reportDate)
    return { kind: 'decline', reason: 'not_earlier', subject: day.date ?? day.phrase };
  const before = topic ? undefined : questionBefore(history, index);
  if (before?.kind === 'list') return { ...before, on: day };
  if (topic) return { kind: 'list', statuses: [...controlStatuses], topic, on: day };
  return { kind: 'day', date: day.date, phrase: day.phrase };
}
