/**
 * The daily job: evaluate one day and store its report, once. The schedule, the development
 * trigger, the seeding script and a first read of today all call this one function.
 *
 * The report is written create-only, so a second firing, a retry or a concurrent first read
 * on the same day all end with the one report that was stored first.
 */
import { randomUUID } from 'node:crypto';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { logs } from '../logs.js';
import { ReportStore, type StoredReport } from '../reports/report-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import { dayIn, endOfDay } from './dates.js';
import { evaluate, type CompiledCatalog } from './evaluate.js';

export interface DailyReportOptions {
  store: ObjectStore;
  catalog: CompiledCatalog;
  timeZone: string;
  /** The clock: when the job runs. */
  now: Date;
  /** The day to evaluate; today in `timeZone` by default. A past day is evaluated as of its end. */
  date?: string;
  trigger: string;
  /** Lets a caller that already holds them (a long-lived process) share the stores' caches. */
  evidence?: EvidenceStore;
  reports?: ReportStore;
}

export async function produceDailyReport(options: DailyReportOptions): Promise<{ stored: StoredReport; created: boolean }> {
  const reports = options.reports ?? new ReportStore(options.store);
  const evidence = options.evidence ?? new EvidenceStore(options.store);
  const date = options.date ?? dayIn(options.timeZone, options.now);
  const runId = `daily-${date}-${randomUUID().slice(0, 8)}`;
  const existing = await reports.find(date);
  if (existing) {
    logs.reportAlreadyExists(date, runId, options.trigger);
    return { stored: existing, created: false };
  }
  const started = performance.now();
  const end = endOfDay(options.timeZone, date);
  const asOf = options.now < end ? options.now : end;
  const [items, previous] = await Promise.all([evidence.all(), reports.latestBefore(date)]);
  const report = evaluate(options.catalog, {
    date,
    timeZone: options.timeZone,
    asOf,
    generatedAt: options.now,
    runId,
    evidence: items,
    previous: previous?.report ?? null,
  });
  const outcome = await reports.create(report);
  if (outcome.created) {
    logs.reportPublished(date, runId, options.trigger, report.summary.score, Math.round(performance.now() - started));
  } else {
    logs.reportAlreadyExists(date, runId, options.trigger);
  }
  return outcome;
}
