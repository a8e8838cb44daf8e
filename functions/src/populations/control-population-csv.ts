/**
 * A control's population as CSV for an auditor's workpapers, written a chunk of subjects at a
 * time: one row per subject in subject order, its outcome and the evidence item it rests on,
 * every field quoted and defused as the history export's are (reports/control-history-csv.ts).
 */
import { csvOf } from '../reports/control-history-csv.js';
import type { SubjectOutcome } from './control-population.js';

export const populationCsvColumns = ['subject', 'outcome', 'evidence_id'] as const;

/** The header row. */
export const populationCsvHeader = () => csvOf([[...populationCsvColumns]]);

/** The rows of some subjects, CRLF-terminated, to follow the header or the rows before. */
export const populationCsvRows = (subjects: readonly SubjectOutcome[]) =>
  subjects.length === 0 ? '' : csvOf(subjects.map(({ subject, outcome, evidenceId }) => [subject, outcome, evidenceId]));
