/** What `npm run daily-report` says it did, and where it points when today's report already exists. */
import { describe, expect, it } from 'vitest';
import { outcomeLines, publishHint } from '../../../scripts/lib/daily-report-outcome.ts';

const counts = { passing: 30, failing: 9, stale: 2, missing: 1, not_applicable: 1 };
const base = {
  date: '2026-11-27',
  today: '2026-11-27',
  storeName: '.local/store',
  asOf: '2026-11-27T06:00:00.000Z',
  score: 75.7,
  counts,
};

describe('npm run daily-report’s answer', () => {
  it('names the report it made and what it read', () => {
    expect(
      outcomeLines({
        ...base,
        created: true,
        read: 'It started from no checkpoint (every batch) and read 3 batches (40 items) received since.',
      }),
    ).toEqual([
      'Created the report of 2026-11-27 in .local/store: score 75.7 (30 passing, 9 failing, 2 stale, 1 missing, 1 not applicable).',
      'It started from no checkpoint (every batch) and read 3 batches (40 items) received since.',
    ]);
  });

  it('says how to publish a new assessment when today’s report was already there', () => {
    expect(outcomeLines({ ...base, created: false })).toEqual([
      'The report of 2026-11-27 was already in .local/store, as of 2026-11-27T06:00:00.000Z: score 75.7 (30 passing, 9 failing, 2 stale, 1 missing, 1 not applicable).',
      publishHint,
    ]);
    expect(publishHint).toContain('"Publish the result as today\'s report"');
    expect(publishHint).toContain('"Re-assess now" on the\ndashboard');
    expect(publishHint).toContain(`-d '{"publish":true}' http://127.0.0.1:5000/api/analyses`);
  });

  it('says a past day’s report never changes', () => {
    expect(outcomeLines({ ...base, date: '2026-11-20', created: false }).at(-1)).toBe(
      'Past reports never change: 2026-11-20 stays as it was assessed.',
    );
  });
});
