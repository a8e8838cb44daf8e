/**
 * Reads a question as a structured query (question.ts) when it asks what the report and its
 * history hold beyond one control's state: a framework's readiness, a trend or comparison over
 * days, a control's history, an owner's controls, what falls due, what has been accepted. The
 * vocabulary is the data's (the catalog's frameworks and requirements, the controls' owners, the
 * calendar). Anything else is undefined: a question about a control topic (intents.ts).
 */
import { addDays } from '../../assessment/dates.js';
import { historyFrom } from '../report-days.js';
import type { ControlStatus } from '../../assessment/model.js';
import { controlStatuses, type FrameworkId } from '@evident/contract';
import { dayStepIn, daysIn, monthAhead, spanIn, windowAhead, type NamedDay } from './days.js';
import {
  attentionStatuses,
  changeFocus,
  cues,
  followedBy,
  lineBreaks,
  severitiesIn,
  withTheirStatus,
  severityCue,
  statusesIn,
} from './question-cues.js';
import { frameworkMatches, type ReportIndex } from '../report-index.js';
import { controlsNamedIn, namedTopic, searchTopic, statusTopic } from './topics.js';
import type { Asked } from './asked.js';
import { checksAskedAbout } from './checks.js';
import { expiringQuery } from './expiring.js';
import { subjectQuery } from './subjects.js';
import { questionWords, stem, stopWords, topicTerms } from '../vocabulary.js';
import { entitiesOf, type Mention } from './entities.js';
import { auditFinding } from './status-words.js';
import type { Period, Query } from '../question.js';

const frameworkNamed: [FrameworkId, RegExp][] = [
  ['soc2', /\bsoc[ -]?(2|ii|two)\b|\btrust services\b/],
  ['iso27001', /\biso(?:[ /-]?iec)?(?:[ -]?27001(?::?2022)?)?\b|\b27001\b|\bannex a\b/],
  ['nist80053', /\bnist\b|\b800[ -]53\b/],
];
const frameworkIn = (text: string) => frameworkNamed.find(([, pattern]) => pattern.test(text))?.[0];

/** The framework a requirement id's notation belongs to: `CC6.1` SOC 2, `A.8.24` ISO, `ac-2` NIST. */
function frameworkOfRequirement(id: string): FrameworkId {
  if (/^a\.\d/i.test(id)) return 'iso27001';
  if (/^[a-z]{2}-\d/i.test(id) || /^[a-z]{2}$/i.test(id)) return 'nist80053';
  return 'soc2';
}

/** A follow-up that asks the previous question again of something else: "and on the 18th?", "what about the security lead?". */
const again = /^(and|what about|how about)\b/;
const readinessCue =
  /\b(satisf\w*|read(y|iness|yness)|redy\w*|audit\w*|block\w*|keep\w*|close to|pass(ing)?|met|meet\w*|stand\w*|doing|status|state|summar\w*|gaps?|cover\w*|criteria|requirements?|complian\w*|families|family|progress|look\w*|where are we|how far)\b/;
const blockingCue =
  /\b(unproven|why|hold\w* (us |it |them )?(back|up)|held (us |it |them )?(back|up)|what (would|will|does) it take|to get \S+ (to )?met|block\w*|keep\w*|stop\w*|prevent\w*|not met|unmet|gaps?|missing|wrong|fail\w*|attention|problems?|need\w*)\b/;
const gapsCue =
  /\b(no control|not covered|uncovered|without (a |any )?control|nothing mapped|no mapping|unmapped|(do|does) (we|the catalog) cover)\b/;
/** Two named days are compared on any of these; a span only on a score or trend word ("changes over the past 3 days" is a diff). */
const compareCue = /\b(score|trend\w*|chang\w*|progress\w*|improv\w*|posture|different|difference|compare\w*|versus|vs)\b/;
const trendCue = /\b(score|trend\w*|moved?|progress\w*|improv\w*|posture|lowest|highest|best|worst|evolv\w*|readiness)\b/;
/** What one day's report says against the one before: its score, what broke or changed on it. */
const dayCue =
  /\b(report|status|summary|score\w*|broke|break|broken|happened|changed|drop\w*|fell|rose|dip\w*|jump\w*|went (up|down))\b/;
/** When something happened to a control: its days, however the control is named ("when did the MFA control go stale?"). */
const whenCue = /\b(?:since when|when did|(?:on )?(?:what|which) (?:date|day) did|(?:was|were) there (?:a|any) day)\b/;
const historyCue =
  /\b(since when|how long|how many days|when did|always|all along|the whole time|(?:on )?(?:what|which) (?:date|day) did|(?:was|were) there (?:a|any) day|when (was|were) \S+ (fixed|resolved|broken|repaired|passing again|back to passing)|ever|history|at all|what happened|(was|were) (red|failing|stale|broken|down)|(the )?(whole|entire|full) (\d+|two|three|four) (days|weeks|months)|(whole|entire) period|throughout|deviations?|operat\w* effectively|all (week|month|quarter|year)|whole (week|month|quarter)|every day|each day|over the (last|past)|(last|past) (\d+|two|three|four) (days|weeks|months)|(last|past) (week|month|quarter)|this (week|month|quarter))\b/;
const passingTheFramework =
  /\bpass(es|ed|ing)? (?:(?:the|our|an?|this|next|its|their) )?(?=soc|iso|nist|\d|audit|certif|assess|framework|standard)/g;
const exceptionCue =
  /\b(exceptions?|risk acceptances?|accepted risks?|accepted as (a )?risks?|accept(ed)? (the |a |as a )?risks?|waiv\w*)\b/;
