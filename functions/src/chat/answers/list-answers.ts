/**
 * Lists of the controls in some statuses, of a topic or severity, riskiest first: from today's report, or from an
 * earlier day's when the question asks about one.
 */
import { addDays } from '../../assessment/dates.js';
import type { ControlResult, Report } from '../../assessment/model.js';
import { plural } from '@evident/contract';
import type { QuestionOf } from '../question.js';
import { rankByRisk } from '../offline/topics.js';
import type { IndexedControl, ReportIndex } from '../report-index.js';
import { controlList, decline, listLimit, more, quoted, statusLabel, type ComposedAnswer } from './compose.js';
import { entriesOf, grounded, paragraphs, shownOf, withEntry } from './shown-controls.js';
import type { ContextControl, Entries, ReportOn } from './shown-controls.js';

type List = QuestionOf<'list'>;

/** "failing", "failing or stale", "failing, stale or missing evidence". */
const joined = (words: readonly string[], last: 'and' | 'or') =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;

/** The controls a list shows, how many more matched, and whether none of its topic's matched (they are shown instead). */
interface Listed {
  controls: ContextControl[];
  omitted: number;
  unmatchedTopic: boolean;
}

export async function list(question: List, index: ReportIndex, { reportOn }: { reportOn?: ReportOn }): Promise<ComposedAnswer> {
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
  const matching = rankByRisk(topic.filter(asked).map(withEntry));
  // "Are any backup controls failing?" — no: say what they are instead, citing each.
  if (matching.length === 0 && question.topic) return { unmatchedTopic: true, ...shownOf(topic, listLimit, 1, day) };
  // Each status gets its own list of at most `listLimit`, so "needs attention" shows every group.
  const byStatus = statuses.flatMap((status) => matching.filter((entry) => entry.status === status).slice(0, listLimit));
  const shown = (question.limit ? matching.slice(0, question.limit) : byStatus).map(({ entry }) => entry);
  const { controls } = shownOf(shown, shown.length, 1, day);
  return { unmatchedTopic: false, controls, omitted: matching.length - shown.length };
}

/** A list's answer; `listedOn`: the earlier day whose report it lists from. */
function listAnswer(question: List, report: Report, shown: Listed, listedOn?: string): ComposedAnswer {
  const { statuses, topic, severities, limit } = question;
  const { controls, omitted } = shown;
  const kind = `${severities ? `${joined(severities, 'and')}-severity ` : ''}control`;
  const labels = statuses.map((status) => statusLabel[status]);
  const wanted = joined(labels, 'or');
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
  const lead = `${plural(total, kind)}${among} ${total === 1 ? is : are} ${wanted} in the report for ${day}:`;
  return answer(lead, '', ...paragraphs(groups), ...more(omitted));
}
