/**
 * The chat family in process with CHAT_PROVIDER=vertex-gemini, its model calls sent through the
 * real Gemini transport to the Vertex AI stand-in: the model's call is answered by the composer,
 * and when the model fails the question is still answered, by the offline reader, and the log says
 * why (in one word).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { geminiToolCaller } from '../../../functions/src/chat/model/gemini-tool-call.ts';
import { createChatFamily } from '../../../functions/src/families/chat.ts';
import { logs } from '../../../functions/src/logs.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { serve, type Served } from '../../support/serve.ts';
import { functionCallAnswer, questionOf } from '../../stand-ins/vertex-ai/recordings.ts';
import { startVertexAiStandIn, type VertexAiStandIn, type VertexFault } from '../../stand-ins/vertex-ai/vertex-ai-stand-in.ts';

let dir: string;
let served: Served;
let standIn: VertexAiStandIn;
/** The fault the stand-in answers every call with, when a test sets one. */
let fault: VertexFault | undefined;

beforeAll(async () => {
  setMode('public');
  dir = await mkdtemp(join(tmpdir(), 'evident-chat-'));
  const store = new LocalFolderStore(dir);
  const recordings = [
    {
      when: (request: Parameters<typeof questionOf>[0]) => questionOf(request).includes('missing'),
      response: functionCallAnswer('list', { statuses: ['missing'] }),
    },
  ];
  const healthy = await startVertexAiStandIn({ recordings });
  const failing = await startVertexAiStandIn({ recordings, fault: 'INTERNAL' });
  standIn = healthy;
  const caller = (target: VertexAiStandIn) =>
    geminiToolCaller({
      project: 'demo-evident',
      location: 'us-central1',
      model: 'gemini-2.5-flash',
      baseUrl: target.baseUrl,
      accessToken: target.token,
    });
  const viaHealthy = caller(healthy);
  const viaFailing = caller(failing);
  closeStandIns = async () => {
    await healthy.close();
    await failing.close();
  };
  served = await serve(
    createChatFamily({
      callModel: (request) => (fault ? viaFailing(request) : viaHealthy(request)),
      store: async () => store,
      catalog: () => compileCatalogSources(paths.catalog),
      now: () => new Date('2026-11-21T09:00:00Z'),
      timeZone: () => 'UTC',
      loadTable: tableOf('chat'),
      verifyToken: fakeVerifier(),
    }),
  );
});

let closeStandIns = async () => {};

afterAll(async () => {
  await closeStandIns();
  delete process.env.CHAT_PROVIDER;
  vi.restoreAllMocks();
  await served.close();
  await rm(dir, { recursive: true, force: true });
});

async function ask(message: string) {
  const response = await fetch(`${served.url}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { grounded: boolean; citations: { controlId: string }[]; date: string; answer: string };
}

describe('POST /api/chat with the model reader', () => {
  it("answers the model's reading of the question from the report, with citations", async () => {
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    process.env.CHAT_PROVIDER = 'vertex-gemini';
    const before = standIn.calls;
    const answer = await ask('Which controls are missing evidence?');
    expect(standIn.calls - before).toBe(1);
    expect(answer.grounded).toBe(true);
    expect(answer.date).toBe('2026-11-21');
    expect(answer.citations.length).toBeGreaterThan(0);
    delete process.env.CHAT_PROVIDER;
    // The same controls as the offline reader's answer cites: the composer, not the model, chose them.
    const cited = (of: typeof answer) => [...new Set(of.citations.map((citation) => citation.controlId))].sort();
    expect(cited(answer)).toEqual(cited(await ask('Which controls are missing evidence?')));
  });

  it('answers with the offline reader when the model fails, and logs why', async () => {
    const fellBack = vi.spyOn(logs, 'chatReaderFellBack').mockImplementation(() => undefined);
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    process.env.CHAT_PROVIDER = 'vertex-gemini';
    fault = 'INTERNAL';
    const answer = await ask('Which controls are missing evidence?');
    fault = undefined;
    expect(answer.grounded).toBe(true);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(fellBack).toHaveBeenCalledTimes(1);
    expect(fellBack.mock.calls[0]!.slice(1)).toEqual(['vertex-gemini:gemini-2.5-flash', 'unavailable']);
  });
});
