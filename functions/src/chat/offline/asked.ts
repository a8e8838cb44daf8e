/**
 * A question as every part of the offline reader reads it, worked out once: its words normalised
 * with one slip of the keyboard put right, the controls it names by id, and what the conversation
 * before it holds (the controls the previous answer cited, the question asked before).
 */
import type { ChatTurn } from '../question.js';
import { controlIdsIn, type ReportIndex } from '../report-index.js';
import { withTyposFixed } from './known-words.js';
import { normalize } from './question-cues.js';

export interface Asked {
  /** As the user wrote it: capitals tell a name ("Kubernetes") from a word. */
  message: string;
  /** Normalised and lower-cased, typos put right: what every reading reads. */
  text: string;
  history: readonly ChatTurn[];
  index: ReportIndex;
  reportDate: string;
  /** The controls the text names by id. */
  ids: string[];
  /** The controls the latest answer cited, in its order. */
  cited: string[];
  /** The latest question before this one, lower-cased ('' when none). */
  last: string;
}

/** The question as read; `text` given when it is read already (a test of one reading). */
export function askedOf(
  message: string,
  history: readonly ChatTurn[],
  index: ReportIndex,
  text = withTyposFixed(normalize(message), index),
): Asked {
  const cited = history.findLast((turn) => turn.role === 'assistant')?.citations ?? [];
  return {
    message,
    text,
    history,
    index,
    reportDate: index.report.date,
    ids: controlIdsIn(index, text),
    cited: [...new Set(cited.map((citation) => citation.controlId).filter((id) => index.byId.has(id)))],
    last: history.findLast((turn) => turn.role === 'user')?.content.toLowerCase() ?? '',
  };
}
