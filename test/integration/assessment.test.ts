/**
 * The assessment engine through Hosting on the emulators: ingest that is idempotent and loses
 * nothing under concurrency, reports that exist once per day however many ask at once, cache
 * validators, submissions whose files are checked on the way out, and the OSCAL export.
 *
 * The tests reach into the same local store the functions use (EVIDENT_STORE_DIR) only to set
 * up what a client cannot: removing today's report, or altering a stored file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../functions/src/assessment/dates.ts';
import { produceDailyReport } from '../../functions/src/reports/daily-report.ts';
import { republishOf } from '../../functions/src/reports/republish-hint.ts';
import { compileCatalog } from '../../functions/src/assessment/evaluate.ts';
import { LocalFolderStore } from '../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { api } from '../support/api.ts';
import { functionUrl, hosting, mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

const store = new LocalFolderStore(process.env.EVIDENT_STORE_DIR!);
const today = new Date().toISOString().slice(0, 10);
let auth: Record<string, string>;
let uid: string;

beforeAll(async () => {
  auth = await api.auth();
  uid = (await api.user())?.uid ?? 'anonymous';
});

/**
 * The functions emulator starts one process per request in flight, so through it races run
 * with `inFlight` requests at a time (the unit tests race 100 at once in one process).
 */
async function inWaves<T>(count: number, inFlight: number, send: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const n = next++;
        results[n] = await send(n);
      }
    }),
  );
  return results;
}

const collectedAt = new Date().toISOString();

function tls(id: string, subject = `host-${id}.example.com`) {
  return {
    id,
    kind: 'tls.endpoint',
    source: 'assessment-test',
    subject,
    collectedAt,
    data: { minTlsVersion: '1.2', hsts: true, certificateDaysLeft: 40, weakCiphers: false },
  };
}

