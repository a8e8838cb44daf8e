/**
 * The one model of what a question asks, whoever reads it: the offline reader, a language model
 * through function calls, or another assistant through MCP. Each kind is a schema (zod) with a
 * description, so the TypeScript type, the JSON Schema a model or an MCP client fills, and the
 * check of what they filled in come from the same definition. Everything that answers takes a
 * `Question`; nothing after the reader sees the message text.
 *
 * Slots hold what the report and catalog name: control ids, requirement ids as the catalog spells
 * them, owners, subjects, ISO dates. A `phrase` or `label` is how the question said it, echoed in
 * the answer's lead ("since yesterday", "backups"); it never decides anything.
 */
import { controlStatuses, frameworkIds, severities } from '@evident/contract';
import { z } from 'zod';
import type { components } from '../generated/api-types.js';

const date = z.iso.date().describe('An ISO date, YYYY-MM-DD.');
const statuses = z.array(z.enum(controlStatuses)).describe('Control statuses.');
const controlIds = z.array(z.string()).describe('Control ids, as the report writes them (IAM-01).');
const framework = z.enum(frameworkIds).describe('soc2, iso27001 or nist80053.');

/** The controls a question is about, and how it named them (its words, for the answer's lead). */
const topicSchema = z.object({
  controlIds: controlIds.min(1),
  label: z.string().describe('How the question named them: "IAM-01", "CC6.1", "backups", "those".'),
  source: z
    .enum(['id', 'framework', 'search', 'previous', 'status'])
    .describe('Named by id, by a framework requirement, found by a search, cited by the previous answer, or by status.'),
});

/** An earlier day: a date, or null for "the previous report", with how the question said it. */
const sinceSchema = z.object({
  date: date.nullable().describe('The earlier day, or null for the report before this one.'),
  phrase: z.string().describe('How the question said it: "yesterday", "2026-11-15".'),
});

/** A span of days, both ends included. */
const changeFocus = z.enum(['all', 'fixed', 'newlyFailing', 'newlyStale']);
const periodSchema = z.object({ from: date, to: date, phrase: z.string().describe('How the question said it.') });

/** A catalog check the question's words meet, and how strongly (2 for an id or field word, 1 for a kind or message word). */
const checkMatchSchema = z.object({ controlId: z.string(), checkId: z.string(), score: z.number().optional() });

const kind = <K extends string, S extends z.ZodRawShape>(name: K, description: string, shape: S) =>
  z.object({ kind: z.literal(name), ...shape }).describe(description);

