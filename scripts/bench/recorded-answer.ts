/**
 * An HTTP answer as it came over the wire: status, headers in the order and spelling sent, and
 * the body's bytes. The same-bytes benchmarks record the function's answers and have a
 * hello-world replay them, then check the replay is the same answer.
 */
import { get } from 'node:http';

export interface RecordedAnswer {
  status: number;
  /** Name and value pairs as sent, `Date`, `Connection` and `Keep-Alive` left out (the runtime writes those). */
  headers: [string, string][];
  body: Buffer;
}

/** Headers the runtime (Node's HTTP server) adds to every answer, whatever the function does. */
const addedByRuntime = new Set(['date', 'connection', 'keep-alive']);

/** Headers whose value is new on every answer: the hello-world makes its own. */
export const perRequestHeaders = new Set(['x-request-id']);

/** The value of header `name` in `answer`, whatever its case, or undefined. */
export function headerOf(answer: RecordedAnswer, name: string): string | undefined {
  return answer.headers.find(([header]) => header.toLowerCase() === name)?.[1];
}

export function recordAnswer(url: string, headers: Record<string, string> = {}): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = response.rawHeaders;
        const pairs: [string, string][] = [];
        for (let i = 0; i < raw.length; i += 2) {
          if (!addedByRuntime.has(raw[i]!.toLowerCase())) pairs.push([raw[i]!, raw[i + 1]!]);
        }
        resolve({ status: response.statusCode!, headers: pairs, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/** Why `replay` is not the same answer as `original` (per-request values aside), or undefined when it is. */
export function differenceBetween(original: RecordedAnswer, replay: RecordedAnswer): string | undefined {
  if (original.status !== replay.status) return `status ${replay.status}, not ${original.status}`;
  const comparable = (answer: RecordedAnswer) =>
    answer.headers.map(
      ([name, value]) => `${name}: ${perRequestHeaders.has(name.toLowerCase()) ? `<${value.length} chars>` : value}`,
    );
  const [expected, actual] = [comparable(original), comparable(replay)];
  if (expected.join('\n') !== actual.join('\n')) return `headers\n  ${actual.join('\n  ')}\nnot\n  ${expected.join('\n  ')}`;
  if (!original.body.equals(replay.body))
    return `a body of ${replay.body.length} bytes, not the ${original.body.length} expected`;
  return undefined;
}
