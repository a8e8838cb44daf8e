/**
 * The built-in connectors on the emulators, against their vendors' stand-ins (scripts/lib/
 * stand-ins.ts, started by the test runner): settings saved through the API point each one at
 * its stand-in's organisation, a run started through Hosting is executed by the real task queue
 * (the tasks emulator dispatching `connectorWorker`, with the credentials `.secret.local` gives
 * it), followed as server-sent events to its end, and leaves a complete collection run whose
 * items the evidence listing shows. The worker's failures, rate limits and pagination are the
 * unit tests' (test/unit/connectors/), through the same SDKs and stand-ins.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { followEventStream, type StreamEvent } from '../../hosting/src/lib/event-stream.ts';
import { standInSettings } from '../../scripts/lib/stand-ins.ts';
import { api } from '../support/api.ts';
import { connectStandIns } from '../support/connectors.ts';
import { hosting } from '../support/emulator.ts';

interface RunEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

interface ConnectorRun {
  id: string;
  state: string;
  run: { status: string; kinds: string[]; declared?: Record<string, number>; received?: Record<string, number> };
  progress: { calls: number; items: number; sent: number };
  lastEventId: number;
  links: { self: string; events: string; cancel: string };
}

interface Connector {
  id: string;
  source: string;
  ready: boolean;
  needs: string[];
  kinds: string[];
  newestRun?: { id: string };
}

beforeAll(connectStandIns);

async function follow(run: ConnectorRun): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await followEventStream<RunEvent>(`${hosting}${run.links.events}`, {
    headers: () => api.auth(),
    onEvent: (event: StreamEvent<RunEvent>) => {
      expect(String(event.data.id)).toBe(event.id);
      events.push(event.data);
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
  });
  return events;
}

describe('the built-in connectors against their stand-ins', () => {
  it('are every one enabled and ready once their settings are saved', async () => {
    const { items } = await api.get<{ items: Connector[] }>('/api/connectors');
    expect(items.map((connector) => [connector.id, connector.ready, connector.needs])).toEqual([
      ['github', true, []],
      ['google-cloud', true, []],
      ['google-workspace', true, []],
      ['okta', true, []],
    ]);
  });

  for (const id of Object.keys(standInSettings)) {
    it(`runs ${id} on the task queue to a complete collection run, its items stored under it`, async () => {
      const started = await api.json<ConnectorRun>(`/api/connectors/${id}/runs`, { method: 'POST', status: 202 });
      expect([started.state, started.run.status, started.lastEventId]).toEqual(['queued', 'running', 0]);

      const events = await follow(started);
      const types = events.map((event) => event.type);
      expect(types[0]).toBe('run.started');
      expect(types.at(-1)).toBe('run.completed');
      expect(types.slice(1, -1).every((type) => type === 'run.progress')).toBe(true);
      expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));

      const ended = await api.get<ConnectorRun>(started.links.self);
      expect([ended.state, ended.run.status, ended.lastEventId]).toEqual(['succeeded', 'complete', events.length]);
      const counts = (events.at(-1)!.data as { counts: Record<string, number> }).counts;
      expect(ended.run.declared).toEqual(counts);
      expect(ended.run.received).toEqual(counts);
      const sent = Object.values(counts).reduce((sum, count) => sum + count, 0);
      expect([ended.progress.sent, sent > 0]).toEqual([sent, true]);

      const connector = await api.get<Connector>(`/api/connectors/${id}`);
      expect(connector.newestRun?.id).toBe(started.id);
      const kind = Object.entries(counts).find(([, count]) => count > 0)![0];
      const listed = await api.get<{ items: { source: string; runId?: string }[] }>(
        `/api/evidence?source=${encodeURIComponent(connector.source)}&kind=${kind}&limit=5`,
      );
      expect(listed.items.length).toBe(Math.min(5, counts[kind]!));
      expect(listed.items.every((item) => item.source === connector.source && item.runId === started.id)).toBe(true);
    });
  }
});
