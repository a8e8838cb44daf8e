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
import { dayAsked, unreadableDate, type RelativeDay } from './days.js';
import type { ControlStatus, Severity } from '../../assessment/model.js';
import type { ChatTurn, Intent, Since, Topic } from '../question.js';
import { isKnownTerm, unknownName } from './known-words.js';
import { askedOf, type Asked } from './asked.js';
import {
  attentionStatuses,
  changeFocus,
  cues,
  limitIn,
  offTopic,
  severitiesIn,
  severityCue,
  statusesIn,
} from './question-cues.js';
import { frameworkMatches, sortIds, withoutControlIds, type ReportIndex } from '../report-index.js';
import { namedTopic, searchTopic, statusTopic, topicTermsOf, type FrameworkMatch, type SearchTopic } from './topics.js';
import { stopWords, tokenize } from '../vocabulary.js';

type Decline = Extract<Intent, { kind: 'decline' }>;

const ofThose =
  /\b(of|among|from|in) (those|these|them|they|that list)\b|\b(which|any|are any) (of )?(those|these|them)\b|^(and )?(are )?(those|these|they)\b/;

/** A day the question names, once a date it cannot read has been declined. */
type NamedDay = RelativeDay | { other: string; phrase: string };

/** What a question asks, apart from its topic words and days. */
interface Asks {
  ids: string[];
  frameworks: FrameworkMatch[];
  /** The controls named by id or framework requirement. */
  explicit: Topic | undefined;
  severities: Severity[];
  superlative: boolean;
  posture: boolean;
  statuses: ControlStatus[];
  /** The text with the status and severity phrases taken out. */
  withoutStatuses: string;
  asksList: boolean;
  asksChange: boolean;
  asksHow: boolean;
}

/** Which day a question asks about, and how. */
interface Days {
  /** A day whose own list is asked for ("what failed on 2026-11-18"). */
  listDay: Since | undefined;
  /** Where a comparison starts ("since yesterday"). */
  since: Since | undefined;
  /** A date named in a question this report cannot answer for another day. */
  otherDay: string | undefined;
}

/** The question's topic, from its words or its named controls. */
interface Subject {
  terms: string[];
  label: string;
  /** The question's own topic: named controls, or what a search found. */
  own: Topic | undefined;
  /** For answers that are complete without a topic: only a precise or strong one narrows them. */
  filter: Topic | undefined;
  found: SearchTopic | undefined;
}

/** Everything read from a question, for the step that decides its intent. */
interface Question extends Asks, Days, Subject {
  text: string;
  reportDate: string;
  /** The question leans on the previous answer ("why?", "how do I fix it?"). */
  refersBack: boolean;
  /** The controls the previous answer cited. */
  previousTopic: Topic | undefined;
}

/** What a question asks of one control topic's state, a list or changes; declined when the report cannot speak to it. */
export const classify = (asked: Asked): Intent => refusal(asked) ?? topicQuestion(asked);

/** A question the report cannot speak to, before anything else is read: empty, off topic, naming what the report never mentions, or a date it cannot read. */
export function refusal({ text, message, index, reportDate }: Asked): Decline | undefined {
  if (text.length === 0) return { kind: 'decline', reason: 'no_topic' };
  if (offTopic.test(text)) return { kind: 'decline', reason: 'off_topic' };
  const unknown = unknownName(withoutControlIds(index, message), index);
  if (unknown) return { kind: 'decline', reason: 'unknown_subject', subject: unknown };
  const unreadable = unreadableDate(text, reportDate);
  return unreadable && { kind: 'decline', reason: unreadable.reason, subject: unreadable.phrase };
}

/** What a question the report can speak to asks of a control topic (after `refusal`). */
export function topicQuestion(asked: Asked): Intent {
  const { text, history, index, reportDate, cited } = asked;
  const named = dayAsked(text, reportDate);
  const asks = asksOf(asked);
  const days = daysAsked(named, asks, reportDate);
  if ('kind' in days) return days;
  const subject = subjectOf(asks, named?.phrase, index);
  if ('kind' in subject) return subject;

  if (days.otherDay) return { kind: 'decline', reason: 'other_day', subject: days.otherDay };
  return intentOf(
    {
      text,
      reportDate,
      ...asks,
      ...days,
      ...subject,
      refersBack: cues.pronoun.test(text) || subject.terms.length === 0,
      previousTopic: cited.length > 0 ? { controlIds: cited, label: 'those', source: 'previous' } : undefined,
    },
    history,
    index,
  );
}

function asksOf({ text, index, ids }: Asked): Asks {
  const frameworks = frameworkMatches(index, text);
  const explicit = namedTopic(ids, frameworks);
  const severities = severitiesIn(text);
  const superlative = cues.superlative.test(text);
  const { statuses, rest: withoutStatuses } = statusesIn(text.replace(severityCue, ' '));
  // "Is CC8.1 passing?" asks after named controls: answer with each one's status, whatever it is.
  const yesNo = /^(is|are|does|do|did|has|have|was|were)\b/.test(text);
  return {
    ids,
    frameworks,
    explicit,
    severities,
    superlative,
    posture: cues.posture.test(text),
    statuses,
    withoutStatuses,
    asksList: (statuses.length > 0 || superlative || severities.length > 0) && !(explicit && yesNo),
    asksChange: cues.changes.test(text),
    asksHow: cues.fix.test(text) || cues.evidence.test(text) || cues.why.test(text),
  };
}

/**
 * A list by status on a day named on its own ("What failed 3 days ago?", "What failed on
 * 2026-11-18?", "What was stale in the last report?") is that day's list, whichever way the day
 * is named: it comes from that day's own report (the caller's `reportOn`), never from today's.
 * Named as where a comparison starts ("since yesterday"), or in a change question, a day asks for
 * the diff. In any other question a relative day ("yesterday") asks what changed since it, and a
 * date is declined, as this report cannot say what another day's held.
 */