const openLongestCue =
  /\b((open|failing|broken|red|outstanding|unresolved|not passing) (for )?(the )?longest|longest[- ](open|running|standing|failing)|oldest (open )?(issues?|problems?|failures?|findings?|gaps?)|open(ed)? (the )?(earliest|first))\b/;
const ownershipCue =
  /\b(who owns|owners?|owned by|responsible|accountable|who (needs|has|is supposed|should|must) to fix|who should fix|whose (job|responsibility)|when(?: is| are|'s) (it|that|this|they|those|these|the [a-z ]{1,40}?|\w+-\d+) due|due dates?|deadlines?)\b/;

/** "…, and are any of them failing?": a second clause asking after the status of each control the first one named. */
const askedOfEach = /\band (?:is|are) (?:any|anything|all|none)\b/;

export function parseQuery(asked: Asked): Query | undefined {
  const { text, index } = asked;
  // The owner the question names ("what does the IT lead own"), as the report spells it, read once for the readings that take it.
  const ownerIn = (said: string) =>
    entitiesOf(index)
      .mentions(said)
      .find(({ entity }) => entity.kind === 'owner');
  const mention = ownerIn(text) ?? (referredOwner.test(text) ? ownerSaidBefore(asked, ownerIn) : undefined);
  const owner = mention?.entity.display;
  return (
    exceptionsQuery(text) ??
    rankingQuery(text) ??
    (/\b(muted|suppressed|silenced)\b/.test(text) ? { kind: 'muted' } : undefined) ??
    (openLongestCue.test(text) ? { kind: 'openLongest' } : undefined) ??
    evidenceKindsQuery(text, index) ??
    ownershipQuery(asked, owner) ??
    findingsQuery(asked) ??
    expiringQuery(asked) ??
    dueQuery(asked, owner ?? ownerAskedBefore(asked, ownerIn)) ??
    (mention && ownerQuery(asked, mention)) ??
    historyQuery(asked) ??
    overDaysQuery(asked) ??
    subjectQuery(text, index) ??
    readinessQuery(asked) ??
    // "The vendor controls with their current status" asks after controls, not a check named "status-checks-required".
    (withTheirStatus.test(text) ? undefined : checksQuery(asked))
  );
}

function checksQuery(asked: Asked): Query | undefined {
  const checks = checksAskedAbout(asked);
  return checks.length > 0 ? { kind: 'checks', checks } : undefined;
}

/** "Which risks have we accepted": an exception's words, or "what/which … accepted" in one sentence; not an auditor's exceptions. */
function exceptionsQuery(text: string): Query | undefined {
  const asked = exceptionCue.test(text) || followedBy(text, /\b(what|which|anything|something)\b/, / (we )?(have )?accepted\b/);
  const auditors =
    (auditFinding.test(text) || /\bauditors?\b/.test(text)) && !/\b(accept\w*|waiv\w*|in force|granted|approved)\b/.test(text);
  if (!asked || auditors || /\bexception handling\b/.test(text)) return undefined;
  const scopedOut = /\b(scoped[- ]out|out of scope|not applicable|excluded|exempt\w*)\b/.test(text);
  return { kind: 'exceptions', ...(scopedOut ? { scopedOut } : {}) };
}

/** "Which day saw the biggest drop in score", "which owner has the most open controls", "which framework are we closest to". */
function rankingQuery(text: string): Query | undefined {
  const move =
    /\b(biggest|largest|sharpest|worst|steepest) (one[- ]day )?(drop|fall|decline|dip)\b|\b(biggest|largest|best) (one[- ]day )?(jump|rise|gain|improvement)\b/.exec(
      text,
    );
  if (move) return { kind: 'biggestMove', direction: move[1] && move[3] ? 'down' : 'up' };
  // "Who is on the hook for the most open items" asks the same of people as "which owner has the most".
  if (followedBy(text, /^who\b|\b(which|what) (owner|person|team|lead)\b/, /\b(most|fewest|least)\b/))
    return { kind: 'ownersRanked' };
  const frameworks = /\b(which|what) (of (the|our) )?(three |3 )?(frameworks?|standards?)\b/;
  if (followedBy(text, frameworks, /\b(closest|nearest|best|most|furthest|worst|least|highest|lowest|weakest|strongest)\b/))
    return { kind: 'frameworksRanked' };
  return undefined;
}

/** "Which controls are evidenced only by signed attestations", "what relies on manual evidence". */
function evidenceKindsQuery(text: string, index: ReportIndex): Query | undefined {
  const kinds = kindsNamed(text, index);
  if (kinds.length > 0) return { kind: 'evidenceKinds', kinds, only: false };
  const attestations =
    /\b(rel(y|ies|ying)|based|evidenced|backed|supported|proven|covered|depend\w*) (only |solely |just |purely |entirely )?(on|by|upon) (signed |manual |human )?(attestations?|manual evidence|people'?s word)\b|\battestations? only\b|\b(only|solely) (signed |manual )?attestations?\b/;
  if (!attestations.test(text)) return undefined;
  const only = /\b(only|solely|just|purely|entirely|rather than|instead of|not (from|by) (systems?|collectors?))\b/.test(text);
  return { kind: 'evidenceKinds', kinds: ['attestation'], only };
}

/**
 * "Who owns ENC-04?", "who owns the vendor management controls?", "who needs to fix those?",
 * "when's the bucket one due?": the named controls, a topic's (narrowed to the previous answer's
 * where they meet), or the previous answer's.
 */
function ownershipQuery({ text, index, ids: named, cited: previous }: Asked, owner: string | undefined): Query | undefined {
  // Controls named by id: their owners and due dates, whoever asks ("IT lead here: when is IAM-05 due?", "is PPL-05 overdue?").
  if (
    named.length > 0 &&
    (ownershipCue.test(text) || /\b(overdue|due|by when)\b|\b(?:fixed|remediated|resolved|closed) by\b/.test(text))
  )
    return { kind: 'ownership', controlIds: named };
  // "What is the People lead responsible for" asks for an owner's controls (ownerQuery).
  if (!ownershipCue.test(text) || owner) return undefined;
  const terms = topicTerms(
    statusesIn(text)
      .rest.replace(severityCue, ' ')
      .replace(
        /\b(who|owns?|owners?|owned|by|responsible|accountable|needs?|has|is|are|supposed|should|must|to|fix|whose|job|responsibility|when|'s|due|dates?|deadlines?|controls?|ones?|the|those|these|them|it|that|this)\b/g,
        ' ',
      ),
  );
  // A topic only when the question asks who or when of it, and the search finds it by title or family.
  const topical = /\b(who|owners?|owned|responsible|accountable|when|due dates?|deadlines?)\b/.test(text) && terms.length > 0;
  const search = topical ? searchTopic(index, terms, terms.join(' ')) : undefined;
  // A family the words name outright ("the vendor management controls") is the topic, not every control mentioning vendors.
  const family = topical
    ? index.controls.filter(({ result }) => terms.every((term) => result.family.split('-').map(stem).includes(term)))
    : [];
  const found = family.length > 0 ? family.map(({ result }) => result.id) : search?.strong ? search.topic.controlIds : [];
  // "When's the bucket one due?" picks among the previous answer's controls.
  const narrowed = (search?.topic.controlIds ?? []).filter((id) => previous.includes(id));
  // "Which high-severity controls are failing, and when are they due?": the controls in those statuses.
  const { statuses } = statusesIn(text.replace(severityCue, ' '));
  const inStatus =
    statuses.length > 0 &&
    /\b(who|when|owners?|by owner|(?:due dates?|deadlines?)(?! (?:in|before|by|until|during|on|this|next)\b))\b/.test(text)
      ? statusTopic(index, statuses, severitiesIn(text), false)?.controlIds
      : undefined;
  // "The deadline for the failed awareness training": of the controls found, those in the status named.
  const foundInStatus = askedOfEach.test(text) ? [] : found.filter((id) => statuses.includes(index.byId.get(id)!.result.status));
  const controlIds =
    narrowed.length > 0
      ? narrowed
      : found.length > 0
        ? foundInStatus.length > 0
          ? foundInStatus
          : found
        : /\b(it|that|this|those|these|them)\b/.test(text) && previous.length > 0
          ? previous
          : (inStatus ?? (/\bthey\b/.test(text) ? previous : []));
  return controlIds.length > 0 ? { kind: 'ownership', controlIds } : undefined;
}

/**
 * "Which controls use repo evidence?", "what controls rely on branch protection evidence": the evidence kinds whose
 * name has every word said before "evidence" (`repo.branch_protection`), of a question asking for controls.
 */
const evidenceVerbs = /^(?:use[sd]?|using|rel(?:y|ies|ying)|needs?|reads?|looks?|takes?|draws?|based)$/;

function kindsNamed(text: string, index: ReportIndex): string[] {
  const said = /\b(?:which|what) controls\b/.test(text) ? /\b((?:[a-z0-9]+ ){1,3})evidence\b/.exec(text)?.[1] : undefined;
  const words = (said ?? '')
    .split(' ')
    .filter((word) => word && !stopWords.has(word) && !questionWords.has(stem(word)) && !evidenceVerbs.test(word));
  if (words.length === 0) return [];
  return [...index.evidenceKinds].filter((kind) =>
    words.every((word) => kind.split(/[._]/).some((part) => stem(part) === stem(word))),
  );
}

/** "Which repository is affected?", "whose are they?", "which devices are behind that?" after an answer that cited controls. */
function findingsQuery({ text, ids, cited }: Asked): Query | undefined {
  const asksSubjects =
    /^(whose|who)\b|\b(which|what) (repos?|repositor\w+|devices?|laptops?|machines?|buckets?|users?|people|accounts?|hosts?|systems?|vendors?|keys?|subjects?|resources?|assets?|images?)\b/.test(
      text,
    );
  // "Which devices?" on its own, after an answer, asks for the subjects behind it.
  const refersBack = /\b(it|that|this|they|those|these|them|their|affected|behind)\b/.test(text) || text.split(/\s+/).length <= 3;
  const whoOfIt = /^(who|whose)\b/.test(text) && /\b(it|that|this|them|those)\b/.test(text);
  if (!asksSubjects || !refersBack || ids.length > 0 || (statusesIn(text).statuses.length > 0 && !whoOfIt)) return undefined;
  return cited.length > 0 && cited.length <= 10 ? { kind: 'findings', controlIds: cited } : undefined;
}

/** One asked for: "which open control is due first?", "which of them is due soonest?", "which one comes due next?". */
const dueFirst =
  /\b(?:which|what)(?: \w+){0,2}(?: of (?:them|those|these))? (?:is|comes|falls) (?:due )?(?:soonest|first|next)\b/;

/** "Is anything overdue?", "What is due before December?", "what's due on dec 8", "deadlines in December". */
function dueQuery({ text, reportDate, cited }: Asked, owner: string | undefined): Query | undefined {
  const statuses = statusesWithout(text, /\boverdue\b/g);
  // "Which of those are due in December?": among the controls the answer before cited.
  const among = cues.ofThose.test(text) && cited.length > 0 ? { among: cited } : {};
  const filters = { ...(statuses ? { statuses } : {}), ...(owner ? { owner } : {}), ...among };
  // "Which are due soonest?", "when is the next thing due?": what falls due over the coming quarter, soonest first.
  const soonest =
    /\b(due (soonest|next|first)|soonest due|next (\w+ )?due|next deadline|coming due|upcoming (deadlines?|due dates?))\b|^(what'?s|what is|anything|is anything) due\W*$/;
  const overdue = overdueControls(text, owner !== undefined) && !/\bdue (before|by|until|on)\b/.test(text);
  if (soonest.test(text) || (cues.ofThose.test(text) && dueFirst.test(text))) {
    const until = { date: addDays(reportDate, 90), inclusive: true, phrase: 'the next 90 days' };
    // "Is anything overdue? If not, what comes due first?": whatever is overdue, then what falls due.
    // "Which control is due first?", "which of them is due soonest?" ask for one.
    const one = dueFirst.test(text) || /\bnext deadline\b/.test(text);
    return { kind: 'due', ...(overdue ? {} : { from: reportDate }), before: until, ...filters, ...(one ? { limit: 1 } : {}) };
  }
  if (overdue) return { kind: 'due', ...filters };
  const due =
    /\b(?:due|deadlines?|fall due|(?:be |get )(?:fixed|remediated|resolved|closed))(?: dates?)?(?: (before|by|until|ahead of|on or before|on|in|during|for))?\b/.exec(
      text,
    );
  if (!due) return undefined;
  const after = text.slice(due.index);
  const window = windowAhead(after, reportDate);
  if (window) {
    const from = window.from ? { from: window.from } : {};
    return { kind: 'due', before: { date: window.until, inclusive: true, phrase: window.phrase }, ...from, ...filters };
  }
  const date = daysIn(after, reportDate, 'ahead')[0];
  const word = due[1];
  if (date && word === 'on')
    return { kind: 'due', from: date.date, before: { date: date.date, inclusive: true, phrase: date.phrase }, ...filters };
  if (!word || word === 'in' || word === 'during' || word === 'for' || word === 'on') return undefined;
  const inclusive = word !== 'before' && word !== 'ahead of';
  if (date) return { kind: 'due', before: { date: date.date, inclusive, phrase: date.phrase }, ...filters };
  const month = monthAhead(after, reportDate);
  return month && { kind: 'due', before: { date: month.date, inclusive: false, phrase: month.phrase }, ...filters };
}

/** "Overdue" about controls ("is anything overdue", "overdue controls"), not about something else ("overdue high vulns"). */
function overdueControls(text: string, ownerNamed: boolean): boolean {
  return [...text.matchAll(/\boverdue\b(?: ([a-z]+))?/g)].some(
    ([, next]) =>
      next === undefined ||
      // "overdue for a user access review" is about evidence; "overdue for the IT lead" about an owner's controls.
      (next === 'for' ? ownerNamed : stopWords.has(next)) ||
      /^(controls?|items?|ones?|tasks?|things?|fix(es)?)$/.test(next),
  );
}

function statusesWithout(text: string, phrase?: RegExp): ControlStatus[] | undefined {
  const { statuses } = statusesIn(phrase ? text.replace(phrase, ' ') : text);
  return statuses.length > 0 ? statuses : undefined;
}

/** "What's due?" on its own after a question about an owner: that owner's. */
function ownerAskedBefore({ text, last }: Asked, ownerIn: (said: string) => Mention | undefined): string | undefined {
  return text.split(/\s+/).length <= 4 && last ? ownerIn(last)?.entity.display : undefined;
}

/** "That person", "the same owner": the owner the answer before named. */
const referredOwner = /\b(?:that|this|the same) (?:person|owner|lead|team)\b|\b(?:he|she|him|her)\b/;

function ownerSaidBefore({ history }: Asked, ownerIn: (said: string) => Mention | undefined): Mention | undefined {
  const answer = history.findLast((turn) => turn.role === 'assistant')?.content;
  const mention = answer === undefined ? undefined : ownerIn(answer);
  // Found in another text: its place in this one is unknown, so nothing of this one is set aside.
  return mention && { ...mention, at: 0, end: 0 };
}

function ownerQuery(asked: Asked, { entity, at, end }: Mention): Query {
  const { text, last, cited, index } = asked;
  // "What does the IT lead need to fix?" asks for what needs attention; "what about the security lead?" asks it again.
  const before = again.test(text) ? last : '';
  const fix = (question: string) =>
    /\b(fix|remediat\w*|address|work on|sort out|action|chase|follow up|worr\w*|needs? to)\b/.test(question);
  // "Which controls does the Engineering lead own, and are any of them failing?" asks for all of them, with their statuses.
  const everyOne = /\b(which|what) controls (does|do)\b/.test(text) && askedOfEach.test(text);
  const statuses = everyOne
    ? undefined
    : (statusesWithout(`${text.slice(0, at)} ${text.slice(end)}`) ??
      (fix(text) || fix(before) ? attentionStatuses : before ? statusesWithout(before, /\boverdue\b/g) : undefined));
  // "And which of those does the IT lead own?" narrows the previous answer's controls.
  const among = /\b(of|among|from) (those|these|them)\b/.test(text) && cited.length > 0 ? { among: cited } : {};
  // "What else does that person own?" leaves out what the answer before named.
  const others = index.controls.map(({ result }) => result).filter((result) => result.owner === entity.display);
  const rest =
    /\belse\b/.test(text) && cited.length > 0 ? { among: others.map(({ id }) => id).filter((id) => !cited.includes(id)) } : {};
  // "Which of the engineering lead's controls were failing on the 15th?": those controls that day.
  const [day, ...more] = daysIn(text, asked.reportDate);
  if (day && more.length === 0 && day.date < asked.reportDate && statuses)
    return {
      kind: 'throughout',
      period: { from: day.date, to: day.date, phrase: day.phrase },
      statuses,
      every: false,
      controlIds: others.map(({ id }) => id),
    };
  // "What does the Security lead own that is failing, and when is each due?": those controls' owners and due dates.
  if (/\b(?:due|deadlines?|by when)\b/.test(text) && !cues.ofThose.test(text)) {
    const owned = others.filter((result) => !statuses || statuses.includes(result.status));
    if (owned.length > 0 && owned.length <= 12) return { kind: 'ownership', controlIds: owned.map(({ id }) => id) };
  }
  return { kind: 'owner', owner: entity.display, ...(statuses ? { statuses } : {}), ...among, ...rest };
}

/** A named control (or the previous answer's) over days: "was IAM-01 passing all month", "since when?". */
function historyQuery({ text, ids: named, cited, reportDate, index }: Asked): Query | undefined {
  // "Why did it fail?" of a control that passes today asks about the days it failed.
  const pastWhy = /\bwhy did (it|they|that|this|\w+-\d+) (fail|break|go red)\b/.test(text);
  if (!historyCue.test(text) && !pastWhy) return undefined;
  const previous =
    named.length === 0 &&
    (/^(since when|how long|when did|and (since|how long))\b/.test(text) || /\b(it|they|that one|this one)\b/.test(text));
  const byWords = named.length === 0 && whenCue.test(text) ? controlsNamedByWords(text, index) : [];
  const controlIds = named.length > 0 ? named : byWords.length > 0 ? byWords : previous ? cited : [];
  if (controlIds.length === 0 || controlIds.length > 3) return undefined;
  if (pastWhy && !historyCue.test(text) && controlIds.some((id) => index.byId.get(id)?.result.status !== 'passing'))
    return undefined;
  const period: Period = spanIn(text, reportDate) ?? {
    from: historyFrom(reportDate),
    to: reportDate,
    phrase: 'the last 90 days',
  };
  return { kind: 'controlHistory', controlIds, period, label: controlIds.join(', ') };
}

/** The controls a question's words name outright, past the words of when ("go", "start", "show up"). */
const controlsNamedByWords = (text: string, index: ReportIndex) =>
  controlsNamedIn(text.replace(/\b(?:go|went|gone|start\w*|first|appear\w*|show\w* up)\b/g, ' '), index);

/** Two dates to compare, a span to follow the score over, or one earlier day's report. */
/** Two days named: the span between them, one of them then today, or the two compared. */
function twoDaysQuery(asked: Asked, [first, second]: [NamedDay, NamedDay]): Query | undefined {
  const { text, reportDate } = asked;
  const [a, b] = [first, second].sort((x, y) => (x.date < y.date ? -1 : 1)) as [NamedDay, NamedDay];
  // "Between Nov 8 and Nov 21", "from the 8th to the 12th", "since Nov 8 but passing today": a span; "failed today that
  // passed yesterday" is a diff.
  const span =
    /\bbetween\b/.test(text) ||
    followedBy(text, /\bfrom\b/, /\b(to|until|through)\b/, lineBreaks) ||
    (b.date === reportDate && /\bsince\b/.test(text));
  const between = span && throughoutQuery(asked, { from: a.date, to: b.date, phrase: `${a.phrase} to ${b.phrase}` });
  if (between) return between;
  // "Passing on 8 November but not now": that one day, then today.
  const thenNow =
    !span && b.date === reportDate && todayClause(text) && throughoutQuery(asked, { from: a.date, to: a.date, phrase: a.phrase });
  if (thenNow) return thenNow;
  if (compareCue.test(text) || /\bbetween\b/.test(text) || followedBy(text, /\bfrom\b/, /\bto\b/, lineBreaks))
    return compared(text, a.date, b.date, `${a.phrase} and ${b.phrase}`);
  return undefined;
}

/** Two days compared: in the score and what changed, or in a framework's readiness when the question asks about that. */
function compared(text: string, earlier: string, later: string, phrase: string): Query {
  const framework = /\bread(y|iness)\b/.test(text) ? frameworkIn(text) : undefined;
  if (framework) return { kind: 'trend', period: { from: earlier, to: later, phrase }, framework };
  return { kind: 'compare', earlier, later, phrase };
}

const weekOrMonthBack =
  /\b(?:vs\.?|versus|compared (?:to|with)|(?:better|worse|higher|lower) than) (?:last|a|one|the previous|previous) (week|month)\b/;

function overDaysQuery(asked: Asked): Query | undefined {
  const { text, last, reportDate } = asked;
  // "What changed on the 17th compared with the day before?" is that day's report against the one before it.
  const dayBefore = /\b(?:compared (?:to|with)|vs\.?|versus|than|from) the (?:day|report) before\b/.exec(text);
  const dates = daysIn(dayBefore ? text.replace(dayBefore[0], ' ') : text, reportDate);
  if (dayBefore && dates.length === 1 && dates[0]!.date < reportDate)
    return { kind: 'day', date: dates[0]!.date, phrase: dates[0]!.phrase };
  const both = dates.length >= 2 && dates[0]!.date !== dates[1]!.date && twoDaysQuery(asked, [dates[0]!, dates[1]!]);
  if (both) return both;
  const yearAgo = /\b(this time last year|a year ago|one year ago|same (day|time) last year)\b/.exec(text);
  if (yearAgo && /\b(score|status|report|readiness)\b/.test(text))
    return { kind: 'day', date: `${Number(reportDate.slice(0, 4)) - 1}${reportDate.slice(4)}`, phrase: yearAgo[0] };
  const single = dates.length === 1 && dates[0]!.date < reportDate ? dates[0]! : undefined;
  // "How many are failing vs last week": a week (or month) before today's report.
  const back = weekOrMonthBack.exec(text);
  if (!single && back) {
    const earlier = addDays(reportDate, back[1] === 'week' ? -7 : -30);
    return { kind: 'compare', earlier, later: reportDate, phrase: `${earlier} and ${reportDate}` };
  }
  if (single && /\b(vs\.?|versus|compared? (to|with)|than)\b/.test(text))
    return compared(text, single.date, reportDate, `${single.phrase} and ${reportDate}`);
  // "Was it better when the reports started?" (after a framework's readiness): that day to today, in the score or that framework.
  if (single && /\b(better|worse|higher|lower)\b/.test(text) && asked.ids.length === 0) {
    const framework = frameworkIn(text) ?? frameworkIn(last);
    const period = { from: single.date, to: reportDate, phrase: `${single.phrase} to today` };
    return { kind: 'trend', period, ...(framework ? { framework } : {}) };
  }
  // "Failing a week ago but fine today" is that day, then today; "failing at some point since Nov 8 but passing today" a span.
  const onThatDay =
    single &&
    !/\bsince\b/.test(text) &&
    todayClause(text) &&
    throughoutQuery(asked, { from: single.date, to: single.date, phrase: single.phrase });
  if (onThatDay) return onThatDay;
  const afterDay = single && text.replace(single.phrase, ' ');
  // "Since the 15th" is a span for the score ("has the score moved since …") and for statuses over it ("red on at least one day since …").
  const since =
    afterDay && /\bsince\b/.test(text) && (trendCue.test(afterDay) || someDay.test(afterDay) || everyDay.test(afterDay));
  const period = since
    ? { from: single.date, to: reportDate, phrase: `since ${single.phrase}` }
    : (spanIn(text, reportDate) ?? wholePeriod(text, reportDate) ?? openFor(text, reportDate));
  const controlsOver = period ?? everPeriod(text, reportDate);
  const throughout = controlsOver && throughoutQuery(asked, controlsOver);
  if (throughout) return throughout;
  if (!period && scoreOverHistory.test(text))
    return { kind: 'trend', period: lastWeeks(reportDate, /\b(getting|trending)\b/.test(text) ? 2 : 13) };
  if (period && trendCue.test(text.replace(period.phrase, ' '))) {
    const framework = frameworkIn(text);
    return { kind: 'trend', period, ...(framework ? { framework } : {}) };
  }
  const day = dates.length === 1 && !/\bsince\b/.test(text) ? dates[0]! : undefined;
  if (day && day.date < reportDate) return oneDayQuery(asked, day);
  return dates.length === 0 ? dayAskedAgain(asked) : undefined;
}

/** One earlier day named on its own: named controls that day, that day's changes of one kind, or that day's report. */
function oneDayQuery(asked: Asked, day: NamedDay): Query | undefined {
  const { text, last, ids } = asked;
  if (ids.length > 0 && ids.length <= 3)
    return {
      kind: 'controlHistory',
      controlIds: ids,
      period: { from: day.date, to: day.date, phrase: day.phrase },
      label: ids.join(', '),
    };
  // "What got fixed on the 16th?": that day's changes of that kind.
  const focus = text.includes(`on ${day.phrase}`) ? changeFocus(text.replace(day.phrase, ' ')) : 'all';
  // "And on the 18th?" after a question about one day's score asks it of that day.
  // "What was the status of the vendor controls on the 12th?" asks after those controls that day (intents.ts), not the day.
  const rest = text.replace(day.phrase, ' ');
  const ofControls =
    /\b(?:status(?:es)?|state) of\b/.test(rest) && (ids.length > 0 || controlsNamedByWords(rest, asked.index).length > 0);
  const asksDay = (dayCue.test(rest) && !ofControls) || focus !== 'all' || (again.test(text) && dayCue.test(last));
  if (asksDay) return { kind: 'day', date: day.date, phrase: day.phrase, ...(focus !== 'all' ? { focus } : {}) };
  return undefined;
}

/**
 * After a question about one day: "and the day after?", "why did it drop the next day?", "why did it jump?" ask
 * about that day, or the one after or before it.
 */
function dayAskedAgain({ text, last, reportDate }: Asked): Query | undefined {
  const [before] = daysIn(last, reportDate);
  if (!before || !(dayCue.test(last) || trendCue.test(last) || again.test(last))) return undefined;
  // "Why the difference?" after "and a week ago?": that day against today.
  if (/\bwhy\b/.test(text) && /\bdifference\b/.test(text) && before.date < reportDate)
    return { kind: 'compare', earlier: before.date, later: reportDate, phrase: `${before.phrase} and ${reportDate}` };
  const step = dayStepIn(text);
  const asksMove = /\bwhy\b/.test(text) && /\b(it|the score)\b/.test(text) && dayCue.test(text);
  if (step === 0 && !asksMove) return undefined;
  const date = addDays(before.date, step);
  return date <= reportDate
    ? { kind: 'day', date, phrase: step === 0 ? before.phrase : `the day ${step > 0 ? 'after' : 'before'} ${before.phrase}` }
    : undefined;
}

/**
 * "What has been open the whole two weeks", "which controls failed on at least one day in November", "which CC8.1
 * controls failed between Nov 8 and Nov 21", "which of those failed during the audit period but are passing now":
 * a past tense over a span is at least one day of it; a clause about today says which statuses to keep.
 */
function throughoutQuery({ text, index, ids, cited }: Asked, period: Period): Query | undefined {
  const turned = /\bfrom (failing|red|broken) to (passing|green)\b/.exec(text);
  const today = turned ? { clause: turned[0], statuses: ['passing' as const] } : todayClause(text);
  const rest = today ? text.replace(today.clause, turned ? ' failed ' : ' ') : text;
  const every = everyDay.test(rest);
  // On one day, "failing on the 14th" is that day's status, however the past is worded.
  if (!every && !someDay.test(rest) && period.from !== period.to) return undefined;
  const { statuses } = statusesIn(rest);
  if (statuses.length === 0) return undefined;
  const named = namedTopic(ids, frameworkMatches(index, text))?.controlIds ?? ownedControls(text, index);
  // Words about reports, evidence and time name no topic here ("across the daily reports in the period", "including any
  // that have since recovered").
  // A sentence setting the scene ("I'm putting together the remediation log.") names no topic: the question does.
  const asking = rest.split(/(?<=[.!])\s+/).findLast((sentence) => sentence.includes('?')) ?? rest;
  const topical = asking
    .replace(period.phrase, ' ')
    .replace(severityCue, ' ')
    .replace(new RegExp(everyDay.source, 'g'), ' ')
    .replace(new RegExp(someDay.source, 'g'), ' ')
    .replace(/\b(daily|reports?|period|across|days?|weeks?|months?|evidence|recover\w*|since|between|including|without)\b/g, ' ')
    .replace(/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/g, ' ');
  // Numbers qualify a topic ("within 30 days") but are not one on their own (the days of "between 10 and 15 November").
  const terms = topicTerms(statusesIn(topical).rest).filter((term, _, all) => !all.every((word) => /^\d+$/.test(word)));
  const found = !named && terms.length > 0 ? searchTopic(index, terms, terms.join(' ')) : undefined;
  const severities = severitiesIn(text);
  const ofSeverity = severities.length > 0 ? statusTopic(index, [...controlStatuses], severities, false)?.controlIds : undefined;
  const controlIds =
    named ??
    (cues.ofThose.test(text) && cited.length > 0 ? cited : undefined) ??
    (found?.strong ? found.topic.controlIds : undefined) ??
    ofSeverity;
  return {
    kind: 'throughout',
    period,
    statuses,
    every,
    ...(controlIds ? { controlIds } : {}),
    ...(today ? { now: today.statuses } : {}),
  };
}

/** "Engineering-owned controls": the controls of the one owner whose name starts with that word. */
function ownedControls(text: string, index: ReportIndex): string[] | undefined {
  const word = /\b([a-z]+)[- ]owned\b/.exec(text)?.[1];
  const owners = new Set(
    index.controls.flatMap(({ result }) => (word && result.owner?.toLowerCase().startsWith(`${word} `) ? [result.owner] : [])),
  );
  if (owners.size !== 1) return undefined;
  const [owner] = owners;
  return index.controls.filter(({ result }) => result.owner === owner).map(({ result }) => result.id);
}

const everyDay =
  /\b(never (?:been )?(?:passed|passing|green)|the whole|whole|entire|all (the )?(time|period|way)|every day|each day|throughout|consistently|continuously|the full|for (more than|over|longer than|at least)|(has|have) (been|stayed|remained) (open|failing|stale|missing|red|broken)( evidence)? since)\b/;
const someDay =
  /\b(at least one day|at any (point|time)|any day|ever|at some point|on any day|one or more days|at least once|failed|during|(was|were) (there|any|failing|stale|red|broken|passing|green|open)|did (any|anything|some)\b(?=[^?.]{0,60}\b(fail|break|go red|lapse)\b))\b/;

const noLongerSo =
  /\b(?:that|which|but) (?:is|are|was|were)n'?t (?:any ?more|now|today)\b|\b(?:that|which|but) (?:is|are) not (?:any ?more|now|today)\b|\bno longer\b/;

/** Every status but those asked of the span. */
const otherStatuses = (asked: readonly ControlStatus[]) => controlStatuses.filter((status) => !asked.includes(status));

/** "…but are passing now", "and still failing": a clause about today, and the statuses it names. */
function todayClause(text: string): { clause: string; statuses: ControlStatus[] } | undefined {
  // "…that isn't now", "…but no longer are": today in any other status than the one asked of the span.
  const noLonger = noLongerSo.exec(text);
  if (noLonger) return { clause: noLonger[0], statuses: otherStatuses(statusesIn(text.replace(noLonger[0], ' ')).statuses) };
  for (const part of text.split(/[,.;?!]/)) {
    const at = part.search(/\b(but|yet|and|(are|is|aren't|isn't|are not|is not) (\w+ )?(now|currently|still|today)\b)/);
    const clause = at < 0 ? '' : part.slice(at);
    const { statuses } = /\b(now|currently|today|still)\b/.test(clause) ? statusesIn(clause) : { statuses: [] };
    if (statuses.length > 0) return { clause, statuses };
    // "…but are fine today": well today is passing.
    if (/\b(now|currently|today)\b/.test(clause) && /\b(fine|ok|okay|healthy|good|resolved|fixed|sorted)\b/.test(clause))
      return { clause, statuses: ['passing'] };
  }
  return undefined;
}

/** The score over the history without a span named: which way it is going, its best or worst day, whether it ever passed a mark. */
const scoreOverHistory =
  /\b(are we|is it|is the score|is our score) (getting|trending) (better|worse|up|down)\b|\b(worst|best|lowest|highest) (day|score|point)\b|\bscore (ever|ever been)\b|\bever (been )?(above|below|over|under|(fully |all |completely )?(green|passing))\b/;

/** The last `weeks` weeks, today's report included. */
const lastWeeks = (reportDate: string, weeks: number): Period => ({
  from: addDays(reportDate, -(7 * weeks - 1)),
  to: reportDate,
  phrase: weeks === 2 ? 'the last two weeks' : `the last ${weeks} weeks`,
});

const units: Record<string, number> = { day: 1, week: 7, month: 30 };
const counts: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10 };

/** "Failing for more than a week", "open for at least 10 days": every day of that span, counted back from today. */
function openFor(text: string, reportDate: string): Period | undefined {
  const held =
    /\bfor (more than|over|longer than|at least) (a|an|one|two|three|four|five|six|seven|ten|\d{1,3}) (day|week|month)s?\b/.exec(
      text,
    );
  if (!held) return undefined;
  const days = (counts[held[2]!] ?? Number(held[2])) * units[held[3]!]! + (held[1] === 'at least' ? -1 : 0);
  return { from: addDays(reportDate, -days), to: reportDate, phrase: held[0] };
}

/** "Did the backup controls ever fail?", "at any point": every report kept, as a control's history reads them. */
function everPeriod(text: string, reportDate: string): Period | undefined {
  // "Were we ever fully green?" is about the score (`scoreOverHistory`), not the controls.
  const ever =
    /\b(?:ever|at any (?:point|time)|at some point|never (?:been )?(?:passed|passing|green))\b/.test(text) &&
    !scoreOverHistory.test(text);
  return ever ? { from: historyFrom(reportDate), to: reportDate, phrase: 'the last 90 days' } : undefined;
}

/** "The audit period", "the observation window": every report kept, as far back as a control's history reads. */
function wholePeriod(text: string, reportDate: string): Period | undefined {
  const named = /\b(?:the|this|our) (?:(?:audit|observation|review|reporting|assessment) )?(?:period|window)\b/.exec(text);
  return named ? { from: historyFrom(reportDate), to: reportDate, phrase: named[0] } : undefined;
}

function readinessQuery(question: Asked): Query | undefined {
  const { text, index, ids, last, reportDate } = question;
  const named = frameworkIn(text);
  // "ISO and NIST readiness side by side": every framework's share, ranked.
  // "How ready are we for each framework?" too.
  const every = /\b(?:each|every|all (?:the |our |three )?|per|by) frameworks?\b|\bframeworks?'? readiness\b/.test(text);
  if ((every || frameworkNamed.filter(([, pattern]) => pattern.test(text)).length > 1) && readinessCue.test(text))
    return { kind: 'frameworksRanked' };
  const requirements = requirementsIn(text, index, named);
  // "Which requirements are unmet?" after a framework's readiness asks it of that framework.
  const before = /\b(requirements?|criteria|clauses?)\b/.test(text) && ids.length === 0 ? frameworkIn(last) : undefined;
  const framework = named ?? (requirements[0] ? frameworkOfRequirement(requirements[0]) : before);
  if (!framework) return undefined;
  const followUp =
    ((again.test(text) || /^same for\b/.test(text)) && frameworkIn(last) !== undefined) || (!named && before !== undefined);
  const cued = readinessCue.test(text) || blockingCue.test(text) || statusesIn(text).statuses.length > 0;
  // "And CC7.4?" after "what's keeping CC7.2 from being met?": that question again, of the requirement named.
  if (!cued && requirements.length > 0 && cues.followUp.test(text) && last) {
    const before = readinessQuery({ ...question, text: last, last: '' });
    if (before?.kind === 'readiness') return { ...before, framework, requirements };
  }
  if (!cued && !followUp && !(named && requirements.length === 0 && text.split(/\s+/).length <= 4)) return undefined;
  // Controls named by id make it a question about those controls.
  if (ids.length > 0) return undefined;
  // "What was our SOC 2 readiness on Nov 12?": that day's report, for that framework.
  const days = daysIn(text, reportDate);
  if (days.length === 1 && days[0]!.date < reportDate && requirements.length === 0 && readinessCue.test(text))
    return { kind: 'trend', period: { from: days[0]!.date, to: days[0]!.date, phrase: days[0]!.phrase }, framework };
  // "Is CC8.1 passing?" asks after each control behind it, whatever its status.
  const yesNo = /^(is|are|do|does|have|has)\b/.test(text);
  // "Close to passing ISO 27001", "would we pass the audit": passing the framework is readiness, not a status asked for.
  const { statuses } = statusesIn(
    text
      .replace(passingTheFramework, ' ')
      .replace(/\b(and )?(are|is) (they|it|these|those|all of them) (all )?(green|passing|ok|okay|met|red|failing)\b/g, ' '),
  );
  // "Which controls support CC7.4, and is any failing?" asks after each of them too.
  const each =
    yesNo ||
    (requirements.length > 0 &&
      /\b(which|what) controls\b/.test(text) &&
      (askedOfEach.test(text) || /\band which of (?:them|those|these)\b/.test(text)));
  // "Which criteria are unproven?", "which stale or missing controls are behind the unproven ones?": those whose controls
  // lack fresh evidence, none failing.
  const unproven =
    /\bunproven\b/.test(text) &&
    statuses.every((status) => status === 'stale' || status === 'missing') &&
    requirements.length === 0;
  const asked =
    each || unproven ? undefined : statuses.length > 0 ? statuses : blockingCue.test(text) ? attentionStatuses : undefined;
  return {
    kind: 'readiness',
    framework,
    ...(requirements.length > 0 ? { requirements } : {}),
    gaps: gapsCue.test(text) || followedBy(text, /\bhow many /, /\bgaps\b/),
    ...(asked ? { statuses: asked } : {}),
    ...(unproven ? { unproven } : {}),
  };
}

/** The requirements or series named in the question ("CC7", "A.8", NIST's "IR" family), of one framework. */
function requirementsIn(text: string, index: ReportIndex, framework: FrameworkId | undefined): string[] {
  const matches = frameworkMatches(index, text).map((match) => match.id);
  if (matches.length > 0) {
    const first = frameworkOfRequirement(matches[0]!);
    return matches.filter((id) => frameworkOfRequirement(id) === first);
  }
  if (framework !== 'nist80053') return [];
  const family = /\(([a-z]{2})\)|\b([a-z]{2}) (?:family|controls?|series)\b/.exec(text);
  const id = family?.[1] ?? family?.[2];
  return id && [...index.byFramework.keys()].some((key) => key.startsWith(`${id}-`)) ? [id] : [];
}
