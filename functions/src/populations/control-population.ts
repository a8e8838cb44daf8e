/**
 * A control's population on a day: for each evidence kind of subjects its checks read, every
 * subject they ran on with its outcome and the evidence item that decided it. The daily job
 * hands these to the population store (control-population-store.ts) once the report is stored;
 * an auditor pages them, or exports them, to sample from (docs/sampling.md).
 */
import type { subjectOutcomes } from '@evident/contract';

/** One subject of a population: how the control's checks found it, and on which item. */
export interface SubjectOutcome {
  subject: string;
  outcome: (typeof subjectOutcomes)[number];
  evidenceId: string;
}

/**
 * The subjects of one evidence kind a control's checks ran on, sorted by subject (UTF-16 code
 * unit order), with `sha256` the hex SHA-256 of the sorted subjects joined by "\n".
 */
export interface ControlPopulation {
  controlId: string;
  kind: string;
  count: number;
  sha256: string;
  subjects: SubjectOutcome[];
}
