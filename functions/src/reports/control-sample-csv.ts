/**
 * A control's sample of days, and the population it was drawn from, as CSV (RFC 4180, every
 * field quoted and defused as the history export's are) for an auditor's workpapers. With the
 * population file and the seed, `sha256sum` or a spreadsheet re-derives the sample
 * (docs/sampling.md): each row carries the digest that ranks its day.
 */
import { csvOf } from './control-history-csv.js';
import type { SampledDay } from './control-sample.js';

export const sampleCsvColumns = ['rank', 'date', 'sha256', 'status', 'evidence'] as const;
export const populationCsvColumns = ['date', 'status', 'sha256', 'rank', 'sampled'] as const;

/** The sampled days in rank order, each with its status and the evidence its result considered. */
export function sampleCsv(sample: readonly SampledDay[]): string {
  return csvOf([
    [...sampleCsvColumns],
    ...sample.map((day) => [String(day.rank), day.date, day.digest, day.status ?? '', day.evidence.join(' ')]),
  ]);
}

/** Every day of the population, oldest first: its status, digest, rank and whether it is sampled. */
export function populationCsv(days: readonly (SampledDay & { sampled: boolean })[]): string {
  return csvOf([
    [...populationCsvColumns],
    ...days.map((day) => [day.date, day.status ?? '', day.digest, String(day.rank), day.sampled ? 'yes' : 'no']),
  ]);
}
