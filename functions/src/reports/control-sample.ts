/**
 * A reproducible sample of the days a control was tested in a period, for an auditor: the
 * population is every day of the period that has a report (known from the reports' listing, one
 * `list` per thousand days, without reading them), ranked by the published method
 * (assessment/sampling.ts); only the sampled days' reports are read, for the control's status
 * and evidence that day. The population export reads every day's report, for each day's status.
 */
import type { ControlStatus } from '../assessment/model.js';
import { rankAll, type Ranked } from '../assessment/sampling.js';
import { inBatches } from '../storage/object-store.js';
import type { ReportStore } from './report-store.js';

export interface SampleRequest {
  controlId: string;
  from: string;
  to: string;
  seed: string;
  size: number;
  /** Today in the report time zone: earlier reports never change, so cached copies serve. */
  today: string;
}

/** One day of the period with a report: where it ranks, and the control's status and evidence that day. */
export interface SampledDay {
  rank: number;
  date: string;
  digest: string;
  /** Null when that day's report did not assess the control (it was not in the catalog then). */
  status: ControlStatus | null;
  evidence: string[];
}

export interface DaySample {
  population: number;
  sample: SampledDay[];
}

/** Reports read at a time: each is parsed, so a few. */
const reportsAtOnce = 16;

/** The control's status and evidence on each of `ranked`'s days, in their order. */
function daysOf(reports: ReportStore, request: SampleRequest, ranked: readonly Ranked[]): Promise<SampledDay[]> {
  return inBatches(ranked, reportsAtOnce, async ({ rank, id: date, digest }) => {
    const stored = await reports.find(date, { immutable: date < request.today });
    const result = stored?.report.controls.find((candidate) => candidate.id === request.controlId);
    return { rank, date, digest, status: result?.status ?? null, evidence: result?.evidence ?? [] };
  });
}

/** The sample: the first `size` days of the period's reports in rank order, each read once. */
export async function readDaySample(reports: ReportStore, request: SampleRequest): Promise<DaySample> {
  const ranked = rankAll(request.seed, await reports.datesBetween(request.from, request.to));
  return { population: ranked.length, sample: await daysOf(reports, request, ranked.slice(0, request.size)) };
}

/** Every day of the period's reports, oldest first, each with its rank and whether it is in the sample. */
export async function readDayPopulation(
  reports: ReportStore,
  request: SampleRequest,
): Promise<(SampledDay & { sampled: boolean })[]> {
  const ranked = rankAll(request.seed, await reports.datesBetween(request.from, request.to));
  const days = await daysOf(reports, request, ranked);
  return days.map((day) => ({ ...day, sampled: day.rank <= request.size })).sort((a, b) => (a.date < b.date ? -1 : 1));
}
