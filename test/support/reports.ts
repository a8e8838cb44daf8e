/**
 * A stored report as small as the schema allows: no controls, published at 06:00 UTC on its day.
 * Tests that care about the store, the caching or the day a report answers for, not its
 * contents, start from it and override what they look at.
 */
import type { Report } from '../../functions/src/assessment/model.ts';

export function emptyReport(date: string, { score = 100, ...overrides }: Partial<Report> & { score?: number } = {}): Report {
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T06:00:00.000Z`,
    generatedAt: `${date}T06:00:00.000Z`,
    runId: `daily-${date}`,
    catalogVersion: 'test',
    summary: { score, counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 }, controls: 0 },
    controls: [],
    diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
    ...overrides,
  };
}
