/**
 * Reads a question as a structured query (query-model.ts) when it asks one of the things the
 * report and its history hold beyond one control's state: a framework's readiness, a trend or a
 * comparison over days, a control's history, what an owner answers for, what falls due, and what
 * has been accepted. The vocabulary comes from the data: framework names and requirement ids from
 * the catalog, owners from the controls, dates from the calendar. Anything else returns
 * undefined, and the intent classifier takes the question.
 */
import { addDays } from '../../assessment/dates.js';
import type { ControlStatus } from '../../assessment/model.js';
import type { FrameworkId } from '../../contract.js';
import { monthAhead } from '../day-phrases.js';
import type { ChatTurn } from '../intent-model.js';
import { attentionStatuses, statusesIn } from '../question-cues.js';
import { controlIdsIn, frameworkMatches, type ReportIndex } from '../report-index.js';
import { previouslyCited } from '../topics.js';
import { checksAskedAbout } from './check-queries.js';
import { expiringQuery } from './expiring-queries.js';
import { datesIn, periodIn } from './periods.js';
import type { Period, Query } from './query-model.js';

const frameworkNamed: [FrameworkId, RegExp][] = [
  ['soc2', /\bsoc[ -]?(2|ii|two)\b|\btrust services\b/],
  ['iso27001', /\biso(?:[ /-]?iec)?(?:[ -]?27001(?::?2022)?)?\b|\b27001\b/],
  ['nist80053', /\bnist\b|\b800[ -]53\b/],
];

/** The framework a requirement id's notation belongs to: `CC6.1` SOC 2, `A.8.24` ISO, `ac-2` NIST. */
function frameworkOfRequirement(id: string): FrameworkId {
  if (/^a\.\d/i.test(id)) return 'iso27001';
  if (/^[a-z]{2}-\d/i.test(id) || /^[a-z]{2}$/i.test(id)) return 'nist80053';
  return 'soc2';
}

const readinessCue =
  /\b(read(y|iness|yness)|redy\w*|audit\w*|block\w*|keep\w*|close to|pass(ing)?|met|meet\w*|stand\w*|doing|status|state|summar\w*|gaps?|cover\w*|criteria|requirements?|complian\w*|families|family|progress|look\w*|where are we|how far)\b/;
const blockingCue =
  /\b(block\w*|keep\w*|stop\w*|prevent\w*|not met|unmet|gaps?|missing|wrong|fail\w*|attention|problems?|need\w*)\b/;
const gapsCue = /\b(no control|not covered|uncovered|without (a |any )?control|nothing mapped|no mapping|unmapped)\b/;
/** Two named days are compared on any of these; a span only on a score or trend word ("changes over the past 3 days" is a diff). */
const compareCue = /\b(score|trend\w*|chang\w*|progress\w*|improv\w*|posture|different|difference|compare\w*|versus|vs)\b/;
const trendCue = /\b(score|trend\w*|moved?|progress\w*|improv\w*|posture|lowest|highest|best|worst|evolv\w*)\b/;
const historyCue =
  /\b(since when|how long|when did|ever|history|at all|all (week|month|quarter|year)|whole (week|month|quarter)|every day|each day|over the (last|past)|(last|past) (\d+|two|three|four) (days|weeks|months)|(last|past) (week|month|quarter)|this (week|month|quarter))\b/;
const exceptionCue = /\b(exceptions?|accepted|accept|risk acceptances?|waiv\w*|waivers?)\b/;

export function parseQuery(text: string, history: readonly ChatTurn[], index: ReportIndex): Query | undefined {
  const reportDate = index.report.date;
  return (
    exceptionsQuery(text) ??
    expiringQuery(text, history, index) ??
    dueQuery(text, index) ??
    ownerQuery(text, index) ??
    historyQuery(text, history, index) ??
    overDaysQuery(text, reportDate) ??
    readinessQuery(text, history, index) ??
    checksQuery(text, index)
  );
}

function checksQuery(text: string, index: ReportIndex): Query | undefined {
  const checks = checksAskedAbout(text, index);
  return checks.length > 0 ? { kind: 'checks', checks } : undefined;
}

function exceptionsQuery(text: string): Query | undefined {
  return exceptionCue.test(text) && !/\bexception handling\b/.test(text) ? { kind: 'exceptions' } : undefined;
}

/** "Is anything overdue?", "What is due before December?", "which failing controls are due by 2026-12-10". */
function dueQuery(text: string, index: ReportIndex): Query | undefined {
  const reportDate = index.report.date;
  const owner = ownerIn(text, index);
  const statuses = statusesWithout(text, /\boverdue\b/g);
  const filters = { ...(statuses ? { statuses } : {}), ...(owner ? { owner } : {}) };
  if (/\boverdue\b/.test(text) && !/\bdue (before|by|until|on)\b/.test(text)) return { kind: 'due', ...filters };
  const due = /\bdue (before|by|until|ahead of|on or before)\b/.exec(text);
  if (!due) return undefined;
  const after = text.slice(due.index);
  const inclusive = due[1] !== 'before' && due[1] !== 'ahead of';
  const date = datesIn(after, reportDate)[0];
  if (date) return { kind: 'due', before: { date: date.date, inclusive, phrase: date.phrase }, ...filters };
  const monthWord = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/.exec(after);
  if (!monthWord) return undefined;
  return {
    kind: 'due',
    before: { date: monthAhead(monthWord[1]!, undefined, reportDate), inclusive: false, phrase: monthWord[0] },
    ...filters,
  };
}

