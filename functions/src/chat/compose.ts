/**
 * Turns retrieved context into the answer: a short lead sentence, then bullet lists, every
 * statement about a control citing it. Also the declines, which say plainly what the report does
 * not cover and suggest questions it does.
 *
 * Text from the report (finding messages, subjects, titles, evidence ids) is escaped before it
 * goes into the Markdown, so evidence cannot inject HTML, links or images into the answer.
 * Citations carry the report's words unescaped: they are data, for a client to show as text.
 */
import type { ControlStatus, Finding } from '../assessment/model.js';
import { frameworkShortNames, plural } from '@evident/contract';
import type { ChangeFocus, DeclineReason } from './intent-model.js';
import { rankByRisk } from './topics.js';
import {
  changeQuestion,
  evidenceCitations,
  evidenceWithoutFindings,
  listLimit,
  statusLabel,
  type Citation,
  type ContextChange,
  type ContextControl,
  type DeclineScope,
  type RetrievedContext,
} from './retrieve.js';

export interface ComposedAnswer {
  answer: string;
  citations: Citation[];
  grounded: boolean;
  suggestions: string[];
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Makes any text inert in Markdown: `<`, `>` and `&` become entities (no raw HTML), the
 * characters of links, images, emphasis, code and tables are backslash-escaped, and so is a
 * leading `#`, `-`, `+` or `1.` that would start a heading or a list. Line breaks become spaces,
 * so one value cannot start a block of its own. (Bare URLs stay text unless a renderer turns on
 * linkify, which a chat renderer must not.)
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

/** "failing", "failing or stale", "failing, stale or missing evidence". */
const either = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
const both = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;

type IntentOf<K extends RetrievedContext['intent']['kind']> = Extract<RetrievedContext['intent'], { kind: K }>;

const controlName = (control: Pick<ContextControl, 'id' | 'title'>) => `**${control.id}** ${escapeMarkdown(control.title)}`;
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

/** Evidence ids shown per finding before "and N more". */
const evidencePerFinding = 5;

function findingLine(finding: Finding, withEvidence = false): string {
  const ids = finding.evidence;
  const evidence =
    withEvidence && ids.length > 0
      ? ` (evidence: ${ids.slice(0, evidencePerFinding).map(escapeMarkdown).join(', ')}` +
        `${ids.length > evidencePerFinding ? `, and ${ids.length - evidencePerFinding} more` : ''})`
      : '';
  // A message that already starts with its label ("Scoped out: …") is not given it twice.
  const label = outcomeLabel[finding.outcome];
  const text = finding.message.toLowerCase().startsWith(label.toLowerCase()) ? finding.message : `${label}: ${finding.message}`;
  return `- ${escapeMarkdown(text)}${evidence}`;
}

/** One line per control in lists: its name, status, severity and main finding. */
function summaryLine(control: ContextControl): string {
  const detail = control.headline ? `: ${escapeMarkdown(control.headline)}` : '';
  return `- ${controlName(control)} \u2014 ${statusLabel[control.status]}, ${control.severity}${detail}`;
}

function more(omitted: number, hint?: string): string[] {
  if (omitted <= 0) return [];
  return [`- \u2026and ${omitted} more${hint ? ` (${hint})` : ''}.`];
}

const statusHeading: Record<ControlStatus, string> = {
  failing: 'Failing',
  stale: 'Stale',
  missing: 'Missing evidence',
  not_applicable: 'Not applicable',
  passing: 'Passing',
};

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

function citationsOf(controls: readonly ContextControl[], withFindings: boolean): Citation[] {
  return controls.flatMap((control) => (withFindings ? [control.statement, ...control.findingCitations] : [control.statement]));
}

function composePosture(context: RetrievedContext): ComposedAnswer {
  const { summary, controls } = context;
  const counts = summary.counts;
  const lines = [
    `The report for ${context.date} scores **${summary.score}** out of 100 (the severity-weighted share of applicable controls ` +
      `that pass). Of ${plural(summary.controls, 'control')}, ${counts.passing} are passing, ${counts.failing} failing, ` +
      `${counts.stale} stale, ${counts.missing} missing evidence and ${counts.not_applicable} not applicable.`,
  ];
  if (context.previousDate) {
    const changed = context.changedSincePrevious;
    lines.push(
      '',
      changed === 0
        ? `No control changed status since the previous report (${context.previousDate}).`
        : `${plural(changed, 'control')} changed status since the previous report (${context.previousDate}).`,
    );
  }
  if (controls.length > 0) {
    lines.push('', 'Needs attention, riskiest first:', '', ...controls.map(summaryLine));
    lines.push(...more(context.omitted, 'ask \u201cWhat needs attention?\u201d'));
  }
  return grounded(lines, citationsOf(controls, false), suggestionsAfter(context));
}

function composeList(context: RetrievedContext, intent: IntentOf<'list'>): ComposedAnswer {
  const { controls } = context;
  const { statuses, topic, severities, limit } = intent;
  const kind = `${severities ? `${both(severities)}-severity ` : ''}control`;
  const wanted = either(statuses.map((status) => statusLabel[status]));
  const among = topic ? ` among the controls for ${quoted(topic.label)}` : '';
  const citations = citationsOf(controls, false);
  // An earlier day's list is told in the past tense, naming that day's report.
  const day = context.listedOn ?? context.date;
  const [is, are] = context.listedOn ? ['was', 'were'] : ['is', 'are'];
  if (context.unmatchedTopic) {
    const lead = `None of the ${kind}s for ${quoted(topic?.label ?? '')} ${is} ${wanted}${context.listedOn ? ` on ${day}` : ''}. They ${are}:`;
    return grounded([lead, '', ...controls.map(summaryLine), ...more(context.omitted)], citations, suggestionsAfter(context));
  }
  if (controls.length === 0) {
    return grounded([`No ${kind}${among} ${is} ${wanted} in the report for ${day}.`], [], suggestionsAfter(context));
  }
  const total = controls.length + context.omitted;
  if (limit) {
    const lead =
      controls.length === 1
        ? `The riskiest ${kind}${among} that ${is} ${wanted}${context.listedOn ? ` on ${day}` : ''}:`
        : `The ${controls.length} riskiest ${kind}s${among} that ${are} ${wanted}${context.listedOn ? ` on ${day}` : ''}:`;
    return grounded([lead, '', ...controls.map(summaryLine)], citations, suggestionsAfter(context));
  }
  const lines = [`${plural(total, kind)}${among} ${total === 1 ? is : are} ${wanted} in the report for ${day}:`, ''];
  for (const status of statuses) {
    const group = controls.filter((control) => control.status === status);
    if (group.length === 0) continue;
    if (statuses.length > 1) lines.push(`**${statusHeading[status]}**`, '');
    lines.push(...group.map(summaryLine), '');
  }
  lines.pop();
  lines.push(...more(context.omitted));
  return grounded(lines, citations, suggestionsAfter(context));
}

function composeStatus(context: RetrievedContext, intent: IntentOf<'status'>): ComposedAnswer {
  const { controls } = context;
  const { topic } = intent;
  const control = controls[0];
  if (control && controls.length === 1) {
    const lines = [`${controlName(control)} is **${statusLabel[control.status]}** (${control.severity} severity).`];
    if (control.findings.length > 0) lines.push('', ...control.findings.map((finding) => findingLine(finding)));
    lines.push(...more(control.findingCount - control.findings.length));
    if (topic.source === 'framework') lines.push('', `It is the only control mapped to ${escapeMarkdown(topic.label)}.`);
    return grounded(lines, citationsOf(controls, true), suggestionsAfter(context));
  }
  const total = controls.length + context.omitted;
  const lead =
    topic.source === 'framework'
      ? `${plural(total, 'control')} ${total === 1 ? 'is' : 'are'} mapped to ${escapeMarkdown(topic.label)} in the report for ${context.date}:`
      : topic.source === 'search'
        ? `${plural(total, 'control')} match ${quoted(topic.label)} in the report for ${context.date}:`
        : `In the report for ${context.date}:`;
  return grounded(
    [lead, '', ...controls.map(summaryLine), ...more(context.omitted)],
    citationsOf(controls, false),
    suggestionsAfter(context),
  );
}

function composeWhy(context: RetrievedContext): ComposedAnswer {
  const lines: string[] = [];
  for (const control of context.controls) {
    const problems = control.findings.filter((finding) => finding.outcome !== 'pass');
    const shown = problems.length > 0 ? problems : control.findings;
    const because =
      control.status === 'passing'
        ? shown.length > 0
          ? 'because its checks hold:'
          : 'because its evidence is current and nothing in it fails.'
        : control.status === 'not_applicable'
          ? 'because it is scoped out:'
          : 'because:';
    if (lines.length > 0) lines.push('');
    lines.push(`${controlName(control)} is **${statusLabel[control.status]}** ${because}`);
    if (shown.length > 0) lines.push('', ...shown.map((finding) => findingLine(finding)));
  }
  lines.push(...more(context.omitted));
  return grounded(lines, citationsOf(context.controls, true), suggestionsAfter(context));
}

/** Catalog Markdown (an objective) as escaped paragraphs with blank lines between: shown as text, like everything else. */
const paragraphs = (markdown: string) =>
  markdown
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .flatMap((paragraph, at) => (at === 0 ? [escapeMarkdown(paragraph)] : ['', escapeMarkdown(paragraph)]));

function composeObjective(context: RetrievedContext): ComposedAnswer {
  const lines: string[] = [];
  for (const control of context.controls) {
    if (lines.length > 0) lines.push('');
    const text = paragraphs(control.objective);
    const state = `(${statusLabel[control.status]}, ${control.severity} severity)`;
    if (text.length === 0) lines.push(`The catalog states no objective for ${controlName(control)} ${state}.`);
    else lines.push(`The objective of ${controlName(control)} ${state}, as the catalog states it:`, '', ...text);
  }
  lines.push(...more(context.omitted));
  return grounded(lines, citationsOf(context.controls, false), suggestionsAfter(context));
}

const frameworkNames = Object.entries(frameworkShortNames) as [keyof ContextControl['mappings'], string][];

function composeFrameworks(context: RetrievedContext): ComposedAnswer {
  const lines: string[] = [];
  for (const control of context.controls) {
    if (lines.length > 0) lines.push('');
    const mapped = frameworkNames.filter(([key]) => control.mappings[key].length > 0);
    if (mapped.length === 0) {
      lines.push(`${controlName(control)} is not mapped to any framework requirement in the catalog.`);
      continue;
    }
    lines.push(
      `${controlName(control)} (${statusLabel[control.status]}) maps to:`,
      '',
      ...mapped.map(([key, name]) => `- ${name}: ${control.mappings[key].map(escapeMarkdown).join(', ')}`),
    );
  }
  lines.push(...more(context.omitted));
  return grounded(lines, citationsOf(context.controls, false), suggestionsAfter(context));
}

function composeEvidence(context: RetrievedContext): ComposedAnswer {
  const lines: string[] = [];
  const citations: Citation[] = [];
  for (const control of context.controls) {
    if (lines.length > 0) lines.push('');
    const items = control.evidence.length === 0 ? 'no evidence yet.' : `${plural(control.evidence.length, 'evidence item')}:`;
    lines.push(`${controlName(control)} (${statusLabel[control.status]}) rests on ${items}`);
    citations.push(control.statement, ...control.findingCitations);
    if (control.findings.length > 0) {
      lines.push('', ...control.findings.map((finding) => findingLine(finding, true)));
    } else if (control.evidence.length > 0) {
      const listed = control.evidence.slice(0, evidenceWithoutFindings);
      lines.push('', ...listed.map((id) => `- ${escapeMarkdown(id)}`), ...more(control.evidence.length - listed.length));
      citations.push(...evidenceCitations(control));
    }
  }
  lines.push(...more(context.omitted));
  return grounded(lines, citations, suggestionsAfter(context));
}

function composeFix(context: RetrievedContext): ComposedAnswer {
  const lines: string[] = [];
  const single = context.controls.length === 1;
  for (const control of context.controls) {
    if (lines.length > 0) lines.push('');
    const problems = control.findings.filter((finding) => finding.outcome !== 'pass');
    if (control.status === 'passing') lines.push(`${controlName(control)} is **passing**; nothing needs fixing.`);
    else if (control.status === 'not_applicable')
      lines.push(`${controlName(control)} is **not applicable**, so nothing needs fixing.`);
    else lines.push(`${controlName(control)} is **${statusLabel[control.status]}**. What to fix:`);
    if (problems.length > 0 && control.status !== 'passing') lines.push('', ...problems.map((finding) => findingLine(finding)));
    const bullets = guidanceBullets(control.guidance);
    if (bullets.length === 0) continue;
    // For several controls, only the catalog's own "to fix a failure" advice, to keep the answer short.
    const advice = single ? bullets : bullets.filter((bullet) => /^To fix/i.test(bullet)).slice(0, 1);
    const shown = advice.length > 0 ? advice : bullets.slice(0, 1);
    const intro = control.status === 'passing' && single ? 'To keep it that way, the catalog advises:' : 'The catalog advises:';
    lines.push('', intro, '', ...shown.map((bullet) => `- ${bullet}`));
  }
  lines.push(...more(context.omitted));
  return grounded(lines, citationsOf(context.controls, true), suggestionsAfter(context));
}

function changeLine(change: ContextChange): string {
  return `- **${change.id}** ${escapeMarkdown(change.title)}: ${statusLabel[change.from]} \u2192 ${statusLabel[change.to]}`;
}

const changeVerbs: Record<ChangeFocus, [one: string, many: string]> = {
  all: ['changed status', 'changed status'],
  fixed: ['was fixed', 'were fixed'],
  newlyFailing: ['started failing', 'started failing'],
  newlyStale: ['went stale', 'went stale'],
};

function composeChanges(context: RetrievedContext, intent: IntentOf<'changes'>): ComposedAnswer {
  const change = context.change!;
  const [one, many] = changeVerbs[intent.focus];
  const between = `between ${change.since} and ${context.date}`;
  const score =
    change.sinceScore === context.summary.score
      ? `The score is ${context.summary.score}, the same as on ${change.since}.`
      : `The score went from ${change.sinceScore} on ${change.since} to ${context.summary.score} on ${context.date}.`;
  if (change.changes.length === 0) {
    const none = intent.topic ? `None of the controls for ${quoted(intent.topic.label)}` : 'No control';
    const lines = [`${none} ${one} ${between}. ${score}`];
    if (context.controls.length > 0) lines.push('', 'They are now:', '', ...context.controls.map(summaryLine));
    return grounded(lines, citationsOf(context.controls, false), suggestionsAfter(context));
  }
  const count = change.changes.length;
  const among = intent.topic ? ` among the controls for ${quoted(intent.topic.label)}` : '';
  const lines = [`${plural(count, 'control')}${among} ${count === 1 ? one : many} ${between}. ${score}`];
  const groups: [string, (item: ContextChange) => boolean][] = [
    ['Newly failing', (item) => item.to === 'failing'],
    ['Fixed', (item) => item.from === 'failing' && item.to === 'passing'],
    ['Newly stale', (item) => item.to === 'stale'],
    ['Other changes', () => true],
  ];
  const placed = new Set<string>();
  const citations: Citation[] = [];
  for (const [heading, belongs] of groups) {
    const group = rankByRisk(
      change.changes.filter((item) => !placed.has(item.id) && belongs(item)).map((item) => ({ ...item, status: item.to })),
    );
    if (group.length === 0) continue;
    for (const item of group) placed.add(item.id);
    const shown = group.slice(0, listLimit);
    lines.push('', `**${heading}**`, '', ...shown.map(changeLine), ...more(group.length - shown.length));
    citations.push(...shown.map((item) => item.citation));
  }
  return grounded(lines, citations, suggestionsAfter(context));
}

function grounded(lines: string[], citations: Citation[], suggestions: string[]): ComposedAnswer {
  return { answer: lines.join('\n'), citations: dedupe(citations), grounded: true, suggestions };
}

function dedupe(citations: Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((citation) => {
    const key = `${citation.controlId}\u0000${citation.evidenceId ?? ''}\u0000${citation.quote}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Follow-up questions that fit the answer just given, all answerable from the same report. */
export function suggestionsAfter(context: RetrievedContext): string[] {
  const first = context.controls[0];
  const kind = context.intent.kind;
  // An earlier day's list: its statuses are that day's, so offer the change since, and today's list.
  if (context.listedOn) return [`What changed since ${context.listedOn}?`, 'What needs attention?'];
  const suggestions: string[] = [];
  if (first && context.controls.length === 1) {
    if (kind !== 'why' && first.status !== 'passing') suggestions.push(`Why is ${first.id} ${statusLabel[first.status]}?`);
    if (kind !== 'fix' && first.status !== 'passing' && first.status !== 'not_applicable')
      suggestions.push(`How do we fix ${first.id}?`);
    if (kind !== 'evidence') suggestions.push(`Which evidence supports ${first.id}?`);
  } else if (first) {
    if (kind !== 'why') suggestions.push('Why?');
    const risky = rankByRisk(context.controls).find(
      (control) => control.status !== 'passing' && control.status !== 'not_applicable',
    );
    if (risky && kind !== 'fix') suggestions.push(`How do we fix ${risky.id}?`);
  }
  const since = changeQuestion(context.date, context.previousDate);
  if (kind !== 'changes' && since) suggestions.push(since);
  if (kind !== 'list' && kind !== 'posture') suggestions.push('What needs attention?');
  return suggestions.slice(0, 3);
}

export function compose(context: RetrievedContext): ComposedAnswer {
  const { intent } = context;
  switch (intent.kind) {
    case 'posture':
      return composePosture(context);
    case 'list':
      return composeList(context, intent);
    case 'status':
      return composeStatus(context, intent);
    case 'why':
      return composeWhy(context);
    case 'evidence':
      return composeEvidence(context);
    case 'fix':
      return composeFix(context);
    case 'changes':
      return composeChanges(context, intent);
    case 'objective':
      return composeObjective(context);
    case 'frameworks':
      return composeFrameworks(context);
  }
}

export type DeclineCause = DeclineReason | 'no_report' | 'no_citation';

const declineLeads: Record<DeclineCause, (date: string, subject: string, scope: DeclineScope) => string> = {
  off_topic: (date) => `The report for ${date} does not cover that.`,
  unknown_subject: (date, subject) => `The report for ${date} does not mention \u201c${subject}\u201d, so it cannot answer that.`,
  no_match: (date, subject) =>
    subject ? `The report for ${date} does not cover \u201c${subject}\u201d.` : `The report for ${date} does not cover that.`,
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
  no_citation: (date) => `The report for ${date} does not cover that.`,
};

const aboutDates = new Set<DeclineCause>(['no_report', 'invalid_date', 'date_format', 'other_day', 'not_earlier']);

export function decline(scope: DeclineScope, reason: DeclineCause, subject = ''): ComposedAnswer {
  const lead = declineLeads[reason](scope.date, escapeMarkdown(subject), scope);
  const rest = aboutDates.has(reason)
    ? ''
    : ` It can only answer from that report: its ${plural(scope.controls, 'control')}, their findings and evidence, ` +
      'the catalog\u2019s guidance for them, and how their status changed since an earlier report.';
  return { answer: `${lead}${rest}`, citations: [], grounded: false, suggestions: scope.suggestions };
}
