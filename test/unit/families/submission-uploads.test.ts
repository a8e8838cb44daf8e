/**
 * What a client can send as an upload, through real requests to the submissions family: file
 * names are cleaned (no directory, no control or bidi characters) and cut to length without
 * splitting a character, every stored name downloads — even one an earlier version stored
 * with half a surrogate pair — and a body that ends before its closing boundary is a 400.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSubmissionsFamily } from '../../../functions/src/families/submissions.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

const store = new MemoryStore();
const now = new Date('2026-11-21T09:00:00Z');
let served: Served;

beforeAll(async () => {
  setMode('public');
  served = await serve(
    createSubmissionsFamily({
      store: async () => store,
      catalog: () => compileCatalogSources(paths.catalog),
      now: () => now,
      timeZone: () => 'UTC',
      loadTable: tableOf('submissions'),
      verifyToken: fakeVerifier(),
    }),
  );
});
afterAll(() => served.close());
afterEach(() => vi.restoreAllMocks());

interface Created {
  id: string;
  attachments: { name: string; href: string }[];
}

/** Submits one text file under `name` and answers the stored submission. */
async function upload(name: string): Promise<Created> {
  const form = new FormData();
  form.append('controls', 'PPL-06');
  form.append('statement', 'Policy approved.');
  form.append('attachments', new Blob(['evidence'], { type: 'text/plain' }), name);
  const response = await fetch(`${served.url}/api/submissions`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as Created;
}

const boundary = 'evident-test-boundary';

/**
 * A submission form written by hand, up to the first bytes of its file's content: what a
 * FormData cannot send (any `filename` parameter) or would not cut short.
 */
function formUpToFile(filenameParameter: string, content: string): string {
  return [
    `--${boundary}`,
    'Content-Disposition: form-data; name="controls"',
    '',
    'PPL-06',
    `--${boundary}`,
    'Content-Disposition: form-data; name="statement"',
    '',
    'Policy approved.',
    `--${boundary}`,
    `Content-Disposition: form-data; name="attachments"; ${filenameParameter}`,
    'Content-Type: text/plain',
    '',
    content,
  ].join('\r\n');
}

function postForm(body: string): Promise<Response> {
  return fetch(`${served.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
}

/** Submits one text file whose Content-Disposition ends with `filenameParameter`, as raw bytes. */
async function uploadRaw(filenameParameter: string): Promise<Created> {
  const response = await postForm(`${formUpToFile(filenameParameter, 'evidence')}\r\n--${boundary}--\r\n`);
  expect(response.status).toBe(201);
  return (await response.json()) as Created;
}

async function download(href: string) {
  const response = await fetch(served.url + href);
  return { status: response.status, disposition: response.headers.get('content-disposition'), body: await response.text() };
}

describe('upload names', () => {
  it("cuts 'a'×199 + '😀.txt' to 200 code points without splitting the emoji, and the name downloads", async () => {
    const created = await upload(`${'a'.repeat(199)}😀.txt`);
    const name = created.attachments[0]!.name;
    expect(name).toBe(`${'a'.repeat(196)}.txt`);
    expect(await download(created.attachments[0]!.href)).toEqual({
      status: 200,
      disposition: `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      body: 'evidence',
    });
  });

  it('cuts a long name between user-perceived characters and keeps its extension', async () => {
    const thumb = '👍🏽'; // two code points, one character: a cut by code point would keep half of the second
    const created = await upload(`${'a'.repeat(194)}${thumb}${thumb}.txt`);
    expect(created.attachments[0]!.name).toBe(`${'a'.repeat(194)}${thumb}.txt`);
  });

  it('strips bidi controls and other control characters from the name', async () => {
    // U+202E shows "in\u202Etxt.exe" as "inexe.txt" in a file dialog; a browser sends such a
    // name raw, a client may send any bytes percent-encoded in filename*.
    const encoded = encodeURIComponent('in\u202Avo\u202Bi\u202Cc\u202De\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C');
    const created = await uploadRaw(`filename*=UTF-8''..%2F${encoded}%00%09%0A%1F%7F%C2%85%C2%9F.txt.exe`);
    expect(created.attachments[0]!.name).toBe('invoice.txt.exe');
  });

  it('keeps zero-width joiners, which join emoji, and names non-ASCII downloads with filename*', async () => {
    const family = '👩‍👩‍👧';
    const created = await upload(`Résumé ${family} 100%.txt`);
    expect(created.attachments[0]!.name).toBe(`Résumé ${family} 100%.txt`);
    expect((await download(created.attachments[0]!.href)).disposition).toBe(
      `attachment; filename="R_sum_ _____ 100_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20` +
        `%F0%9F%91%A9%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7%20100%25.txt`,
    );
  });

  it('names an attachment "attachment" when nothing printable is left of its name', async () => {
    const created = await upload('\u202E\u200F');
    expect(created.attachments[0]!.name).toBe('attachment');
  });

  it('downloads a name an earlier version stored with a lone surrogate, with U+FFFD in its place', async () => {
    const submissions = new SubmissionStore(store, new EvidenceStore(store));
    const stored = await submissions.create(
      {
        controls: ['PPL-06'],
        statement: 'Stored before names were cut by character.',
        subject: 'legacy',
        effectiveDate: '2026-11-21',
        notApplicable: false,
        submittedBy: { uid: 'user-1' },
        files: [{ name: `"it's" (v1)*\uD83D`, mediaType: 'text/plain', data: Buffer.from('legacy') }],
      },
      now,
    );
    expect(await download(stored.attachments[0]!.href)).toEqual({
      status: 200,
      disposition: `attachment; filename="_it's_ (v1)*_"; filename*=UTF-8''%22it%27s%22%20%28v1%29%2A%EF%BF%BD`,
      body: 'legacy',
    });
  });
});

describe('truncated uploads', () => {
  const head = formUpToFile('filename="evidence.txt"', 'the first half of the fi');

  async function post(body: string) {
    const failures = vi.spyOn(logs, 'requestFailed').mockImplementation(() => undefined);
    const response = await postForm(body);
    return { response, body: (await response.json()) as Record<string, unknown>, failures };
  }

  it.each([
    ['inside a file part', head],
    ['after a part, before the closing boundary', `${head}le\r\n--${boundary}\r\n`],
    ['inside the headers of a part', `${head}le\r\n--${boundary}\r\nContent-Disposition: form-da`],
  ])('answers 400 invalid_request for a body that ends %s', async (_where, body) => {
    const before = (await store.list('submissions/')).items.length;
    const result = await post(body);
    expect(result.response.status).toBe(400);
    expect(result.response.headers.get('content-type')).toBe('application/problem+json');
    expect(result.body).toEqual(
      expectedProblem(
        'invalid_request',
        'The body (root) ends before the closing boundary of the form; the upload was cut short.',
        '/api/submissions',
        result.response.headers.get('x-request-id')!,
        {
          errors: [
            { in: 'body', pointer: '', message: 'ends before the closing boundary of the form; the upload was cut short' },
          ],
        },
      ),
    );
    expect(result.failures).not.toHaveBeenCalled();
    expect((await store.list('submissions/')).items).toHaveLength(before);
  });
});
