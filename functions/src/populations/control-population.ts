/**
 * A control's population on a day: for each evidence kind of subjects its checks read, every
 * subject they ran on with its outcome and the evidence item that decided it. The engine makes
 * them (assessment/evaluate.ts `evaluateWithPopulations`); the daily job and a publishing
 * analysis hand them to the population store (control-population-store.ts) once the report is
 * stored; an auditor pages them, or exports them, to sample from (docs/sampling.md).
 */
export type { ControlPopulation, SubjectOutcome } from '../assessment/model.js';
