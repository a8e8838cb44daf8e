/**
 * The collector (scripts/lib/collector.ts): files parsed into items that remember their
 * file:line, batching at the API's limits, idempotency keys, problems mapped back to the input;
 * then whole runs of the CLI logic against a stand-in for `POST /api/evidence` on a real loopback
 * HTTP server, and the example files against the real evidence family.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultDueDays } from '../../functions/src/assessment/due-dates.ts';
import { createEvidenceFamily } from '../../functions/src/families/evidence.ts';
import { createRunsFamily } from '../../functions/src/families/runs.ts';
import { LocalFolderStore } from '../../functions/src/storage/local-folder-store.ts';
import {
  batchItems,
  formatProblem,
  idempotencyKey,
  InputError,
  locatePointer,
  main,
  parseCollectArgs,
  parseEvidenceFile,
  planBatches,
  runCollector,
  type CollectorIo,
  type CollectorOptions,
} from '../../scripts/lib/collector.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { everyItem } from '../support/every-item.ts';
import { fakeTokens, fakeVerifier, setMode, tableOf } from '../support/families.ts';
import { expectedProblem } from '../support/problems.ts';
import { serve } from '../support/serve.ts';

const user = (name: string, mfaEnabled = true) => ({
  kind: 'idp.user',
  subject: `${name}@example.com`,
  collectedAt: '2026-11-20T04:00:00Z',
  data: { email: `${name}@example.com`, active: true, mfaEnabled, admin: false, employmentStatus: 'active' },
});
const ndjson = (...lines: (object | string)[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The 1-based line of the `occurrence`-th (0-based) match of `needle` in `text`. */
const lineOf = (text: string, needle: string, occurrence = 0) => {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = text.indexOf(needle, at + 1);
  return text.slice(0, at).split('\n').length;
};

describe('parseEvidenceFile', () => {
  it('reads one item from a JSON file, with the line of every value in it', () => {
    const text = JSON.stringify(user('ada'), null, 2);
    const parsed = parseEvidenceFile('one.json', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.digest).toBe(sha256(text));
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0]!.item).toEqual(user('ada'));
    expect(parsed.items[0]!.origin).toEqual({ file: 'one.json', line: 1 });
    expect(parsed.items[0]!.lines?.get('/data/mfaEnabled')).toBe(lineOf(text, '"mfaEnabled"'));
  });

  it('reads an array of items, each from the line it starts on', () => {
    const text = JSON.stringify([user('ada'), user('grace')], null, 2);
    const parsed = parseEvidenceFile('array.json', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.items.map((entry) => entry.item)).toEqual([user('ada'), user('grace')]);
    expect(parsed.items.map((entry) => entry.origin.line)).toEqual([2, lineOf(text, '"kind"', 1) - 1]);
    expect(parsed.items[1]!.lines?.get('/subject')).toBe(lineOf(text, '"grace@example.com"'));
  });

  it('reads {"items": [...]}, keys with / and ~ included', () => {
    const odd = { ...user('ada'), data: { ...user('ada').data, 'a/b~c': { deep: [1, { x: true }] } } };
    const text = `{\n  "items": [\n    ${JSON.stringify(odd)},\n    ${JSON.stringify(user('grace'), null, 1)}\n  ]\n}\n`;
    const parsed = parseEvidenceFile('batch.json', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.items.map((entry) => entry.origin.line)).toEqual([3, 4]);
    expect(parsed.items[0]!.lines?.get('/data/a~1b~0c/deep/1/x')).toBe(3);
    expect(parsed.items[1]!.lines?.get('/data/email')).toBe(lineOf(text, '"email": "grace'));
  });

  it('reads NDJSON one item a line, skipping blank lines, with CRLF and a byte-order mark', () => {
    const text = '\uFEFF' + ndjson(user('ada'), '', '   ', user('grace'), user('linus')).replace(/\n/g, '\r\n');
    const parsed = parseEvidenceFile('users.ndjson', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.items.map((entry) => [entry.origin.line, entry.item['subject']])).toEqual([
      [1, 'ada@example.com'],
      [4, 'grace@example.com'],
      [5, 'linus@example.com'],
    ]);
    expect(parseEvidenceFile('users.JSONL', ndjson(user('ada'))).items).toHaveLength(1);
  });

  it('reports a malformed NDJSON line as file:line, and every other bad line too', () => {
    const parsed = parseEvidenceFile('users.ndjson', ndjson(user('ada'), '', '{"kind":"idp.user",', '[1]', '{"subject":"x"}'));
    expect(parsed.errors).toEqual([
      `users.ndjson:3: not valid JSON: Expected double-quoted property name (column 20)`,
      'users.ndjson:4: an evidence item must be a JSON object',
      'users.ndjson:5: the item has no "kind"',
    ]);
  });

  it('reports malformed JSON with its line, and documents that are not items', () => {
    expect(parseEvidenceFile('bad.json', '{\n  "kind": "idp.user",\n}\n').errors).toEqual([
      'bad.json:3:1: not valid JSON: Expected double-quoted property name',
    ]);
    expect(parseEvidenceFile('bad.json', '{"items": {"kind": "idp.user"}}').errors).toEqual([
      'bad.json:1: "items" must be an array of evidence items',
    ]);
    expect(parseEvidenceFile('bad.json', '"idp.user"').errors).toEqual([
      'bad.json:1: expected an evidence item, an array of items or {"items": [...]}',
    ]);
    expect(parseEvidenceFile('bad.json', '[\n  {"kind": "idp.user"},\n  {"kind": ""}\n]').errors).toEqual([
      'bad.json:3: the item has no "kind"',
    ]);
  });
});

