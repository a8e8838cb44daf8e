/**
 * The chat family in process: when the configured model provider fails (here `vertex-gemini`
 * without its client installed, as on any machine that has not switched it on), the question is
 * still answered, by the offline composer, and the failure is logged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatFamily } from '../../../functions/src/families/chat.ts';
import { logs } from '../../../functions/src/logs.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { serve, type Served } from '../../support/serve.ts';

let dir: string;
let served: Served;

beforeAll(async () => {
  setMode('public');
  dir = await mkdtemp(join(tmpdir(), 'evident-chat-'));
  const store = new LocalFolderStore(dir);
  served = await serve(
    createChatFamily({
      store: async () => store,
      catalog: () => compileCatalogSources(paths.catalog),
      now: () => new Date('2026-11-21T09:00:00Z'),
      timeZone: () => 'UTC',
      loadTable: tableOf('chat'),
      verifyToken: fakeVerifier(),
    }),
  );
});

afterAll(async () => {
  delete process.env.CHAT_PROVIDER;
  vi.restoreAllMocks();
  await served.close();
  await rm(dir, { recursive: true, force: true });
});

describe('POST /api/chat with a failing model provider', () => {
  it('answers with the offline composer and logs the provider failure', async () => {
    const failures = vi.spyOn(logs, 'chatProviderFailed').mockImplementation(() => undefined);
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    process.env.CHAT_PROVIDER = 'vertex-gemini';
    const response = await fetch(`${served.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'Which controls are missing evidence?' }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { grounded: boolean; citations: unknown[]; date: string };
    expect(answer.grounded).toBe(true);
    expect(answer.date).toBe('2026-11-21');
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(failures).toHaveBeenCalledTimes(1);
    expect(failures.mock.calls[0]![1]).toBe('vertex-gemini:gemini-2.5-flash');
  });
});