const postEvidence = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${hosting}/api/evidence`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth, ...headers },
    body: JSON.stringify(body),
  });

async function removeTodaysReport(): Promise<void> {
  await store.delete(`reports/day=${today}/report.json`).catch(() => undefined);
}

async function reportObjects(): Promise<string[]> {
  return (await store.list('reports/')).items.map((item) => item.name);
}

describe('evidence ingest', () => {
  it('stores an item once: a repeat with the same id answers 200 existing, other content 409', async () => {
    const id = `once-${randomUUID()}`;
    const first = await postEvidence(tls(id));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ items: [{ id, status: 'created' }] });

    const again = await postEvidence(tls(id));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ items: [{ id, status: 'existing' }] });

    const changed = await postEvidence({ ...tls(id), subject: 'other.example.com' });
    expect(changed.status).toBe(409);
    expect(await changed.json()).toEqual(
      expectedProblem(
        'evidence_conflict',
        `An evidence item with id "${id}" already exists with different content; evidence is append-only, so send the correction under a new id.`,
        '/api/evidence',
        changed.headers.get('x-request-id')!,
      ),
    );
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses the key for another body', async () => {
    const key = `key-${randomUUID()}`;
    const batch = { items: [1, 2, 3].map((n) => ({ ...tls(''), id: undefined, subject: `k${n}.example.com` })) };
    const first = await postEvidence(batch, { 'Idempotency-Key': key });
    const firstBody = (await first.json()) as { items: { id: string; status: string }[] };
    expect(first.status).toBe(201);
    expect(firstBody.items.map((item) => item.status)).toEqual(['created', 'created', 'created']);

    const retry = await postEvidence(batch, { 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(firstBody);
    for (const { id } of firstBody.items) {
      expect((await fetch(`${hosting}/api/evidence/${id}`, { headers: auth })).status).toBe(200);
    }

    const other = await postEvidence(
      { items: [{ ...batch.items[0]!, subject: 'changed.example.com' }] },
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(409);
    expect(((await other.json()) as { code: string }).code).toBe('idempotency_key_reused');
  });

  it('loses nothing when 100 ingests race, 8 in flight at a time', async () => {
    const ids = Array.from({ length: 100 }, (_, n) => `burst-${n}-${randomUUID().slice(0, 8)}`);
    const responses = await inWaves(ids.length, 8, (n) => postEvidence(tls(ids[n]!)));
    expect(responses.map((response) => response.status)).toEqual(ids.map(() => 201));
    const listed = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = (await (
        await fetch(`${hosting}/api/evidence?kind=tls.endpoint&limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth })
      ).json()) as { items: { id: string }[]; nextCursor?: string };
      for (const item of page.items) {
        expect(listed.has(item.id)).toBe(false); // no page repeats an item
        listed.add(item.id);
      }
      cursor = page.nextCursor;
    } while (cursor);
    for (const id of ids) expect(listed.has(id), id).toBe(true);
  });

  it('filters by subject and walks pages with a cursor, newest first', async () => {
    const subject = `paged-${randomUUID()}.example.com`;
    const items = [0, 1, 2, 3, 4].map((n) => ({
      ...tls(`paged-${n}-${randomUUID().slice(0, 6)}`, subject),
      collectedAt: `2026-11-0${n + 1}T00:00:00.000Z`,
    }));
    expect((await postEvidence({ items })).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const response = await fetch(
        `${hosting}/api/evidence?subject=${encodeURIComponent(subject)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: auth },
      );
      const page = (await response.json()) as { items: { id: string }[]; nextCursor?: string };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(items.map((item) => item.id).reverse());
  });
});

describe('daily reports', () => {
  it('produces today once when 6 first readers arrive together: one stored report, identical bytes', async () => {
    await removeTodaysReport();
    // Straight to the function: what is tested is its one evaluation for concurrent readers. The
    // Hosting emulator's proxy (not part of production) now and then cuts one of several
    // concurrent answers this size short ("other side closed").
    const url = `${functionUrl('report')}/api/report/today`;
    const responses = await Promise.all(Array.from({ length: 6 }, () => fetch(url, { headers: auth })));
    // The functions emulator's own proxy, on a loaded machine, now and then cuts one of several
    // concurrent bodies short too ("other side closed"); such a body is read again, from the
    // report the six produced, which the store's count below shows to be the only one.
    const bodies = await Promise.all(
      responses.map((response) =>
        response.text().catch(async (error: unknown) => {
          if ((error as Error).message !== 'terminated') throw error;
          return (await fetch(url, { headers: auth })).text();
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(responses.map((response) => response.headers.get('etag'))).size).toBe(1);
    expect((await reportObjects()).filter((name) => name === `reports/day=${today}/report.json`)).toHaveLength(1);
    expect(bodies[0]).toBe((await store.read(`reports/day=${today}/report.json`)).data.toString('utf8'));
  });

  it('leaves exactly one report when two daily runs fire at once', async () => {
    await removeTodaysReport();
    const runs = await Promise.all([1, 2].map(() => fetch(functionUrl('devDailyReport'), { method: 'POST' })));
    const outcomes = (await Promise.all(runs.map((run) => run.json()))) as {
      date: string;
      created: boolean;
      republish?: unknown;
    }[];
    expect(outcomes.map((outcome) => outcome.date)).toEqual([today, today]);
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    // The run that found the report says how to publish a new version of it; the one that made it does not.
    expect(outcomes.find((outcome) => outcome.created)!.republish).toBeUndefined();
    expect(outcomes.find((outcome) => !outcome.created)!.republish).toEqual(republishOf(today));
    expect(runs.map((run) => run.status).sort()).toEqual([200, 201]);
    expect((await reportObjects()).filter((name) => name === `reports/day=${today}/report.json`)).toHaveLength(1);
  });

  it("revalidates today's report with its ETag", async () => {
    const first = await fetch(`${hosting}/api/report/today`, { headers: auth });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    expect(first.headers.get('cache-control')).toBe(mode === 'protected' ? 'private, no-cache' : 'public, no-cache');
    const again = await fetch(`${hosting}/api/report/today`, { headers: { ...auth, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves a past day as immutable, the same bytes by date, and lists it with its summary', async () => {
    const yesterday = addDays(today, -1);
    const catalog = compileCatalog(compileCatalogSources(paths.catalog));
    await produceDailyReport({ store, catalog, timeZone: 'UTC', now: new Date(), date: yesterday, trigger: 'test' });
    const response = await fetch(`${hosting}/api/report/${yesterday}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(
      mode === 'protected' ? 'private, max-age=31536000, immutable' : 'public, max-age=31536000, immutable',
    );
    const report = (await response.json()) as { date: string; asOf: string; summary: unknown };
    expect(report.date).toBe(yesterday);
    expect(report.asOf).toBe(`${today}T00:00:00.000Z`);
    const list = (await (await fetch(`${hosting}/api/report`, { headers: auth })).json()) as {
      timeZone: string;
      today: string;
      reports: { date: string; summary: unknown }[];
    };
    expect(list.timeZone).toBe('UTC');
    expect(list.today).toBe(today);
    expect(list.reports.find((entry) => entry.date === yesterday)?.summary).toEqual(report.summary);
    const notModified = await fetch(`${hosting}/api/report/${yesterday}`, {
      headers: { ...auth, 'If-None-Match': response.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
  });

  it('exports a report as OSCAL Assessment Results that validate against the NIST schema', async () => {
    const response = await fetch(`${hosting}/api/report/${today}/oscal`, { headers: auth });
    expect(response.status).toBe(200);
    const document = await response.json();
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, '../fixtures/oscal/oscal_assessment-results_schema-1.0.6.json'), 'utf8'),
    ) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(document), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });
});