describe('batching', () => {
  const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ item: { kind: 'k', n: index } }));

  it('fills batches up to the size, in order', () => {
    expect(batchItems(entries(500), 500).map((batch) => batch.length)).toEqual([500]);
    expect(batchItems(entries(501), 500).map((batch) => batch.length)).toEqual([500, 1]);
    expect(batchItems(entries(1000), 500).map((batch) => batch.length)).toEqual([500, 500]);
    const batches = batchItems(entries(5), 2);
    expect(batches.map((batch) => batch.map((entry) => entry.item.n))).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('starts a new batch before the body would pass the byte limit, and refuses an item that alone would', () => {
    const item = { kind: 'k', n: 0 };
    const itemBytes = JSON.stringify(item).length;
    const limit = '{"items":[]}'.length + 2 * itemBytes + 1; // exactly two items and their comma
    expect(batchItems(entries(5), 500, limit).map((batch) => batch.length)).toEqual([2, 2, 1]);
    for (const batch of batchItems(entries(5), 500, limit)) {
      expect(JSON.stringify({ items: batch.map((entry) => entry.item) }).length).toBeLessThanOrEqual(limit);
    }
    const big = [{ item: { kind: 'k', blob: 'x'.repeat(100) }, origin: { file: 'big.ndjson', line: 7 } }];
    expect(() => batchItems(big, 500, 100)).toThrow(InputError);
    expect(() => batchItems(big, 500, 100)).toThrow(/^big\.ndjson:7: the item is \d+ bytes; a request may carry at most 100$/);
  });
});

describe('idempotency keys', () => {
  it('are stable across runs: a fixed function of the file contents and batch index', () => {
    expect(idempotencyKey('0'.repeat(64), 0)).toBe('collect-8d55bfa3ac9d6cafca4635450c03f65ad0263d929d6aea2b59252e92376c5f5c');
    expect(idempotencyKey('0'.repeat(64), 1)).toBe('collect-f0ccc74cc37171baa3ab440ac04ac0d6a11c10355daf30bc08c3487575cf588e');
    const text = ndjson(user('ada'), user('grace'), user('linus'));
    const first = planBatches(parseEvidenceFile('a.ndjson', text), 2);
    const again = planBatches(parseEvidenceFile('elsewhere/b.ndjson', Buffer.from(text)), 2);
    expect(again.map((batch) => batch.idempotencyKey)).toEqual(first.map((batch) => batch.idempotencyKey));
    expect(first.map((batch) => batch.idempotencyKey)).toEqual([0, 1].map((index) => idempotencyKey(sha256(text), index)));
  });

  it('differ per batch and per file contents, and fit the header the API accepts', () => {
    const keys = planBatches(parseEvidenceFile('a.ndjson', ndjson(...['a', 'b', 'c', 'd', 'e'].map((n) => user(n)))), 2).map(
      (batch) => batch.idempotencyKey,
    );
    const other = planBatches(parseEvidenceFile('a.ndjson', ndjson(user('z'))), 2)[0]!.idempotencyKey;
    expect(new Set([...keys, other]).size).toBe(4);
    for (const key of keys) expect(key).toMatch(/^[\x21-\x7e]{8,200}$/);
  });
});

