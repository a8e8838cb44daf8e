/**
 * Writes every answer's Markdown: the shared pieces (control lines, lists, citations), the answers from retrieved context,
 * and the declines. Text from the report is escaped, so evidence cannot inject HTML, links or images; citations carry
 * the report's words unescaped, as data for a client to show as text.
 */
import type { ControlResult, ControlStatus, Finding } from '../../assessment/model.js';
import { frameworkShortNames, isOpenStatus, plural } from '@evident/contract';
import type { components } from '../../generated/api-types.js';
import type { ChangeFocus, DeclineReason } from '../intent-model.js';
import { rankByRisk } from '../offline/topics.js';
import { changeQuestion, listLimit, mainFinding, statementOf, statusLabel } from './retrieve.js';
import type { AnswerIntent, Citation, ContextChange, ContextControl, DeclineScope, RetrievedContext } from './retrieve.js';

type IntentOf<K extends AnswerIntent['kind']> = Extract<AnswerIntent, { kind: K }>;

/** An answer as the API gives it, before it has an id and names its report's date. */
export type ComposedAnswer = Omit<components['schemas']['ChatAnswer'], 'id' | 'date'>;

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Makes any text inert in Markdown: no raw HTML, the characters of links, images, emphasis, code and tables escaped, and a
 * leading `#`, `-`, `+` or `1.`; line breaks become spaces, so one value cannot start a block. (Bare URLs stay text unless a
 * renderer turns on linkify, which a chat's must not.)
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/[&<>]/g, (character) => htmlEntities[character]!)
    .replace(/[`*_[\]()!|~#]/g, '\\$&')
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
}

/** A control as every answer names it: its id in bold and its title. */
export const controlName = (control: { id: string; title: string }) => `**${control.id}** ${escapeMarkdown(control.title)}`;

/** "3 controls are", "1 control is": a count and the verb that agrees with it. */
export const counted = (count: number, noun: string, one: string, many: string) =>
  `${plural(count, noun)} ${count === 1 ? one : many}`;

/** The line that ends a list cut short: "- …and 3 more." */
export const more = (omitted: number, hint?: string): string[] =>
  omitted > 0 ? [`- \u2026and ${omitted} more${hint ? ` (${hint})` : ''}.`] : [];

/** The first `shown` items, then "and N more". */
export const firstOf = (items: readonly string[], shown: number) =>
  items.length > shown ? [...items.slice(0, shown), `and ${items.length - shown} more`] : items;

/** A blank line and `lines`, when there are any. */
export const section = (lines: readonly string[]) => (lines.length > 0 ? ['', ...lines] : []);

/** A finding that fails, cannot be evaluated, or whose evidence is stale or missing. */
export const isOpenFinding = ({ outcome }: { outcome: string }) =>
  outcome === 'fail' || outcome === 'error' || outcome === 'stale' || outcome === 'missing';

/** Sorts by control id. */
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

/** A control's line in a list: "- **IAM-01** Title — failing", then `rest`. */
export const controlLine = (control: Pick<ControlResult, 'id' | 'title' | 'status'>, rest = '') =>
  `- ${controlName(control)} \u2014 ${statusLabel[control.status]}${rest}`;

/** A control's line with its severity, `extra` and what its main finding says (`passes` false: none for a passing control). */
export function summaryLine(control: ControlResult, extra = '', passes = true): string {
  const finding = passes || control.status !== 'passing' ? mainFinding(control) : undefined;
  return controlLine(control, `, ${control.severity}${extra}${finding ? `: ${escapeMarkdown(finding.message)}` : ''}`);
}

/** A line per control, its main finding's message too (`passes` false: none for a passing control), then "…and N more". */
export const controlList = (controls: readonly ControlResult[], omitted = 0, passes = true) => [
  ...controls.map((control) => summaryLine(control, '', passes)),
  ...more(omitted),
];

/** An answer from the report: its lines, and a citation of each control it names. */
export const answered = (lines: string[], results: readonly ControlResult[], suggestions: string[] = []): ComposedAnswer => ({
  answer: lines.join('\n'),
  citations: results.map((result) => statementOf(result)),
  grounded: true,
  suggestions,
});

/** An answer from retrieved context: its lines, what `citing` cites of each control (each once), the questions to ask next. */
function grounded(context: RetrievedContext, lines: string[], citing: Citation[] | Citing = cite.statement): ComposedAnswer {
  const citations = Array.isArray(citing) ? citing : context.controls.flatMap(citing);
  const keyed = citations.map((cited) => [`${cited.controlId}\0${cited.evidenceId ?? ''}\0${cited.quote}`, cited] as const);
  return { ...answered(lines, [], suggestionsAfter(context)), citations: [...new Map(keyed).values()] };
}

/** "failing", "failing or stale", "failing, stale or missing evidence". */
const joined = (words: readonly string[], last: 'and' | 'or') =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;

const quoted = (label: string) => `\u201c${escapeMarkdown(label)}\u201d`;

const outcomeLabel: Record<Finding['outcome'], string> = {
  fail: 'Fails',
  error: 'Cannot be evaluated',
  stale: 'Stale',
  missing: 'Missing',
  not_applicable: 'Scoped out',
  pass: 'Passes',
  info: 'For information',
};

/** A finding's line: its outcome, message and, `withEvidence`, its first five evidence ids. */
function findingLine({ evidence: ids, message, outcome }: Finding, withEvidence: boolean): string {
  const evidence = withEvidence && ids.length > 0 ? ` (evidence: ${firstOf(ids, 5).map(escapeMarkdown).join(', ')})` : '';
  // A message that already starts with its label ("Scoped out: …") is not given it twice.
  const label = outcomeLabel[outcome];
  return `- ${escapeMarkdown(message.toLowerCase().startsWith(label.toLowerCase()) ? message : `${label}: ${message}`)}${evidence}`;
}

const findingLines = (findings: readonly Finding[], withEvidence = false) =>
  section(findings.map((finding) => findingLine(finding, withEvidence)));

/** Splits catalog guidance into its bullet points, each escaped like any other text. */
export function guidanceBullets(guidance: string): string[] {
  const items: string[] = [];
  for (const line of guidance.split('\n')) {
    // `(?=\S|$)`: the marker's spaces are not given back one by one when the line holds a `\r` `.` stops at.
    const bullet = /^\s*[-*]\s+(?=\S|$)(.*)$/.exec(line);
    if (bullet) items.push(bullet[1]!);
    else if (line.trim() && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    else if (line.trim()) items.push(line.trim());
  }
  return items.map(escapeMarkdown);
}

/** Evidence ids cited one by one for a control whose evidence has no findings (an attestation that passes). */
const evidenceWithoutFindings = 8;

/** Citations of the evidence items of a control without findings, each quoting its result. */
const evidenceCitations = ({ shown, evidence, id, statement: { quote } }: ContextControl): Citation[] =>
  evidence.slice(0, shown.length > 0 ? 0 : evidenceWithoutFindings).map((item) => ({ controlId: id, evidenceId: item, quote }));

type Citing = (control: ContextControl) => Citation[];

/** What a control's statement says; with the findings it shows; with the evidence a control without findings rests on. */
const cite = {
  statement: (control: ContextControl) => [control.statement],
  findings: (control: ContextControl) => [control.statement, ...control.findingCitations],
  evidence: (control: ContextControl) => [control.statement, ...control.findingCitations, ...evidenceCitations(control)],
};

function posture(context: RetrievedContext): ComposedAnswer {
  const { report, controls } = context;
  const { summary, diff } = report;
  const { counts } = summary;
  const changed = diff.changes.length;
  const since = `${changed === 0 ? 'No control' : plural(changed, 'control')} changed status since the previous report`;
  const lines = [
    `The report for ${report.date} scores **${summary.score}** out of 100 (the severity-weighted share of applicable controls ` +
      `that pass). Of ${plural(summary.controls, 'control')}, ${counts.passing} are passing, ${counts.failing} failing, ` +
      `${counts.stale} stale, ${counts.missing} missing evidence and ${counts.not_applicable} not applicable.`,
    ...(diff.previousDate ? ['', `${since} (${diff.previousDate}).`] : []),
  ];
  const ask = 'ask \u201cWhat needs attention?\u201d';
  if (controls.length > 0)
    lines.push('', 'Needs attention, riskiest first:', '', ...controlList(controls), ...more(context.omitted, ask));
  return grounded(context, lines);
}

function list(context: RetrievedContext, { statuses, topic, severities, limit }: IntentOf<'list'>): ComposedAnswer {
  const { controls, omitted, listedOn } = context;
  const kind = `${severities ? `${joined(severities, 'and')}-severity ` : ''}control`;
  const labels = statuses.map((status) => statusLabel[status]);
  const wanted = joined(labels, 'or');
  const among = topic ? ` among the controls for ${quoted(topic.label)}` : '';
  // An earlier day's list is told in the past tense, naming that day's report.
  const day = listedOn ?? context.report.date;
  const [is, are, on] = listedOn ? ['was', 'were', ` on ${day}`] : ['is', 'are', ''];
  const answer = (...lines: string[]) => grounded(context, lines);
  const unmatched = `None of the ${kind}s for ${quoted(topic?.label ?? '')} ${is} ${wanted}${on}. They ${are}:`;
  if (context.unmatchedTopic) return answer(unmatched, '', ...controlList(controls, omitted));
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

function status(context: RetrievedContext, { topic }: IntentOf<'status'>): ComposedAnswer {
  const { controls, omitted, report } = context;
  const [control] = controls;
  if (control && controls.length === 1) {
    const lines = [
      `${controlName(control)} is **${statusLabel[control.status]}** (${control.severity} severity).`,
      ...findingLines(control.shown),
      ...more(control.findings.length - control.shown.length),
      ...(topic.source === 'framework' ? ['', `It is the only control mapped to ${escapeMarkdown(topic.label)}.`] : []),
    ];
    return grounded(context, lines, cite.findings);
  }
  const total = controls.length + omitted;
  const inReport = `in the report for ${report.date}:`;
  const lead =
    topic.source === 'framework'
      ? `${counted(total, 'control', 'is', 'are')} mapped to ${escapeMarkdown(topic.label)} ${inReport}`
      : topic.source === 'search'
        ? `${plural(total, 'control')} match ${quoted(topic.label)} ${inReport}`
        : `In the report for ${report.date}:`;
  return grounded(context, [lead, '', ...controlList(controls, omitted)]);
}

/** Blocks of lines with a blank line between each two. */
const paragraphs = (blocks: readonly string[][]) => blocks.flatMap((block, at) => (at > 0 ? ['', ...block] : block));

/** An answer of one block per control, blank lines between, citing what `citing` gives of each. */
const perControl =
  (citing: Citing, block: (control: ContextControl, single: boolean) => string[]) => (context: RetrievedContext) => {
    const { controls } = context;
    const lines = paragraphs(controls.map((control) => block(control, controls.length === 1)));
    return grounded(context, [...lines, ...more(context.omitted)], citing);
  };

const problemsOf = (control: ContextControl) => control.shown.filter((finding) => finding.outcome !== 'pass');

const why = perControl(cite.findings, (control) => {
  const problems = problemsOf(control);
  const shown = problems.length > 0 ? problems : control.shown;
  const passing = shown.length > 0 ? 'because its checks hold:' : 'because its evidence is current and nothing in it fails.';
  const because: Partial<Record<ControlStatus, string>> = { passing, not_applicable: 'because it is scoped out:' };
  return [
    `${controlName(control)} is **${statusLabel[control.status]}** ${because[control.status] ?? 'because:'}`,
    ...findingLines(shown),
  ];
});

const objective = perControl(cite.statement, (control) => {
  // Catalog Markdown, as escaped paragraphs with blank lines between: shown as text, like everything else.
  const text = (control.control?.objectiveMarkdown ?? '')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => [escapeMarkdown(paragraph)]);
  const state = `(${statusLabel[control.status]}, ${control.severity} severity)`;
  if (text.length === 0) return [`The catalog states no objective for ${controlName(control)} ${state}.`];
  return [`The objective of ${controlName(control)} ${state}, as the catalog states it:`, '', ...paragraphs(text)];
});

const frameworkNames = Object.entries(frameworkShortNames) as [keyof typeof frameworkShortNames, string][];

const frameworks = perControl(cite.statement, (control) => {
  const mappings = control.control?.frameworks;
  const mapped = frameworkNames.flatMap(([key, name]) => (mappings?.[key].length ? [{ name, ids: mappings[key] }] : []));
  if (mapped.length === 0) return [`${controlName(control)} is not mapped to any framework requirement in the catalog.`];
  const lines = mapped.map(({ name, ids }) => `- ${name}: ${ids.map(escapeMarkdown).join(', ')}`);
  return [`${controlName(control)} (${statusLabel[control.status]}) maps to:`, '', ...lines];
});

const evidence = perControl(cite.evidence, (control) => {
  const ids = control.evidence;
  const items = ids.length === 0 ? 'no evidence yet.' : `${plural(ids.length, 'evidence item')}:`;
  const lead = `${controlName(control)} (${statusLabel[control.status]}) rests on ${items}`;
  if (control.shown.length > 0 || ids.length === 0) return [lead, ...findingLines(control.shown, true)];
  const listed = ids.slice(0, evidenceWithoutFindings).map((id) => `- ${escapeMarkdown(id)}`);
  return [lead, '', ...listed, ...more(ids.length - listed.length)];
});

const nothingToFix: Partial<Record<ControlStatus, string>> = {
  passing: 'is **passing**; nothing needs fixing.',
  not_applicable: 'is **not applicable**, so nothing needs fixing.',
};

const fix = perControl(cite.findings, (control, single) => {
  const { status } = control;
  const verdict = nothingToFix[status] ?? `is **${statusLabel[status]}**. What to fix:`;
  const lines = [`${controlName(control)} ${verdict}`, ...(status === 'passing' ? [] : findingLines(problemsOf(control)))];
  const bullets = guidanceBullets(control.control?.guidanceMarkdown ?? '');
  if (bullets.length === 0) return lines;
  // For several controls, only the catalog's own "to fix a failure" advice, to keep the answer short.
  const advice = single ? bullets : bullets.filter((bullet) => /^To fix/i.test(bullet)).slice(0, 1);
  const intro = status === 'passing' && single ? 'To keep it that way, the catalog advises:' : 'The catalog advises:';
  return [...lines, '', intro, '', ...(advice.length > 0 ? advice : bullets.slice(0, 1)).map((bullet) => `- ${bullet}`)];
});

const changeVerbs: Record<ChangeFocus, [one: string, many: string]> = {
  all: ['changed status', 'changed status'],
  fixed: ['was fixed', 'were fixed'],
  newlyFailing: ['started failing', 'started failing'],
  newlyStale: ['went stale', 'went stale'],
};

/** The groups a list of changes is told in; each change goes in the first it belongs to. */
const changeGroups: [string, (item: ContextChange) => boolean][] = [
  ['Newly failing', (item) => item.to === 'failing'],
  ['Fixed', (item) => item.from === 'failing' && item.to === 'passing'],
  ['Newly stale', (item) => item.to === 'stale'],
  ['Other changes', () => true],
];

function changes(context: RetrievedContext, { focus, topic }: IntentOf<'changes'>): ComposedAnswer {
  const { since, sinceScore, changes: changed } = context.change!;
  const { date, summary } = context.report;
  const [one, many] = changeVerbs[focus];
  const between = `between ${since} and ${date}`;
  const score =
    sinceScore === summary.score
      ? `The score is ${summary.score}, the same as on ${since}.`
      : `The score went from ${sinceScore} on ${since} to ${summary.score} on ${date}.`;
  if (changed.length === 0) {
    const { controls } = context;
    const lines = [`${topic ? `None of the controls for ${quoted(topic.label)}` : 'No control'} ${one} ${between}. ${score}`];
    if (controls.length > 0) lines.push('', 'They are now:', '', ...controlList(controls));
    return grounded(context, lines);
  }
  const among = topic ? ` among the controls for ${quoted(topic.label)}` : '';
  const lines = [`${plural(changed.length, 'control')}${among} ${changed.length === 1 ? one : many} ${between}. ${score}`];
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
  return grounded(context, lines, citations);
}

/** Follow-up questions that fit the answer just given, all answerable from the same report. */
function suggestionsAfter({ controls, intent: { kind }, listedOn, report }: RetrievedContext): string[] {
  // An earlier day's list: its statuses are that day's, so offer the change since, and today's list.
  if (listedOn) return [`What changed since ${listedOn}?`, 'What needs attention?'];
  const [first] = controls;
  const risky = rankByRisk(controls).find((control) => isOpenStatus(control.status));
  const since = changeQuestion(report.date, report.diff.previousDate);
  const suggestions: (string | false | undefined)[] =
    first && controls.length === 1
      ? [
          kind !== 'why' && first.status !== 'passing' && `Why is ${first.id} ${statusLabel[first.status]}?`,
          kind !== 'fix' && isOpenStatus(first.status) && `How do we fix ${first.id}?`,
          kind !== 'evidence' && `Which evidence supports ${first.id}?`,
        ]
      : [first && kind !== 'why' && 'Why?', first && risky && kind !== 'fix' && `How do we fix ${risky.id}?`];
  suggestions.push(kind !== 'changes' && since, kind !== 'list' && kind !== 'posture' && 'What needs attention?');
  return suggestions.filter((suggestion): suggestion is string => typeof suggestion === 'string').slice(0, 3);
}

type Kind = AnswerIntent['kind'];
type Composer<K extends Kind> = (context: RetrievedContext, intent: IntentOf<K>) => ComposedAnswer;
const composers: { [K in Kind]: Composer<K> } = { posture, list, status, why, evidence, fix, changes, objective, frameworks };

export const compose = (context: RetrievedContext) => (composers[context.intent.kind] as Composer<Kind>)(context, context.intent);

type DeclineCause = DeclineReason | 'no_report' | 'no_history';

const declineLeads: Record<DeclineCause, (date: string, subject: string, scope: DeclineScope) => string> = {
  off_topic: (date) => `The report for ${date} does not cover that.`,
  unknown_subject: (date, subject) => `The report for ${date} does not mention \u201c${subject}\u201d, so it cannot answer that.`,
  no_match: (date, subject) => `The report for ${date} does not cover ${subject ? `\u201c${subject}\u201d` : 'that'}.`,
  no_topic: (date) =>
    `The report for ${date} does not cover that question on its own: name a control (such as IAM-01), a framework ` +
    'requirement (such as CC6.1) or a topic (such as backups).',
  other_day: (date, subject) =>
    `This answer can only use the report for ${date}; it does not say what the report for ${subject} held. Ask what ` +
    `changed since ${subject}, or ask with ${subject} as the report\u2019s date.`,
  invalid_date: (_date, subject) => `\u201c${subject}\u201d is not a calendar date.`,
  // Whether 05/06/2026 is in May or in June depends on where the asker is, so no other format is read.
  date_format: (date, subject) =>
    `\u201c${subject}\u201d is not written as YYYY-MM-DD, and dates in other formats are not read, since the order of ` +
    `day and month differs from place to place. Ask again with the date as YYYY-MM-DD, such as ${date} (the date of this report).`,
  not_earlier: (date, subject) => `The report for ${date} can only look back to an earlier day, and ${subject} is not before it.`,
  no_report: (date, subject, scope) =>
    `There is no report for ${subject}, so what it held is not known and the report for ${date} cannot be compared with it.` +
    (scope.previousDate ? ` The previous report is from ${scope.previousDate}.` : ' It is the first report.'),
  no_history: (_date, span) => `There is no report between ${span}, so the report history cannot answer that.`,
};

/** Declines about a day say so alone; the others add what the report can answer. */
const aboutDates = new Set<DeclineCause>(['no_report', 'no_history', 'invalid_date', 'date_format', 'other_day', 'not_earlier']);

export function decline(scope: DeclineScope, reason: DeclineCause, subject = ''): ComposedAnswer {
  const lead = declineLeads[reason](scope.date, escapeMarkdown(subject), scope);
  const rest = aboutDates.has(reason)
    ? ''
    : ` It can only answer from that report: its ${plural(scope.controls, 'control')}, their findings and evidence, ` +
      'the catalog\u2019s guidance for them, and how their status changed since an earlier report.';
  return { answer: `${lead}${rest}`, citations: [], grounded: false, suggestions: scope.suggestions };
}
