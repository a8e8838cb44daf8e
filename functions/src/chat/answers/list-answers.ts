/**
 * Lists of controls: those in some statuses, of a topic or severity, riskiest first, from today's report or from an
 * earlier day's; and what changed since an earlier day, the controls whose status differs grouped and riskiest first,
 * with the score then and now. An earlier day's report is the caller's stored one, or the report's own previous day.
 */
import { controlStatuses } from '@evident/contract';
import { addDays } from '../../assessment/dates.js';
import { diffReports, summaryOf } from '../../assessment/report-summary.js';
import type { ControlResult, ControlStatus, Report } from '../../assessment/model.js';
import type { QuestionOf } from '../question.js';
import { rankByRisk, type IndexedControl, type ReportIndex } from '../report-index.js';
import { changeVerbs, controlList, controlName, counted, decline, listLimit, more, quoted, statusLabel } from './compose.js';
import type { Citation, ComposedAnswer, Sources } from './compose.js';
import { entriesOf, grounded, paragraphs, riskiest, shownOf } from './control-answers.js';
import type { ShownControl, Entries } from './control-answers.js';

type List = QuestionOf<'list'>;

/** "failing", "failing or stale", "failing, stale or missing evidence". */
const joined = (words: readonly string[], last: 'and' | 'or') =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;

/** The controls a list shows, how many more matched, and whether none of its topic's matched (they are shown instead). */
interface Listed {
  controls: ShownControl[];
  omitted: number;
  unmatchedTopic: boolean;
}

export async function list(question: List, index: ReportIndex, { reportOn }: Sources): Promise<ComposedAnswer> {
  const { report } = index;
  if (!question.on) return listAnswer(question, report, listed(question, entriesOf(index, question.topic)));
  // Only the day's own report will do: the report's diff knows earlier statuses, not earlier findings.
  const wanted = question.on.date ?? report.diff.previousDate ?? addDays(report.date, -1);
  const earlier = await reportOn?.(wanted);
  if (!earlier) return decline(index, 'no_report', wanted);
  const entries = entriesOf(entriesOn(index, earlier.controls), question.topic);
  return listAnswer(question, report, listed(question, entries, earlier.date), earlier.date);
}

/** An earlier day's results, each with the catalog's control as today's index has it. */
function entriesOn(index: ReportIndex, results: readonly ControlResult[]): Entries {
  const controls = results.map((result) => ({ control: undefined, frameworks: [], ...index.byId.get(result.id), result }));
  return { controls, byId: new Map(controls.map((entry) => [entry.result.id, entry])) };
}

/** The controls of `topic` in the listed statuses, riskiest first; `day` when they are an earlier day's results. */
function listed(question: List, topic: IndexedControl[], day?: string): Listed {
  const { statuses, severities } = question;
  const asked = ({ result }: IndexedControl) =>
    statuses.includes(result.status) && (!severities || severities.includes(result.severity));
  const matching = riskiest(topic.filter(asked));
  // "Are any backup controls failing?" — no: say what they are instead, citing each.
  if (matching.length === 0 && question.topic) return { unmatchedTopic: true, ...shownOf(topic, listLimit, 1, day) };
  // Each status gets its own list of at most `listLimit`, so "needs attention" shows every group.
  const byStatus = statuses.flatMap((status) => matching.filter(({ result }) => result.status === status).slice(0, listLimit));
  const shown = question.limit ? matching.slice(0, question.limit) : byStatus;
  const { controls } = shownOf(shown, shown.length, 1, day);
  return { unmatchedTopic: false, controls, omitted: matching.length - shown.length };
}

/** A list's answer; `listedOn`: the earlier day whose report it lists from. */
function listAnswer(question: List, report: Report, shown: Listed, listedOn?: string): ComposedAnswer {
  const { statuses, topic, severities, limit } = question;
  const { controls, omitted } = shown;
  const kind = `${severities ? `${joined(severities, 'and')}-severity ` : ''}control`;
  const labels = statuses.map((status) => statusLabel[status]);
  // Every status is no filter: "4 low-severity controls are in the report", grouped by status.
  const wanted = statuses.length === controlStatuses.length ? 'listed' : joined(labels, 'or');
  const among = topic ? ` among the controls for ${quoted(topic.label)}` : '';
  // An earlier day's list is told in the past tense, naming that day's report.
  const day = listedOn ?? report.date;
  const [is, are, on] = listedOn ? ['was', 'were', ` on ${day}`] : ['is', 'are', ''];
  const answer = (...lines: string[]) => grounded({ kind: question.kind, report, controls, listedOn }, lines);
  const unmatched = `None of the ${kind}s for ${quoted(topic?.label ?? '')} ${is} ${wanted}${on}. They ${are}:`;
  if (shown.unmatchedTopic) return answer(unmatched, '', ...controlList(controls, omitted));
  if (controls.length === 0) return answer(`No ${kind}${among} ${is} ${wanted} in the report for ${day}.`);
  const riskiest =
    controls.length === 1 ? `riskiest ${kind}${among} that ${is}` : `${controls.length} riskiest ${kind}s${among} that ${are}`;
  if (limit) return answer(`The ${riskiest} ${wanted}${on}:`, '', ...controlList(controls));
  const total = controls.length + omitted;
  const groups = statuses.flatMap((status) => {
    const group = controlList(controls.filter((control) => control.status === status));
    const heading = `**${statusLabel[status][0]!.toUpperCase()}${statusLabel[status].slice(1)}**`;
    return group.length === 0 ? [] : [[...(statuses.length > 1 ? [heading, ''] : []), ...group]];
  });
  const lead = `${counted(total, kind, is, are, among)} ${wanted} in the report for ${day}:`;
  return answer(lead, '', ...paragraphs(groups), ...more(omitted));
}