describe('formatProblem', () => {
  const problem = (pointer: string) => ({
    ...expectedProblem('invalid_request', `The body ${pointer} must be boolean.`, '/api/evidence', 'req-7', {
      errors: [{ in: 'body', pointer, message: 'must be boolean' }],
    }),
  });

  it('maps /items/3/data/mfaEnabled back to the NDJSON line the fourth item came from', () => {
    const text = ndjson(user('ada'), '', user('grace'), user('linus'), '', user('ken', 'yes' as unknown as boolean));
    const [batch] = planBatches(parseEvidenceFile('users.ndjson', text), 200);
    expect(locatePointer(batch!, '/items/3/data/mfaEnabled')).toEqual({ file: 'users.ndjson', line: 6 });
    expect(formatProblem(batch!, 400, problem('/items/3/data/mfaEnabled'))).toEqual([
      'users.ndjson batch 1/1 (4 items, lines 1-6): rejected: 400 invalid_request: The body /items/3/data/mfaEnabled must be boolean.',
      '  users.ndjson:6: /items/3/data/mfaEnabled must be boolean',
      '  requestId: req-7',
    ]);
  });

  it('maps a pointer to the exact line in a JSON file, counting items of earlier batches', () => {
    const text = JSON.stringify({ items: ['ada', 'grace', 'linus', 'ken', 'alan'].map((name) => user(name)) }, null, 2);
    const mfaOfKen = lineOf(text, '"mfaEnabled"', 3);
    const batches = planBatches(parseEvidenceFile('users.json', text), 200);
    expect(formatProblem(batches[0]!, 400, problem('/items/3/data/mfaEnabled'))[1]).toBe(
      `  users.json:${mfaOfKen}: /items/3/data/mfaEnabled must be boolean`,
    );
    // In batches of 2 the fourth item is the second of batch 2.
    const small = planBatches(parseEvidenceFile('users.json', text), 2);
    expect(locatePointer(small[1]!, '/items/1/data/mfaEnabled')).toEqual({ file: 'users.json', line: mfaOfKen });
    // A value the file does not have (a missing field) is placed at its nearest parent.
    expect(locatePointer(small[1]!, '/items/1/data/lastLoginDaysAgo')).toEqual({
      file: 'users.json',
      line: lineOf(text, '"data"', 3),
    });
    expect(locatePointer(small[1]!, '/items/9/kind')).toBeUndefined();
  });

  it('names header errors and pointerless problems, and hints at what to do', () => {
    const [batch] = planBatches(parseEvidenceFile('u.ndjson', ndjson(user('ada'))), 200);
    expect(
      formatProblem(batch!, 400, {
        code: 'invalid_request',
        detail: 'The header parameter "Idempotency-Key" must match pattern.',
        errors: [{ in: 'header', name: 'Idempotency-Key', message: 'must match pattern' }],
      }),
    ).toEqual([
      'u.ndjson batch 1/1 (1 item, line 1): rejected: 400 invalid_request: The header parameter "Idempotency-Key" must match pattern.',
      '  header "Idempotency-Key" must match pattern',
    ]);
    expect(formatProblem(batch!, 401, { code: 'unauthenticated', detail: 'Needs a token.' })[1]).toMatch(/^ {2}hint: .*--token/);
    expect(formatProblem(batch!, 502, undefined, '<html>Bad gateway</html>')).toEqual([
      'u.ndjson batch 1/1 (1 item, line 1): rejected: HTTP 502: <html>Bad gateway</html>',
    ]);
  });
});

