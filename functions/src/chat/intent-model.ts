/**
 * The part of the question model (question.ts) the classifier (intents.ts) reads, and the chat's
 * turns. The phrase readers the classifier uses (days.ts, question-cues.ts, topics.ts)
 * speak of these types too, so they live apart from the classifier that imports those readers.
 */
import type { QuestionOf } from './question.js';
import type { components } from '../generated/api-types.js';

export type ChatTurn = components['schemas']['ChatTurn'];

export type { ChangeFocus, DeclineReason, Since, Topic } from './question.js';

/** The kinds the classifier (intents.ts) reads: one control topic's state, lists, changes, declines. */
export type Intent = QuestionOf<
  'posture' | 'list' | 'status' | 'objective' | 'frameworks' | 'evidence' | 'fix' | 'why' | 'changes' | 'decline'
>;
