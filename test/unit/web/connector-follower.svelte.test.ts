/**
 * ConnectorRunFollower as the Sources page drives it, from an `$effect`, compiled by Svelte with
 * real runes, against a loopback origin serving a connector run's events as the API does: it reads
 * the connector's run stream, resumes after the last event across connections the server ends,
 * and ends with the run. The following machinery itself is the analyses' (analysis-follower tests).
 */
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectorRunFollower } from '../../../hosting/src/lib/connector-follower.svelte.ts';
import type { ConnectorRunEvent } from '../../../hosting/src/lib/api-types.ts';
import { openStream, sseEvent, startScriptedOrigin, type ScriptedOrigin } from '../../support/scripted-origin.ts';

const RUN = 'run-00abcdefg-0123456789ab';
const time = '2026-11-24T06:15:00.000Z';
const totals = { calls: 4, items: 12, sent: 12, rateLimitWaits: 1, waitedSeconds: 2 };
const events: ConnectorRunEvent[] = [
  { id: 1, type: 'run.started', time, data: { kinds: ['repo.branch_protection'] } },
  { id: 2, type: 'rate_limit.waited', time, data: { seconds: 2, reason: 'secondary rate limit' } },
  { id: 3, type: 'run.progress', time, data: totals },
  { id: 4, type: 'run.completed', time, data: { status: 'complete', counts: { 'repo.branch_protection': 12 } } },
];

let origin: ScriptedOrigin | undefined;
let destroy: (() => void) | undefined;
afterEach(async () => {
  destroy?.();
  await origin?.close();
});

describe('ConnectorRunFollower under a page effect', () => {
  it('follows the connector’s run stream to its end, resuming after the last event of each connection', async () => {
    origin = await startScriptedOrigin((request, res) => {
      if (request.path !== `/api/connectors/github/runs/${RUN}/events`) return res.writeHead(404).end();
      const after = Number(request.lastEventId ?? 0);
      openStream(res);
      for (const event of events.filter((each) => each.id > after).slice(0, 2)) res.write(sseEvent(event));
      res.end();
    });
    const follower = new ConnectorRunFollower(origin.fetch, 'github');
    destroy = $effect.root(() => {
      $effect(() => {
        const stop = new AbortController();
        void follower.follow(RUN, stop.signal);
        return () => stop.abort();
      });
    });
    flushSync();
    await vi.waitUntil(() => follower.connection === 'ended');
    expect(origin.requests.map((request) => request.lastEventId)).toEqual([undefined, '2']);
    expect(follower.progress).toEqual({
      lastEventId: 4,
      started: true,
      totals,
      lastWait: { seconds: 2, reason: 'secondary rate limit' },
      ending: { type: 'run.completed', status: 'complete', counts: { 'repo.branch_protection': 12 } },
    });
    expect(follower.error).toBeUndefined();
  });
});