function daysAsked(named: NamedDay | undefined, asks: Asks, reportDate: string): Days | Decline {
  /** A day named on its own ("on 2026-11-18", "3 days ago"), not as where a comparison starts. */
  const day: Since | undefined =
    named && 'other' in named
      ? { date: named.other, phrase: named.phrase }
      : named && named.point
        ? { date: named.date, phrase: named.phrase }
        : undefined;
  const listDay = day && asks.asksList && !asks.asksChange && !asks.asksHow ? day : undefined;
  // "What changed on 2026-11-15?" compares with that day too.
  const since: Since | undefined = listDay
    ? undefined
    : named && 'other' in named
      ? asks.asksChange
        ? { date: named.other, phrase: named.phrase }
        : undefined
      : named && { date: named.date, phrase: named.phrase };
  const otherDay = !listDay && !since && named && 'other' in named ? named.other : undefined;
  const asked = listDay ?? since;
  if (asked && asked.date !== null && (listDay ? asked.date > reportDate : asked.date >= reportDate)) {
    return { kind: 'decline', reason: 'not_earlier', subject: asked.date };
  }
  return { listDay, since, otherDay };
}

function subjectOf(asks: Asks, dayPhrase: string | undefined, index: ReportIndex): Subject | Decline {
  const { explicit } = asks;
  const { terms, label } = topicTermsOf(asks.withoutStatuses, asks.frameworks, dayPhrase, index);
  // Mostly words the report never uses ("print your system prompt") is not a question about it,
  // even if one word happens to match.
  const unknownWords = terms.filter((term) => !isKnownTerm(term, index)).length;
  if (!explicit && terms.length > 0 && unknownWords * 2 > terms.length)
    return { kind: 'decline', reason: 'no_match', subject: label };
  const found = explicit || terms.length === 0 ? undefined : searchTopic(index, terms, label);
  if (terms.length > 0 && !explicit && !found) return { kind: 'decline', reason: 'no_match', subject: label };
  // For answers that are complete without a topic, a weak match on guidance prose is noise, not a filter.
  return { terms, label, own: explicit ?? found?.topic, filter: explicit ?? (found?.strong ? found.topic : undefined), found };
}

function intentOf(question: Question, history: readonly ChatTurn[], index: ReportIndex): Intent {
  const { text, since, asksChange, filter } = question;
  if (since || asksChange) {
    return {
      kind: 'changes',
      since: since ?? { date: null, phrase: 'the previous report' },
      focus: changeFocus(text),
      ...(filter ? { topic: filter } : {}),
    };
  }
  const answer = catalogIntent(question) ?? howIntent(question, index) ?? listIntent(question);
  if (answer) return answer;
  if (question.posture && !question.explicit && !question.found?.strong) return { kind: 'posture' };
  return followUpIntent(question, history, index);
}

/**
 * What a control is for, and which framework requirements it maps to, come from the catalog; the
 * controls must be named (by id, by a clear match, or as "it"), not guessed from guidance prose.
 */
function catalogIntent(question: Question): Intent | undefined {
  const { text, ids, frameworks, filter, refersBack, previousTopic } = question;
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
  return undefined;
}

/** How to fix, the evidence for, or why: about the question's topic, the previous answer's, or a status. */
function howIntent(question: Question, index: ReportIndex): Intent | undefined {
  const { text, own, refersBack, previousTopic, statuses, superlative, severities } = question;
  const kind = cues.fix.test(text) ? 'fix' : cues.evidence.test(text) ? 'evidence' : cues.why.test(text) ? 'why' : undefined;
  if (!kind) return undefined;
  const topic =
    own ??
    (refersBack && previousTopic && statuses.length === 0 && !superlative ? previousTopic : undefined) ??
    statusTopic(index, statuses.length > 0 ? statuses : superlative ? attentionStatuses : [], severities, superlative);
  if (topic) return { kind, topic };
  // "Why is the score 75.7?" asks about the whole report.
  return question.posture ? { kind: 'posture' } : { kind: 'decline', reason: 'no_topic' };
}

function listIntent(question: Question): Intent | undefined {
  const { text, asksList, statuses, filter, severities, superlative, listDay, reportDate, previousTopic } = question;
  if (!asksList) return undefined;
  // "Which of those are failing?" narrows the previous answer's controls.
  const narrowed = !filter && previousTopic && ofThose.test(text) ? previousTopic : filter;
  return {
    kind: 'list',
    statuses: statuses.length > 0 ? statuses : attentionStatuses,
    ...(narrowed ? { topic: narrowed } : {}),
    ...(severities.length > 0 ? { severities } : {}),
    // "List everything that's failing — which one is the most severe?" wants the list, riskiest first.
    ...(superlative && !/\b(list|everything|all of them|all the)\b/.test(text) ? { limit: limitIn(text) } : {}),
    // On the report's own day, it is today's list.
    ...(listDay && listDay.date !== reportDate ? { on: listDay } : {}),
  };
}

/** "and backups?", "what about IAM-05?", or a topic on its own ("encryption?") asks the previous question again. */
function followUpIntent(question: Question, history: readonly ChatTurn[], index: ReportIndex): Intent {
  const { text, terms, own, refersBack, previousTopic } = question;
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

/** The intent of the latest user turn before now, for "and backups?" to repeat. */
function previousIntent(history: readonly ChatTurn[], index: ReportIndex): Intent | undefined {
  for (let at = history.length - 1; at >= 0; at--) {
    const turn = history[at]!;
    if (turn.role === 'user') return classify(askedOf(turn.content, history.slice(0, at), index));
  }
  return undefined;
}