function statusesWithout(text: string, phrase: RegExp): ControlStatus[] | undefined {
  const { statuses } = statusesIn(text.replace(phrase, ' '));
  return statuses.length > 0 ? statuses : undefined;
}

/** "What does the IT lead own that is failing?": an owner the catalog names, in the question. */
/** An owner the report's controls name, in the question (the longest name that fits). */
function ownerIn(text: string, index: ReportIndex): string | undefined {
  const owners = [...new Set(index.controls.map((entry) => entry.result.owner ?? entry.control?.owner ?? ''))].filter(Boolean);
  return owners.sort((a, b) => b.length - a.length).find((name) => text.includes(name.toLowerCase()));
}

function ownerQuery(text: string, index: ReportIndex): Query | undefined {
  const owner = ownerIn(text, index);
  if (!owner) return undefined;
  const statuses = statusesWithout(text, new RegExp(owner.toLowerCase(), 'g'));
  return { kind: 'owner', owner, ...(statuses ? { statuses } : {}) };
}

/** A named control (or the previous answer's) over days: "was IAM-01 passing all month", "since when?". */
function historyQuery(text: string, history: readonly ChatTurn[], index: ReportIndex): Query | undefined {
  if (!historyCue.test(text)) return undefined;
  const named = controlIdsIn(index, text);
  const previous = named.length === 0 && /^(since when|how long|when did|and (since|how long))\b/.test(text);
  const controlIds = named.length > 0 ? named : previous ? previouslyCited(history, index) : [];
  if (controlIds.length === 0 || controlIds.length > 3) return undefined;
  const reportDate = index.report.date;
  const period: Period = periodIn(text, reportDate) ?? {
    from: addDays(reportDate, -89),
    to: reportDate,
    phrase: 'the last 90 days',
  };
  return { kind: 'controlHistory', controlIds, period, label: controlIds.join(', ') };
}

/** Two dates to compare, or a span to follow the score over. */
function overDaysQuery(text: string, reportDate: string): Query | undefined {
  const dates = datesIn(text, reportDate);
  if (dates.length >= 2 && dates[0]!.date !== dates[1]!.date) {
    const [a, b] = [dates[0]!, dates[1]!].sort((x, y) => (x.date < y.date ? -1 : 1));
    if (compareCue.test(text) || /\bbetween\b|\bfrom\b.*\bto\b/.test(text))
      return { kind: 'compare', earlier: a!.date, later: b!.date, phrase: `${a!.phrase} and ${b!.phrase}` };
  }
  const period = periodIn(text, reportDate);
  if (period && trendCue.test(text.replace(period.phrase, ' '))) return { kind: 'trend', period };
  return undefined;
}

function readinessQuery(text: string, history: readonly ChatTurn[], index: ReportIndex): Query | undefined {
  const named = frameworkNamed.find(([, pattern]) => pattern.test(text))?.[0];
  const requirement = requirementIn(text, index, named);
  const framework = named ?? (requirement ? frameworkOfRequirement(requirement) : undefined);
  if (!framework) return undefined;
  const followUp = /^(and|what about|how about|same for)\b/.test(text) && lastWasReadiness(history);
  if (!readinessCue.test(text) && !followUp && !(named && !requirement && text.split(/\s+/).length <= 4)) return undefined;
  // Controls named by id make it a question about those controls.
  if (controlIdsIn(index, text).length > 0) return undefined;
  // "Is CC8.1 passing?" asks after each control behind it, whatever its status.
  const yesNo = /^(is|are|do|does|have|has)\b/.test(text);
  const { statuses } = statusesIn(text);
  const asked = yesNo ? undefined : statuses.length > 0 ? statuses : blockingCue.test(text) ? attentionStatuses : undefined;
  return {
    kind: 'readiness',
    framework,
    ...(requirement ? { requirement } : {}),
    gaps: gapsCue.test(text),
    ...(asked ? { statuses: asked } : {}),
  };
}

/** A requirement or series named in the question ("CC7", "A.8", NIST's "IR" family). */
function requirementIn(text: string, index: ReportIndex, framework: FrameworkId | undefined): string | undefined {
  const match = frameworkMatches(index, text)[0];
  if (match) return match.id;
  if (framework !== 'nist80053') return undefined;
  const family = /\(([a-z]{2})\)|\b([a-z]{2}) family\b/.exec(text);
  const id = family?.[1] ?? family?.[2];
  return id && [...index.byFramework.keys()].some((key) => key.startsWith(`${id}-`)) ? id : undefined;
}

function lastWasReadiness(history: readonly ChatTurn[]): boolean {
  const user = [...history].reverse().find((turn) => turn.role === 'user');
  return user !== undefined && frameworkNamed.some(([, pattern]) => pattern.test(user.content.toLowerCase()));
}