describe('submissions', () => {
  const submit = (statement: string, file = 'minutes of the board meeting') => {
    const form = new FormData();
    form.append('controls', 'PPL-06');
    form.append('controls', 'PPL-07');
    form.append('statement', statement);
    form.append('attachments', new Blob([file], { type: 'text/plain' }), 'minutes.txt');
    return fetch(`${hosting}/api/submissions`, { method: 'POST', headers: auth, body: form });
  };

  it('stores the files with their SHA-256, becomes attestation evidence, and serves the files back', async () => {
    const response = await submit('Roles are assigned in the security charter.');
    expect(response.status).toBe(201);
    const submission = (await response.json()) as {
      id: string;
      evidenceId: string;
      submittedBy: { uid: string };
      attachments: { name: string; mediaType: string; size: number; sha256: string; href: string }[];
    };
    expect(response.headers.get('location')).toBe(`/api/submissions/${submission.id}`);
    expect(submission.submittedBy.uid).toBe(uid);
    expect(submission.attachments).toEqual([
      {
        name: 'minutes.txt',
        mediaType: 'text/plain',
        size: 28,
        sha256: createHash('sha256').update('minutes of the board meeting').digest('hex'),
        href: `/api/submissions/${submission.id}/attachments/0`,
      },
    ]);
    const evidence = (await (await fetch(`${hosting}/api/evidence/${submission.evidenceId}`, { headers: auth })).json()) as {
      kind: string;
      controls: string[];
      data: { statement: string };
    };
    expect(evidence.kind).toBe('attestation');
    expect(evidence.controls).toEqual(['PPL-06', 'PPL-07']);
    expect(evidence.data.statement).toBe('Roles are assigned in the security charter.');

    const download = await fetch(hosting + submission.attachments[0]!.href, { headers: auth });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/plain');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="minutes.txt"; filename*=UTF-8''minutes.txt`);
    expect(download.headers.get('x-content-sha256')).toBe(submission.attachments[0]!.sha256);
    expect(await download.text()).toBe('minutes of the board meeting');
  });

  it.each([
    [
      'no longer matches its SHA-256',
      async (name: string) => {
        const stored = await store.stat(name);
        await store.replace(name, 'minutes of the board meeting, edited', stored.generation);
      },
    ],
    ['has gone missing, as it would an altered one', (name: string) => store.delete(name)],
  ])('refuses to serve a stored file that %s', async (_case, alter) => {
    const submission = (await (await submit('Tamper target.')).json()) as { id: string };
    await alter(`attachments/${submission.id}/0`);
    const download = await fetch(`${hosting}/api/submissions/${submission.id}/attachments/0`, { headers: auth });
    expect(download.status).toBe(409);
    expect(await download.json()).toEqual(
      expectedProblem(
        'attachment_tampered',
        `The stored file for attachment 0 of ${submission.id} does not have the SHA-256 recorded at upload; it was not served.`,
        `/api/submissions/${submission.id}/attachments/0`,
        download.headers.get('x-request-id')!,
      ),
    );
  });

  it('loses nothing when 100 submissions race, 8 in flight at a time', async () => {
    const statements = Array.from({ length: 100 }, (_, n) => `Concurrent statement ${n} ${randomUUID()}`);
    const responses = await inWaves(statements.length, 8, (n) => submit(statements[n]!));
    expect(responses.map((response) => response.status)).toEqual(statements.map(() => 201));
    const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { id: string }).id));
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await (
        await fetch(`${hosting}/api/submissions?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth })
      ).json()) as { items: { id: string }[]; nextCursor?: string };
      listed.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    for (const id of ids) expect(listed).toContain(id);
    expect(new Set(listed).size).toBe(listed.length);
  });
});
