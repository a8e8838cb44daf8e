/**
 * What a client can send as an upload, through real requests to the submissions family: file
 * names are cleaned (no directory, no control or bidi characters) and cut to length without
 * splitting a character, every stored name downloads — even one an earlier version stored
 * with half a surrogate pair — a body that ends before its closing boundary is a 400, and a
 * form is read only up to its limits (formLimits), however many parts it repeats.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSubmissionsFamily } from '../../../functions/src/families/submissions.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { formLimits } from '@evident/contract/upload-limits';
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

describe('form limits', () => {
  /** A form of `count` parts, each `part` between boundaries, then `rest` (whole parts) and the closing boundary. */
  const repeated = (count: number, part: string, rest = '') =>
    `--${boundary}\r\n${part}\r\n`.repeat(count) + rest + `--${boundary}--\r\n`;
  const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
  const statement = `--${boundary}\r\n${field('statement', 'Policy approved.')}\r\n`;

  async function refused(body: string) {
    const before = (await store.list('submissions/')).items.length;
    const response = await postForm(body);
    const problem = (await response.json()) as Record<string, unknown>;
    expect((await store.list('submissions/')).items).toHaveLength(before);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      problem,
      requestId: response.headers.get('x-request-id')!,
    };
  }

  it('answers 413 too_many_form_parts for 60,000 repeated controls fields (4 MB), reading no field past the 64th', async () => {
    const body = repeated(60_000, field('controls', 'IAM-01'), statement);
    expect(body.length).toBeGreaterThan(4_000_000);
    const result = await refused(body);
    expect(result.status).toBe(413);
    expect(result.type).toBe('application/problem+json');
    expect(result.problem).toEqual(
      expectedProblem(
        'too_many_form_parts',
        `The form has more than ${formLimits.fields} text fields, more than this operation reads; it was not read further.`,
        '/api/submissions',
        result.requestId,
      ),
    );
  });

  it('answers 413 too_many_form_parts for 60,000 parts that name no field', async () => {
    const result = await refused(repeated(60_000, 'Content-Type: text/plain\r\n\r\nnameless', statement));
    expect([result.status, result.problem]).toEqual([
      413,
      expectedProblem(
        'too_many_form_parts',
        `The form has more than ${formLimits.parts} parts, more than this operation reads; it was not read further.`,
        '/api/submissions',
        result.requestId,
      ),
    ]);
  });

  it('answers 413 too_many_form_parts past the files it reads, and 413 attachment_too_large with the count below that', async () => {
    const file = (index: number) =>
      `Content-Disposition: form-data; name="attachments"; filename="f${index}.txt"\r\nContent-Type: text/plain\r\n\r\nfile ${index}`;
    const files = (count: number) => Array.from({ length: count }, (_, index) => `--${boundary}\r\n${file(index)}\r\n`).join('');
    const past = await refused(repeated(1, field('controls', 'PPL-06'), statement + files(formLimits.files + 1)));
    expect([past.status, past.problem]).toEqual([
      413,
      expectedProblem(
        'too_many_form_parts',
        `The form has more than ${formLimits.files} files, more than this operation reads; it was not read further.`,
        '/api/submissions',
        past.requestId,
      ),
    ]);
    const read = await refused(repeated(1, field('controls', 'PPL-06'), statement + files(formLimits.files)));
    expect([read.status, read.problem]).toEqual([
      413,
      expectedProblem(
        'attachment_too_large',
        `${formLimits.files} files were attached; at most 5 are accepted.`,
        '/api/submissions',
        read.requestId,
      ),
    ]);
  });

  it('reads a form of exactly as many text fields as it allows, so the schema names what is wrong with it', async () => {
    const controls = Array.from(
      { length: formLimits.fields - 1 },
      (_, index) => `--${boundary}\r\n${field('controls', `ZZ-${100 + index}`)}\r\n`,
    );
    const result = await refused(`${controls.join('')}${statement}--${boundary}--\r\n`);
    expect([result.status, result.problem]).toEqual([
      400,
      expectedProblem(
        'invalid_request',
        'The body /controls must NOT have more than 50 items.',
        '/api/submissions',
        result.requestId,
        {
          errors: [{ in: 'body', pointer: '/controls', message: 'must NOT have more than 50 items' }],
        },
      ),
    ]);
  });

  it('answers 400 for a text field longer than it reads, naming the field', async () => {
    const result = await refused(
      repeated(1, field('controls', 'PPL-06'), `--${boundary}\r\n${field('statement', 'é'.repeat(8193))}\r\n`),
    );
    const message = `is longer than ${formLimits.fieldBytes} bytes`;
    expect([result.status, result.problem]).toEqual([
      400,
      expectedProblem('invalid_request', `The body /statement ${message}.`, '/api/submissions', result.requestId, {
        errors: [{ in: 'body', pointer: '/statement', message }],
      }),
    ]);
  });
});
