/** A connector run's events folded into what the Sources page shows: in order, replay-proof, every ending. */
import { describe, expect, it } from 'vitest';
import type { ConnectorRunEvent } from '../../../hosting/src/lib/api-types.ts';
import {
  foldConnectorEvent,
  initialConnectorProgress,
  type ConnectorProgress,
} from '../../../hosting/src/lib/connector-progress.ts';

const time = '2026-11-24T06:15:00.000Z';
const totals = (calls: number, items: number, sent: number, rateLimitWaits = 0, waitedSeconds = 0) => ({
  calls,
  items,
  sent,
  rateLimitWaits,
  waitedSeconds,
});
const run: ConnectorRunEvent[] = [
  { id: 1, type: 'run.started', time, data: { kinds: ['repo.branch_protection', 'vuln.scan'] } },
  { id: 2, type: 'run.progress', time, data: totals(3, 40, 40) },
  { id: 3, type: 'rate_limit.waited', time, data: { seconds: 30, reason: 'secondary rate limit' } },
  { id: 4, type: 'run.progress', time, data: totals(5, 60, 60, 1, 30) },
  {
    id: 5,
    type: 'run.completed',
    time,
    data: { status: 'complete', counts: { 'repo.branch_protection': 50, 'vuln.scan': 10 } },
  },
];
const foldAll = (events: readonly ConnectorRunEvent[], from: ConnectorProgress = initialConnectorProgress) =>
  events.reduce(foldConnectorEvent, from);

describe('foldConnectorEvent', () => {
  it('waits for the worker, then collects, before any event says more', () => {
    expect(initialConnectorProgress).toEqual({
      lastEventId: 0,
      started: false,
      totals: totals(0, 0, 0),
      lastWait: undefined,
      ending: undefined,
    });
    expect(foldAll(run.slice(0, 1))).toEqual({ ...initialConnectorProgress, lastEventId: 1, started: true });
  });

  it('adds a rate-limit wait to the totals until the next progress event carries it', () => {
    const waited = foldAll(run.slice(0, 3));
    expect(waited.totals).toEqual(totals(3, 40, 40, 1, 30));
    expect(waited.lastWait).toEqual({ seconds: 30, reason: 'secondary rate limit' });
    expect(foldAll(run.slice(0, 4)).totals).toEqual(totals(5, 60, 60, 1, 30));
  });

  it('ends with the counts per kind of a completed run', () => {
    expect(foldAll(run)).toEqual({
      lastEventId: 5,
      started: true,
      totals: totals(5, 60, 60, 1, 30),
      lastWait: { seconds: 30, reason: 'secondary rate limit' },
      ending: { type: 'run.completed', status: 'complete', counts: { 'repo.branch_protection': 50, 'vuln.scan': 10 } },
    });
  });

  it('changes nothing for an event it already folded in, so a replay shows the same run', () => {
    const once = foldAll(run);
    expect(foldAll(run, once)).toBe(once);
    expect(foldAll([...run.slice(0, 3), ...run])).toEqual(once);
  });

  it('ends failed with the problem, naming the missing permission', () => {
    const problem = {
      reason: 'permission_missing' as const,
      detail: 'GitHub refused to list the alerts of acme/api.',
      permission: 'Dependabot alerts: read',
    };
    const failed = foldAll([...run.slice(0, 2), { id: 3, type: 'run.failed', time, data: { problem } }]);
    expect(failed.ending).toEqual({ type: 'run.failed', problem });
    expect(failed.totals).toEqual(totals(3, 40, 40));
  });

  it('ends cancelled', () => {
    expect(foldAll([run[0]!, { id: 2, type: 'run.cancelled', time, data: { by: 'uid-1' } }]).ending).toEqual({
      type: 'run.cancelled',
    });
  });
});