describe('parseCollectArgs', () => {
  it('applies defaults and environment variables; options win over the environment', () => {
    expect(parseCollectArgs(['a.json'])).toEqual({
      kind: 'run',
      options: { files: ['a.json'], url: 'http://127.0.0.1:5000', batchSize: 200, dryRun: false, run: true },
    });
    const env = { EVIDENT_URL: 'https://evident.example.com', EVIDENT_TOKEN: 'from-env' };
    expect(parseCollectArgs(['a.json'], env)).toMatchObject({ options: { url: env.EVIDENT_URL, token: 'from-env' } });
    expect(parseCollectArgs(['--url', 'http://h:1', '--token', 't', 'a.json'], env)).toMatchObject({
      options: { url: 'http://h:1', token: 't' },
    });
  });

  it.each([
    [[], 'no file given'],
    [['--batch-size', '501', 'a.json'], '--batch-size must be a whole number from 1 to 500'],
    [['--batch-size', '0', 'a.json'], '--batch-size must be a whole number from 1 to 500'],
    [['--url', 'ftp://x', 'a.json'], '--url "ftp://x" is not an http(s) URL'],
    [['--token', '', 'a.json'], '--token is empty (is the variable you passed set?)'],
    [['--source', ' ', 'a.json'], '--source must be 1 to 200 characters'],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(parseCollectArgs(argv)).toEqual({ kind: 'usage', message });
  });

  it('exits 2 on a usage error and 0 for --help', async () => {
    const io = capture();
    expect(await main(['--frobnicate', 'a.json'], {}, io)).toBe(2);
    expect(io.errors[0]).toMatch(/^collect: Unknown option '--frobnicate'/);
    expect(await main(['--help'], {}, io)).toBe(0);
    expect(io.output.join('\n')).toMatch(/^Usage: node scripts\/collect\.ts/);
  });
});

// ---------------------------------------------------------------------------------------------

interface Captured extends CollectorIo {
  output: string[];
  errors: string[];
  sleeps: number[];
}

function capture(): Captured {
  const io: Captured = {
    output: [],
    errors: [],
    sleeps: [],
    out: (line) => io.output.push(line),
    err: (line) => io.errors.push(line),
    sleep: async (ms) => {
      io.sleeps.push(ms);
    },
  };
  return io;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A stand-in for the evidence endpoint (`POST /api/evidence`), not the real family: it records
 * every request and answers as the API does for what these tests send — 201 with an
 * `IngestResult` the first time it sees an `Idempotency-Key`, 200 with every item `existing` on a
 * repeat, and a 400 `invalid_request` problem for a batch with an item of kind "nope". `script`
 * holds statuses to answer first, one per request, to exercise retries.
 */
class EvidenceEndpointStandIn {
  readonly received: Received[] = [];
  readonly script: number[] = [];
  readonly #seen = new Set<string>();
  readonly #server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      this.received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const requestId = `req-${this.received.length}`;
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        const problem = status >= 400;
        res.writeHead(status, { 'Content-Type': problem ? 'application/problem+json' : 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      const scripted = this.script.shift();
      if (scripted === 401) {
        const detail = 'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.';
        return answer(401, expectedProblem('unauthenticated', detail, '/api/evidence', requestId));
      }
      if (scripted === 429) return answer(429, { code: 'rate_limited' }, { 'Retry-After': '2' });
      if (scripted) {
        return answer(
          scripted,
          expectedProblem('internal', 'The server failed to answer this request.', '/api/evidence', requestId),
        );
      }
      const items = (JSON.parse(body) as { items: { kind: string }[] }).items;
      const bad = items.findIndex((item) => item.kind === 'nope');
      if (bad !== -1) {
        const pointer = `/items/${bad}/kind`;
        const message = 'must be equal to one of the allowed values';
        return answer(
          400,
          expectedProblem('invalid_request', `The body ${pointer} ${message}.`, '/api/evidence', requestId, {
            errors: [{ in: 'body', pointer, message }],
          }),
        );
      }
      const key = String(req.headers['idempotency-key']);
      const repeat = this.#seen.has(key);
      this.#seen.add(key);
      const prefix = `k-${sha256(key).slice(0, 24)}`;
      const results = items.map((_, index) => ({ id: `${prefix}-${index}`, status: repeat ? 'existing' : 'created' }));
      return answer(repeat ? 200 : 201, { items: results });
    });
  });

  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

