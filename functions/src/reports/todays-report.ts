/**
 * Today's report on demand: the stored one, or — when the schedule has not run yet — the one
 * the daily job produces on this first read. Reads of today in one instance share a single
 * evaluation; other instances meet at the daily job's create-only write.
 */
import { dayIn } from '../assessment/dates.js';
import type { Services } from '../families/services.js';
import type { StoredReport } from './report-store.js';

export function todaysReport(): (s: Services) => Promise<StoredReport> {
  const producing = new Map<string, Promise<StoredReport>>();
  return async (s) => {
    const date = dayIn(s.timeZone(), s.now());
    const stored = await s.reports.find(date);
    if (stored) return stored;
    let pending = producing.get(date);
    if (!pending) {
      // The evaluation engine loads only here: serving a stored report never needs it.
      pending = Promise.all([import('../assessment/daily-report.js'), s.compiled()])
        .then(([{ produceDailyReport }, catalog]) =>
          produceDailyReport({
            store: s.store,
            catalog,
            timeZone: s.timeZone(),
            now: s.now(),
            date,
            trigger: 'first-read',
            evidence: s.evidence,
            reports: s.reports,
            checkpoints: s.checkpoints,
          }),
        )
        .then(({ stored: report }) => report)
        .finally(() => producing.delete(date));
      producing.set(date, pending);
    }
    return pending;
  };
}
