/**
 * The same-bytes benchmark's check that its hello-world replays the function's answer: a replay
 * that differs in status, a header or the body is caught, so the yardstick cannot drift.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { differenceBetween, headerOf, recordAnswer, type RecordedAnswer } from '../../../scripts/bench/recorded-answer.ts';

const original: RecordedAnswer = {
  status: 200,
  headers: [
    ['X-Request-Id', '0b6c1f0e-7d55-4f8e-9a43-1c2d3e4f5a6b'],
    ['Cache-Control', 'no-cache'],
    ['Content-Type', 'application/json'],
  ],
  body: Buffer.from('{"authRequired":false}'),
};

describe('differenceBetween', () => {
  it('takes a replay with a new request id of the same length as the same answer', () => {
    const replay = {
      ...original,
      headers: original.headers.map(([n, v]): [string, string] => [n, n === 'X-Request-Id' ? 'f'.repeat(v.length) : v]),
    };
    expect(differenceBetween(original, replay)).toBeUndefined();
  });

  it('names a different status', () => {
    expect(differenceBetween(original, { ...original, status: 304 })).toBe('status 304, not 200');
  });

  it('names headers that differ in value, spelling or order', () => {
    const changed = (headers: [string, string][]) => differenceBetween(original, { ...original, headers });
    expect(changed([original.headers[0]!, ['Cache-Control', 'no-store'], original.headers[2]!])).toContain(
      'Cache-Control: no-store',
    );
    expect(changed([original.headers[0]!, ['cache-control', 'no-cache'], original.headers[2]!])).toContain(
      'cache-control: no-cache',
    );
    expect(changed([original.headers[1]!, original.headers[0]!, original.headers[2]!])).toMatch(/^headers/);
    expect(changed(original.headers.slice(0, 2))).toMatch(/^headers/);
  });

  it('names a different body', () => {
    expect(differenceBetween(original, { ...original, body: Buffer.from('{"authRequired":true}') })).toBe(
      'a body of 21 bytes, not the 22 expected',
    );
  });
});

describe('recordAnswer', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, ['X-Seen', req.headers['if-none-match'] ?? 'none', 'Content-Type', 'text/plain']);
      res.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps the headers as sent, without the ones Node adds to every answer', async () => {
    const answer = await recordAnswer(url, { 'If-None-Match': '"v1"' });
    expect(answer).toEqual({
      status: 200,
      headers: [
        ['X-Seen', '"v1"'],
        ['Content-Type', 'text/plain'],
        ['Transfer-Encoding', 'chunked'],
      ],
      body: Buffer.from('hello'),
    });
    expect([headerOf(answer, 'content-type'), headerOf(answer, 'etag')]).toEqual(['text/plain', undefined]);
  });
});