/** The kinds a question can be, each with what it asks and the slots it fills. */
const questionKinds = [
  kind('posture', 'The overall state of the report: score, counts by status, what needs attention.', {}),
  kind('list', 'The controls in some statuses, optionally of a topic or severity, today or on an earlier day.', {
    statuses,
    topic: topicSchema.optional(),
    severities: z.array(z.enum(severities)).optional(),
    limit: z.int().positive().optional().describe('At most this many ("the worst three").'),
    on: sinceSchema.optional().describe('The earlier day whose report to list from; today when absent.'),
  }),
  kind('status', 'Where some controls stand today.', { topic: topicSchema }),
  kind('objective', 'What some controls are for.', { topic: topicSchema }),
  kind('frameworks', 'The framework requirements some controls map to.', { topic: topicSchema }),
  kind('evidence', 'The evidence behind some controls.', { topic: topicSchema }),
  kind('fix', 'How to fix some controls: their guidance and what fails.', { topic: topicSchema }),
  kind('why', 'Why some controls are in their state.', { topic: topicSchema }),
  kind('changes', 'What changed since an earlier day, all changes or one kind of them, optionally of a topic.', {
    since: sinceSchema,
    focus: changeFocus,
    topic: topicSchema.optional(),
  }),
  kind('readiness', "A framework's readiness, or of some of its requirements; with gaps, the requirements no control covers.", {
    framework,
    requirements: z.array(z.string()).optional().describe('Requirement ids or series as the catalog spells them (CC7, A.8).'),
    gaps: z.boolean(),
    statuses: statuses.optional(),
    unproven: z.boolean().optional().describe('Only the requirements unproven: evidence stale or missing, none failing.'),
  }),
  kind('trend', 'How the score moved over a span of days, overall or for a framework.', {
    period: periodSchema,
    framework: framework.optional(),
  }),
  kind('throughout', 'The controls in some statuses on every day of a span that has a report (every), or on at least one.', {
    period: periodSchema,
    statuses,
    every: z.boolean(),
    controlIds: controlIds.optional().describe('Only these controls ("which of those", "which CC8.1 controls").'),
    now: statuses.optional().describe('Only the controls in these statuses today ("but are passing now").'),
  }),
  kind('day', 'One day against the report before it: its score, what broke or changed on it.', {
    date,
    phrase: z.string(),
    focus: changeFocus.optional().describe('Only one kind of change that day ("what got fixed on the 16th").'),
  }),
  kind('biggestMove', 'The day the score moved most, down or up.', { direction: z.enum(['down', 'up']) }),
  kind('ownersRanked', 'Owners by how many of their controls need attention.', {}),
  kind('frameworksRanked', 'The frameworks by readiness.', {}),
  kind('muted', "Findings shown for information only, such as a scanner's muted ones.", {}),
  kind('openLongest', 'What has needed attention the longest.', {}),
  kind('evidenceKinds', 'The controls by the kinds of evidence the catalog asks of them ("rely only on attestations").', {
    kinds: z.array(z.string()),
    only: z.boolean(),
  }),
  kind('findings', 'The subjects behind some controls: who or what fails them.', { controlIds }),
  kind('ownership', 'Who owns some controls and when each is due.', { controlIds }),
  kind('compare', "Two days' reports compared: the score, the statuses and what changed between them.", {
    earlier: date,
    later: date,
    phrase: z.string(),
  }),
  kind('controlHistory', 'Some controls over a span of days.', { controlIds, period: periodSchema, label: z.string() }),
  kind('owner', 'What an owner answers for, optionally in some statuses or among some controls.', {
    owner: z.string(),
    statuses: statuses.optional(),
    among: controlIds.optional(),
  }),
  kind('due', 'What falls due, optionally within a window, in some statuses or of an owner.', {
    from: date.optional().describe('The first due day asked about.'),
    before: z.object({ date, inclusive: z.boolean(), phrase: z.string() }).optional(),
    statuses: statuses.optional(),
    owner: z.string().optional(),
    limit: z.int().positive().optional().describe('Only the first this many to fall due ("which control is due first?").'),
    among: controlIds.optional().describe('Only these controls ("which of those are due in December?").'),
  }),
  kind('exceptions', 'What has been accepted as a risk; with scopedOut, the controls that do not apply too.', {
    scopedOut: z.boolean().optional(),
  }),
  kind('expiring', 'Evidence that goes stale ahead: by a day, of some kinds, subjects or controls.', {
    from: date.optional(),
    until: date.optional(),
    phrase: z.string().optional(),
    kinds: z.array(z.string()).optional(),
    subjects: z.array(z.string()).optional(),
    controlIds: controlIds.optional(),
    statuses: statuses.optional().describe('Only the items of controls in these statuses.'),
  }),
  kind('checks', 'The subjects that fail some catalog checks ("which people do not have MFA").', {
    checks: z.array(checkMatchSchema),
  }),
  kind('subject', 'One subject of the evidence: what it fails or passes.', {
    name: z.string().describe('How the report names it.'),
    keys: z.array(z.string()).describe('The strings that find it in findings.'),
    checks: z.array(checkMatchSchema).optional(),
  }),
  kind('subjectHistory', 'One subject over past days: the days it had an open finding, per control, and today.', {
    names: z.array(z.string()).min(1),
    period: periodSchema,
    controlIds: controlIds.optional().describe('Only the findings of these controls ("did ravi ever set up MFA").'),
  }),
  kind('decline', 'A question the report cannot answer.', {
    reason: z.enum([
      'off_topic',
      'action',
      'prediction',
      'unknown_subject',
      'no_match',
      'no_topic',
      'other_day',
      'invalid_date',
      'date_format',
      'not_earlier',
    ]),
    subject: z.string().optional().describe('What it asked about that the report does not hold.'),
  }),
] as const;

export const questionSchema = z.discriminatedUnion('kind', questionKinds);

export type Question = z.infer<typeof questionSchema>;
export type QuestionOf<K extends Question['kind']> = Extract<Question, { kind: K }>;
export type Topic = z.infer<typeof topicSchema>;
export type Since = z.infer<typeof sinceSchema>;
export type Period = z.infer<typeof periodSchema>;
export type CheckMatch = z.infer<typeof checkMatchSchema>;
export type DeclineReason = QuestionOf<'decline'>['reason'];
export type ChangeFocus = z.infer<typeof changeFocus>;
/** One turn of the conversation, as the API carries it. */
export type ChatTurn = components['schemas']['ChatTurn'];

/** The kinds the offline classifier (offline/intents.ts) reads: one control topic's state, lists, changes, declines. */
export type Intent = QuestionOf<
  'posture' | 'list' | 'status' | 'objective' | 'frameworks' | 'evidence' | 'fix' | 'why' | 'changes' | 'decline'
>;
/** The kinds the offline query parser (offline/parse-query.ts) reads: all the others but a subject's history. */
export type Query = Exclude<Question, Intent | QuestionOf<'subjectHistory'>>;

let tools: { name: Question['kind']; description: string; parameters: Record<string, unknown> }[] | undefined;

/** A tool per kind of question: its name, what it asks, and the JSON Schema of its slots (the kind left out); made once. */
export function questionTools() {
  tools ??= questionKinds.map((schema) => {
    const { kind, ...slots } = schema.shape;
    const { $schema: _, ...parameters } = z.toJSONSchema(z.object(slots), { io: 'input' });
    return { name: kind.value, description: schema.description!, parameters };
  });
  return tools;
}

/** A tool's call as a question, or the problems with its slots. */
export function questionOfCall(name: string, args: unknown): { question: Question } | { problems: string[] } {
  const parsed = questionSchema.safeParse({ ...(typeof args === 'object' && args !== null ? args : {}), kind: name });
  if (parsed.success) return { question: parsed.data };
  return { problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || name}: ${issue.message}`) };
}
