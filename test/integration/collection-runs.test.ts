/**
 * Collection runs through Hosting, as a collector host uses them: `npm run collect` opening a
 * run, sending under it and completing it with its counts; a run whose collector declares more
 * than it sent read back as incomplete with both counts; a batch for a run that has ended refused
 * with 409 and nothing stored; and a source's runs listed newest first.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { components } from '../../functions/src/generated/api-types.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { api } from '../support/api.ts';
import { hosting, mode } from '../support/emulator.ts';

type CollectionRun = components['schemas']['CollectionRun'];
type CollectionRunPage = components['schemas']['CollectionRunPage'];

const folder = mkdtempSync(join(tmpdir(), 'evident-runs-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A source of this file's own, so no other suite's runs are listed with it. */
const source = `runs-test-${mode}-${randomUUID().slice(0, 8)}`;
const user = (name: string) => ({
  kind: 'idp.user',
  source,
  subject: `${name}@example.com`,
  collectedAt: new Date().toISOString(),
  data: { email: `${name}@example.com`, active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
});

describe(`collection runs, ${mode} mode`, () => {
  it('npm run collect sends a file under a run and completes it with its counts', async () => {
    const file = join(folder, 'users.ndjson');
    writeFileSync(file, ['ada', 'grace', 'alan'].map((name) => JSON.stringify(user(name))).join('\n') + '\n');
    const token = (await api.user())?.idToken;
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(paths.root, 'scripts', 'collect.ts'),
      '--url',
      hosting,
      ...(token ? ['--token', token] : []),
      file,
    ]);
    const lines = stdout.trim().split('\n');
    const id = new RegExp(`^Run (run-[0-9a-z]{9}-[0-9a-f]{12}): opened for ${source} \\(1 kind\\)$`).exec(lines[0]!)?.[1];
    expect(id, lines[0]).toBeDefined();
    expect(lines.slice(-2)).toEqual([
      `Run ${id}: complete, 3 items as declared`,
      'Summary: created 3, already present 0, rejected 0',
    ]);
    const run = await api.get<CollectionRun>(`/api/runs/${id}`);
    expect([run.source, run.kinds, run.status, run.declared, run.received]).toEqual([
      source,
      ['idp.user'],
      'complete',
      { 'idp.user': 3 },
      { 'idp.user': 3 },
    ]);
  });

  it('reads a run that declares more than it sent as incomplete, and refuses a batch once it has ended', async () => {
    const run = await api.post<CollectionRun>('/api/runs', { source, kinds: ['idp.user'] }, 201);
    await api.post(`/api/evidence?run=${run.id}`, { items: [user('hal')] }, 201);
    const ended = await api.post<CollectionRun>(`/api/runs/${run.id}/complete`, { counts: { 'idp.user': 2 } }, 200);
    expect([ended.status, ended.incompleteReason, ended.declared, ended.received]).toEqual([
      'incomplete',
      'counts_disagree',
      { 'idp.user': 2 },
      { 'idp.user': 1 },
    ]);
    const late = await api.call(`/api/evidence?run=${run.id}`, { body: { items: [user('late')] } });
    expect(late.status).toBe(409);
    expect((late.body as { code: string }).code).toBe('run_ended');
    const again = await api.call(`/api/runs/${run.id}/complete`, { body: { counts: { 'idp.user': 1 } } });
    expect([again.status, (again.body as { code: string }).code]).toEqual([409, 'run_ended']);
    // Nothing of the refused batch was stored.
    const stored = await api.get<{ items: unknown[] }>(
      `/api/evidence?source=${encodeURIComponent(source)}&subject=${encodeURIComponent('late@example.com')}`,
    );
    expect(stored.items).toEqual([]);
  });

  it("lists the source's runs, newest first", async () => {
    const page = await api.get<CollectionRunPage>(`/api/runs?source=${encodeURIComponent(source)}`);
    expect(page.items.map((run) => run.status)).toEqual(['incomplete', 'complete']);
    expect(page.items.every((run) => run.source === source)).toBe(true);
    expect(page.hasMore).toBe(false);
  });
});