type Changes = QuestionOf<'changes'>;

type ContextChange = Pick<ControlResult, 'id' | 'title' | 'severity'> & {
  from: ControlStatus;
  to: ControlStatus;
  citation: Citation;
};

export async function changes(question: Changes, index: ReportIndex, sources: Sources): Promise<ComposedAnswer> {
  const earlier = await comparedWith(question, index.report, sources);
  return 'missing' in earlier ? decline(index, 'no_report', earlier.missing) : changesAnswer(question, index, earlier);
}

/**
 * The report a change question compares with. Changes over a span ("in the last two weeks") are counted from the report
 * of the day before it; when the history starts inside the span there is none, and the span's first report is the
 * earliest the changes can be counted from: the answer says between which two days it counted. That is looked for only
 * once the day before is found missing, and from the names of the span's reports (one listing), not the reports.
 */
async function comparedWith({ since: { date } }: Changes, report: Report, { reportOn, days }: Sources) {
  const earlier = await earlierReport(report, date, reportOn);
  const before = addDays(report.date, -1);
  if (!('missing' in earlier) || !date || date > before || !days?.dates) return earlier;
  const first = (await days.dates(date, before)).find((day) => day > date);
  const later = first ? await earlierReport(report, first, reportOn) : earlier;
  return 'missing' in later ? earlier : later;
}

/** The day a change question compares with: the caller's stored report of that day, or the report's own previous day. */
async function earlierReport(report: Report, date: string | null, reportOn: Sources['reportOn']) {
  const previousDate = report.diff.previousDate;
  const wanted = date ?? previousDate;
  if (!wanted) return { missing: addDays(report.date, -1) };
  const stored = wanted === report.date ? undefined : await reportOn?.(wanted);
  if (stored) return stored;
  if (wanted !== previousDate) return { missing: wanted };
  // The diff lists changed controls only; the rest had the status they have now.
  const from = new Map(report.diff.changes.map((change) => [change.id, change.from]));
  const controls = report.controls.map((control) => ({ ...control, status: from.get(control.id) ?? control.status }));
  return { date: previousDate, controls, summary: summaryOf(controls) };
}

/** An earlier report as a change question reads it: a stored one, or the one the report's diff implies. */
type Earlier = Exclude<Awaited<ReturnType<typeof earlierReport>>, { missing: string }>;

/** The changes since the earlier report, those of the question's topic and focus, each citing both days' statuses. */
function changesSince({ topic, focus }: Changes, index: ReportIndex, earlier: Earlier): ContextChange[] {
  const { report } = index;
  const diff = diffReports(report.controls, earlier);
  return diff.changes.flatMap(({ id, from, to }) => {
    if ((topic && !topic.controlIds.includes(id)) || (focus !== 'all' && !diff[focus].includes(id))) return [];
    const { title, severity } = index.byId.get(id)!.result;
    const quote = `${id} was ${statusLabel[from]} on ${earlier.date} and is ${statusLabel[to]} on ${report.date}.`;
    return [{ id, title, severity, from, to, citation: { controlId: id, quote } }];
  });
}

/** The groups a list of changes is told in; each change goes in the first it belongs to. */
const changeGroups: [string, (item: ContextChange) => boolean][] = [
  ['Newly failing', (item) => item.to === 'failing'],
  ['Fixed', (item) => item.from === 'failing' && item.to === 'passing'],
  ['Newly stale', (item) => item.to === 'stale'],
  ['Other changes', () => true],
];

function changesAnswer(question: Changes, index: ReportIndex, earlier: Earlier): ComposedAnswer {
  const { focus, topic } = question;
  const { report } = index;
  const changed = changesSince(question, index, earlier);
  const [since, sinceScore, { date, summary }] = [earlier.date, earlier.summary.score, report];
  const [one, many] = changeVerbs[focus];
  const between = `between ${since} and ${date}`;
  const score =
    sinceScore === summary.score
      ? `The score is ${summary.score}, the same as on ${since}.`
      : `The score went from ${sinceScore} on ${since} to ${summary.score} on ${date}.`;
  if (changed.length === 0) {
    // None changed among the topic's controls: they are listed as they are now, to say so.
    const { controls } = shownOf(topic ? entriesOf(index, topic) : [], listLimit, 1);
    const lines = [`${topic ? `None of the controls for ${quoted(topic.label)}` : 'No control'} ${one} ${between}. ${score}`];
    if (controls.length > 0) lines.push('', 'They are now:', '', ...controlList(controls));
    return grounded({ kind: question.kind, report, controls }, lines);
  }
  const among = topic ? ` among the controls for ${quoted(topic.label)}` : '';
  const lines = [`${counted(changed.length, 'control', one, many, among)} ${between}. ${score}`];
  const citations: Citation[] = [];
  let rest = changed;
  for (const [heading, belongs] of changeGroups) {
    const group = rankByRisk(rest.filter(belongs).map((item) => ({ ...item, status: item.to })));
    rest = rest.filter((item) => !belongs(item));
    const shown = group.slice(0, listLimit);
    const told = shown.map((item) => `- ${controlName(item)}: ${statusLabel[item.from]} \u2192 ${statusLabel[item.to]}`);
    if (group.length > 0) lines.push('', `**${heading}**`, '', ...told, ...more(group.length - shown.length));
    citations.push(...shown.map((item) => item.citation));
  }
  return grounded({ kind: question.kind, report, controls: [] }, lines, citations);
}