describe('runCollector against a stand-in for POST /api/evidence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evident-collect-'));
  const endpoint = new EvidenceEndpointStandIn();
  const file = (name: string, content: string) => {
    writeFileSync(join(dir, name), content);
    return { path: join(dir, name), digest: sha256(content) };
  };
  const users = file('users.ndjson', ndjson(user('ada'), '', { ...user('grace'), source: 'hr-sync' }, user('linus')));
  const reposText = JSON.stringify(
    {
      items: [
        {
          kind: 'repo.branch_protection',
          subject: 'acme/payments-api',
          collectedAt: '2026-11-20T04:00:00Z',
          data: { defaultBranch: 'main', protected: true },
        },
        { kind: 'nope', subject: 'acme/payments-api', collectedAt: '2026-11-20T04:00:00Z', data: {} },
      ],
    },
    null,
    2,
  );
  const repos = file('repos.json', reposText);
  const options = (overrides: Partial<CollectorOptions>): CollectorOptions => ({
    files: [],
    url: endpoint.url,
    batchSize: 200,
    dryRun: false,
    ...overrides,
  });
  const bodyOf = (...items: object[]) => JSON.stringify({ items });

  beforeAll(() => endpoint.start());
  afterAll(async () => {
    await endpoint.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    endpoint.received.length = 0;
    endpoint.script.length = 0;
  });

  it('sends each file as a keyed batch, reports the rejected one at its file:line, and exits 1', async () => {
    const io = capture();
    const result = await runCollector(
      options({ files: [users.path, repos.path], token: 'test-token', source: 'okta-collector' }),
      io,
    );

    expect(
      endpoint.received.map(({ method, url, headers, body }) => ({
        method,
        url,
        headers: {
          authorization: headers.authorization,
          'idempotency-key': headers['idempotency-key'],
          'content-type': headers['content-type'],
          accept: headers.accept,
        },
        body,
      })),
    ).toEqual([
      {
        method: 'POST',
        url: '/api/evidence',
        headers: {
          authorization: 'Bearer test-token',
          'idempotency-key': idempotencyKey(users.digest, 0),
          'content-type': 'application/json',
          accept: 'application/json, application/problem+json',
        },
        body: bodyOf(
          { ...user('ada'), source: 'okta-collector' },
          { ...user('grace'), source: 'hr-sync' },
          { ...user('linus'), source: 'okta-collector' },
        ),
      },
      {
        method: 'POST',
        url: '/api/evidence',
        headers: {
          authorization: 'Bearer test-token',
          'idempotency-key': idempotencyKey(repos.digest, 0),
          'content-type': 'application/json',
          accept: 'application/json, application/problem+json',
        },
        body: bodyOf(
          ...(JSON.parse(reposText) as { items: object[] }).items.map((item) => ({ ...item, source: 'okta-collector' })),
        ),
      },
    ]);

    expect(result).toEqual({ exitCode: 1, summary: { created: 3, existing: 0, rejected: 2, notSent: 0 } });
    expect(io.output).toEqual([
      `${users.path} batch 1/1 (3 items, lines 1-4): 201, created 3, already present 0`,
      'Summary: created 3, already present 0, rejected 2',
    ]);
    expect(io.errors).toEqual([
      `${repos.path} batch 1/1 (2 items, lines 3-12): rejected: 400 invalid_request: ` +
        'The body /items/1/kind must be equal to one of the allowed values.',
      `  ${repos.path}:${lineOf(reposText, '"nope"')}: /items/1/kind must be equal to one of the allowed values`,
      '  requestId: req-2',
    ]);
    expect(io.sleeps).toEqual([]);
  });

  it('sends the same key again on a re-run, which stores nothing twice, and exits 0', async () => {
    const again = file('again.ndjson', ndjson(user('ada'), user('grace')));
    await runCollector(options({ files: [again.path] }), capture());
    const io = capture();
    const result = await runCollector(options({ files: [again.path] }), io);
    expect(endpoint.received.map((request) => [request.headers['idempotency-key'], request.headers.authorization])).toEqual([
      [idempotencyKey(again.digest, 0), undefined],
      [idempotencyKey(again.digest, 0), undefined],
    ]);
    expect(endpoint.received[1]!.body).toBe(endpoint.received[0]!.body);
    expect(result).toEqual({ exitCode: 0, summary: { created: 0, existing: 2, rejected: 0, notSent: 0 } });
    expect(io.output.at(-1)).toBe('Summary: created 0, already present 2, rejected 0');
  });

  it('splits a file into batches with a key each', async () => {
    const many = file('many.ndjson', ndjson(...['a', 'b', 'c', 'd', 'e'].map((name) => user(name))));
    const result = await runCollector(options({ files: [many.path], batchSize: 2 }), capture());
    expect(endpoint.received.map((request) => request.headers['idempotency-key'])).toEqual(
      [0, 1, 2].map((index) => idempotencyKey(many.digest, index)),
    );
    expect(endpoint.received.map((request) => (JSON.parse(request.body) as { items: unknown[] }).items.length)).toEqual([
      2, 2, 1,
    ]);
    expect(result.summary.created).toBe(5);
  });

  it('retries 503 and 429 with back-off, the same request each time', async () => {
    endpoint.script.push(503, 429);
    const once = file('once.ndjson', ndjson(user('ada')));
    const io = capture();
    const result = await runCollector(options({ files: [once.path] }), io);
    expect(endpoint.received).toHaveLength(3);
    expect(new Set(endpoint.received.map((request) => request.body + request.headers['idempotency-key'])).size).toBe(1);
    expect(io.sleeps).toEqual([500, 2000]); // the second waits as long as Retry-After asks
    expect(result).toEqual({ exitCode: 0, summary: { created: 1, existing: 0, rejected: 0, notSent: 0 } });
  });

  it('gives up after 3 attempts and leaves the remaining batches for the next run', async () => {
    endpoint.script.push(500, 500, 500);
    const io = capture();
    const result = await runCollector(options({ files: [users.path, repos.path] }), io);
    expect(endpoint.received).toHaveLength(3);
    expect(io.sleeps).toEqual([500, 1000]);
    expect(io.errors).toContain('  gave up after 3 attempts');
    expect(result).toEqual({ exitCode: 1, summary: { created: 0, existing: 0, rejected: 3, notSent: 2 } });
    expect(io.output.at(-1)).toBe('Summary: created 0, already present 0, rejected 3, not sent 2');
  });

  it('never retries a 4xx: a 401 is reported once, with its code, and stops the run', async () => {
    endpoint.script.push(401);
    const io = capture();
    const result = await runCollector(options({ files: [users.path, repos.path], token: 'expired' }), io);
    expect(endpoint.received).toHaveLength(1);
    expect(io.errors[0]).toBe(
      `${users.path} batch 1/1 (3 items, lines 1-4): rejected: 401 unauthenticated: ` +
        'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
    );
    expect(result).toEqual({ exitCode: 1, summary: { created: 0, existing: 0, rejected: 3, notSent: 2 } });
  });

  it('retries network errors, then reports the batch as not delivered', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const io = capture();
    const result = await runCollector(options({ files: [users.path], url }), io);
    expect(io.sleeps).toEqual([500, 1000]);
    expect(io.errors.at(-2)).toMatch(/batch 1\/1 \(3 items, lines 1-4\): not delivered after 3 attempts: fetch failed/);
    expect(result).toEqual({ exitCode: 1, summary: { created: 0, existing: 0, rejected: 0, notSent: 3 } });
  });

  it('sends nothing when any line of any file is malformed', async () => {
    const broken = file('broken.ndjson', ndjson(user('ada'), '{"kind": "idp.user"', user('grace')));
    const io = capture();
    expect(await main(['--url', endpoint.url, users.path, broken.path], {}, io)).toBe(1);
    expect(endpoint.received).toEqual([]);
    expect(io.errors).toEqual([
      `${broken.path}:2: not valid JSON: Expected ',' or '}' after property value (column 20)`,
      'collect: 1 problem in the input; nothing was sent.',
    ]);
  });

  it('prints the batches and sends nothing in a dry run', async () => {
    const io = capture();
    expect(await main(['--url', endpoint.url, '--dry-run', '--batch-size', '2', users.path], {}, io)).toBe(0);
    expect(endpoint.received).toEqual([]);
    expect(io.output).toEqual([
      expect.stringMatching(
        new RegExp(`^${users.path} batch 1/2 \\(2 items, lines 1-3\\): \\d+ bytes, Idempotency-Key collect-`),
      ),
      `  ${users.path}:1 idp.user ada@example.com`,
      `  ${users.path}:3 idp.user grace@example.com`,
      expect.stringMatching(/ batch 2\/2 \(1 item, line 4\): /),
      `  ${users.path}:4 idp.user linus@example.com`,
      'Dry run: 3 items in 2 batches from 1 file; nothing was sent.',
    ]);
  });

  it('exits 2 for a file it cannot read', async () => {
    const io = capture();
    expect(await main([join(dir, 'missing.json')], {}, io)).toBe(2);
    expect(io.errors[0]).toMatch(/^collect: cannot read .*missing\.json: ENOENT/);
  });
});

