/**
 * AnalysisFollower as a page drives it, from an `$effect`, compiled by Svelte with real runes,
 * against a loopback origin that serves a run's events as the API does (replay after
 * Last-Event-ID, connections the server ends): one connection per server ending, never one per
 * event; a resumed stream shows each control once; a cancelled run and a page left behind stop.
 */
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnalysisFollower } from '../../../hosting/src/lib/analysis-follower.svelte.ts';
import type { AnalysisEvent } from '../../../hosting/src/lib/api-types.ts';
import { openStream, sseEvent, startScriptedOrigin, type ScriptedOrigin } from '../../support/scripted-origin.ts';

const RUN = 'an-20261124061500000-0123abcd';
const time = '2026-11-24T06:15:00.000Z';
const controls = ['IAM-01', 'IAM-02', 'NET-01', 'NET-02'];
const summary = { score: 75, counts: { passing: 3, failing: 1, stale: 0, missing: 0, not_applicable: 0 }, controls: 4 };

/** The run's events: started, one per control, then how it ended. */
function runEvents(ending: 'completed' | 'cancelled'): AnalysisEvent[] {
  const evaluated = controls.map((controlId, index): AnalysisEvent => ({
    id: index + 2,
    type: 'control.evaluated',
    time,
    data: {
      controlId,
      title: `Title of ${controlId}`,
      severity: 'high',
      status: index === 0 ? 'failing' : 'passing',
      findings: index === 0 ? 1 : 0,
      index: index + 1,
      total: controls.length,
    },
  }));
  const id = controls.length + 2;
  return [
    { id: 1, type: 'run.started', time, data: { date: '2026-11-24', asOf: time, total: controls.length } },
    ...evaluated,
    ending === 'completed'
      ? { id, type: 'run.completed', time, data: { summary, published: false } }
      : { id, type: 'run.cancelled', time, data: { evaluated: 2 } },
  ];
}

/** Serves `events` as the API does, ending each connection after `perConnection` of them. */
function servingRun(events: AnalysisEvent[], perConnection: number) {
  return startScriptedOrigin((request, res) => {
    if (request.path !== `/api/analyses/${RUN}/events`) return res.writeHead(404).end();
    const after = Number(request.lastEventId ?? 0);
    openStream(res);
    for (const event of events.filter((each) => each.id > after).slice(0, perConnection)) res.write(sseEvent(event));
    res.end();
  });
}

let origin: ScriptedOrigin | undefined;
let destroy: (() => void) | undefined;
afterEach(async () => {
  destroy?.();
  await origin?.close();
});

/** Follows the run as AnalysisView does: from an effect whose teardown aborts the stream. */
function followLikeThePage(follower: AnalysisFollower) {
  const effectRuns: number[] = [];
  destroy = $effect.root(() => {
    $effect(() => {
      effectRuns.push(effectRuns.length + 1);
      const stop = new AbortController();
      void follower.follow(RUN, stop.signal);
      return () => stop.abort();
    });
  });
  flushSync();
  return effectRuns;
}

describe('AnalysisFollower under a page effect', () => {
  it('opens one connection per server ending, not one per event, and resumes each after the last event', async () => {
    origin = await servingRun(runEvents('completed'), 2);
    const follower = new AnalysisFollower(origin.fetch);
    const effectRuns = followLikeThePage(follower);
    await vi.waitUntil(() => follower.connection === 'ended');
    flushSync();
    // Six events, two per connection: three connections, each after the last event it had.
    expect(origin.requests.map((request) => request.lastEventId)).toEqual([undefined, '2', '4']);
    expect(follower.reconnects).toBe(2);
    expect(effectRuns).toEqual([1]);
    expect(follower.progress.results.map((result) => [result.index, result.controlId, result.status])).toEqual([
      [1, 'IAM-01', 'failing'],
      [2, 'IAM-02', 'passing'],
      [3, 'NET-01', 'passing'],
      [4, 'NET-02', 'passing'],
    ]);
    expect(follower.progress.ending).toEqual({ type: 'run.completed', summary, published: false });
    expect(follower.error).toBeUndefined();
  });

  it('shows each control once when a resumed connection replays events it already had', async () => {
    const events = runEvents('completed');
    // A proxy that ignored Last-Event-ID on the second connection: it replays from the start.
    origin = await startScriptedOrigin((request, res) => {
      openStream(res);
      const connection = origin!.requests.length;
      const sent = connection === 1 ? events.slice(0, 3) : events;
      for (const event of sent) res.write(sseEvent(event));
      res.end();
    });
    const follower = new AnalysisFollower(origin.fetch);
    followLikeThePage(follower);
    await vi.waitUntil(() => follower.connection === 'ended');
    expect(origin.requests.map((request) => request.lastEventId)).toEqual([undefined, '3']);
    expect(follower.progress.results.map((result) => result.controlId)).toEqual(controls);
    expect(follower.progress.lastEventId).toBe(6);
  });

  it('ends with the run when it is cancelled', async () => {
    origin = await servingRun(runEvents('cancelled'), 10);
    const follower = new AnalysisFollower(origin.fetch);
    followLikeThePage(follower);
    await vi.waitUntil(() => follower.connection === 'ended');
    expect(follower.progress.ending).toEqual({ type: 'run.cancelled', evaluated: 2 });
    expect(origin.requests).toHaveLength(1);
  });

  it('stops following, closing the connection, when the page goes away', async () => {
    // A run still going: the server sends its start and keeps the connection open.
    origin = await startScriptedOrigin((_request, res) => {
      openStream(res);
      res.write(sseEvent(runEvents('completed')[0]!));
    });
    const follower = new AnalysisFollower(origin.fetch);
    followLikeThePage(follower);
    await vi.waitUntil(() => follower.progress.total === controls.length);
    expect(follower.connection).toBe('open');
    destroy!();
    destroy = undefined;
    await origin.requests[0]!.closedEarly;
    await vi.waitUntil(() => follower.connection === 'stopped');
    expect(origin.requests).toHaveLength(1);
    expect(follower.error).toBeUndefined();
  });

  it('says the stream failed, in the server words, when the run does not exist', async () => {
    origin = await startScriptedOrigin((request, res) => {
      res.writeHead(404, { 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify({ title: 'Analysis not found', status: 404, detail: `No analysis run has the id ${RUN}.` }));
    });
    const follower = new AnalysisFollower(origin.fetch);
    followLikeThePage(follower);
    await vi.waitUntil(() => follower.connection === 'failed');
    expect(follower.error?.message).toBe(`Analysis not found: No analysis run has the id ${RUN}.`);
    expect(origin.requests).toHaveLength(1);
  });
});
