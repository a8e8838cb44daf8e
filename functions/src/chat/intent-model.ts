/**
 * What a question can ask, as the classifier (intents.ts) decides it and the answer is composed
 * from: the intents, their topic and the earlier day they compare with. The phrase readers the
 * classifier uses (day-phrases.ts, question-cues.ts, topics.ts) speak of these types too, so they
 * live apart from the classifier that imports those readers.
 */
import type { ControlStatus, Severity } from '../assessment/model.js';
import type { components } from '../generated/api-types.js';

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