/** The evidence and runs families on one loopback server, over a local folder store, in protected mode. */
async function serveEvidenceAndRuns(store: string) {
  const common = {
    verifyToken: fakeVerifier(),
    store: async () => new LocalFolderStore(store),
    catalog: () => ({ version: 'test', controls: [], frameworks: [], dueDays: defaultDueDays }),
  };
  const evidence = createEvidenceFamily({ ...common, loadTable: tableOf('evidence') });
  const runs = createRunsFamily({ ...common, loadTable: tableOf('runs') });
  return serve((request, response) => (request.url?.startsWith('/api/runs') ? runs : evidence)(request, response));
}

describe('the example files against the real evidence family', () => {
  const store = mkdtempSync(join(tmpdir(), 'evident-collect-store-'));
  afterAll(() => rmSync(store, { recursive: true, force: true }));
  const examples = ['idp-users.ndjson', 'repos.json'].map((name) => join(paths.root, 'examples', 'collectors', name));

  it('are accepted as they are, and a re-run stores nothing new', async () => {
    setMode('protected');
    const server = await serveEvidenceAndRuns(store);
    try {
      const first = capture();
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, ...examples], {}, first)).toBe(0);
      expect(first.output.at(-1)).toBe('Summary: created 6, already present 0, rejected 0');
      const stored = () => everyItem(new LocalFolderStore(store)).then((items) => items.length);
      expect(await stored()).toBe(6);
      // The same keys again: the API answers from the first run and writes no item twice.
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, ...examples], {}, capture())).toBe(0);
      expect(await stored()).toBe(6);
      expect(readFileSync(examples[0]!, 'utf8').trim().split('\n')).toHaveLength(4);

      // What the docs show for a refused batch: the API's pointer, mapped back to the line.
      const users = readFileSync(examples[0]!, 'utf8').trim().split('\n');
      const wrong = users[3]!.replace('"mfaEnabled":true', '"mfaEnabled":"yes"');
      const bad = join(store, 'users.ndjson');
      writeFileSync(bad, [users[0], '', users[1], users[2], '', wrong].join('\n'));
      const refused = capture();
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, bad], {}, refused)).toBe(1);
      expect(refused.errors).toEqual([
        `${bad} batch 1/1 (4 items, lines 1-6): rejected: 400 invalid_request: The body /items/3/data/mfaEnabled must be boolean.`,
        `  ${bad}:6: /items/3/data/mfaEnabled must be boolean`,
        expect.stringMatching(/^ {2}requestId: [0-9a-f-]{36}$/),
        expect.stringMatching(
          /^Run run-[0-9a-z]{9}-[0-9a-f]{12}: cancelled \(the collector stopped before sending every batch\)$/,
        ),
      ]);
      expect(refused.output).toEqual([
        expect.stringMatching(/^Run run-[0-9a-z]{9}-[0-9a-f]{12}: opened for okta-collector \(1 kind\)$/),
        'Summary: created 0, already present 0, rejected 4',
      ]);
    } finally {
      await server.close();
      setMode('public');
    }
  });

  it("sends one source's file under a collection run, completed with its counts; --no-run sends it without one", async () => {
    setMode('protected');
    const own = mkdtempSync(join(tmpdir(), 'evident-collect-runs-'));
    const server = await serveEvidenceAndRuns(own);
    try {
      const io = capture();
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, examples[0]!], {}, io)).toBe(0);
      expect(io.errors).toEqual([]);
      const id = /^Run (run-[0-9a-z]{9}-[0-9a-f]{12}): opened for okta-collector \(1 kind\)$/.exec(io.output[0]!)![1]!;
      expect(io.output.slice(1)).toEqual([
        expect.stringMatching(/: 201, created 4, already present 0$/),
        `Run ${id}: complete, 4 items as declared`,
        'Summary: created 4, already present 0, rejected 0',
      ]);
      const run = (await (
        await fetch(`${server.url}/api/runs/${id}`, { headers: { Authorization: `Bearer ${fakeTokens.valid}` } })
      ).json()) as { status: string; declared: object; received: object };
      expect([run.status, run.declared, run.received]).toEqual(['complete', { 'idp.user': 4 }, { 'idp.user': 4 }]);

      const without = capture();
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, '--no-run', examples[0]!], {}, without)).toBe(0);
      expect(without.output.some((line) => line.startsWith('Run '))).toBe(false);
      // Files of two sources: sent as before, and the collector says why without a run.
      const both = capture();
      expect(await main(['--url', server.url, '--token', fakeTokens.valid, ...examples], {}, both)).toBe(0);
      expect(both.output[0]).toBe(
        "Sent without a collection run: a run is of one source, and the files name 2 sources (send each source's files on their own, or set --source).",
      );
    } finally {
      await server.close();
      rmSync(own, { recursive: true, force: true });
      setMode('public');
    }
  });
});
