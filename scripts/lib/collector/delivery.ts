/**
 * Sending one batch to `POST /api/evidence`: 429, 5xx and network errors are retried with
 * exponential back-off (honouring `Retry-After`), other answers are final.
 */
import { describeBatch, type Batch } from './batches.ts';
import { formatProblem, type Problem } from './problems.ts';

export const maxAttempts = 3;
export const firstRetryDelayMs = 500;

/** Who sends and how long it waits; tests pass a stand-in for both. */
export interface Transport {
  fetch?: typeof fetch;
  sleep?(ms: number): Promise<void>;
  err(line: string): void;
}

export interface SendOptions {
  token?: string;
  /** Per request; a timed-out request is retried like a network error. */
  timeoutMs?: number;
}

export type Outcome =
  | { kind: 'stored'; status: number; created: number; existing: number }
  | { kind: 'rejected'; status: number; lines: string[]; stop: boolean }
  | { kind: 'undelivered'; lines: string[] };

const retryable = (status: number) => status === 429 || status >= 500;

function retryDelay(attempt: number, retryAfter: string | null): number {
  const backoff = firstRetryDelayMs * 2 ** (attempt - 1);
  const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : 0;
  return Math.max(backoff, Math.min(seconds * 1000, 30_000));
}

/** One batch, with retries. Only 429, 5xx and network errors are retried: a 4xx would fail the same way again. */
export async function send(batch: Batch, endpoint: string, options: SendOptions, io: Transport): Promise<Outcome> {
  const doFetch = io.fetch ?? fetch;
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, application/problem+json',
  };
  if (batch.idempotencyKey) headers['Idempotency-Key'] = batch.idempotencyKey;
  if (options.token) headers['Authorization'] = `Bearer ${options.token}`;

  for (let attempt = 1; ; attempt++) {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(endpoint, {
        method: 'POST',
        headers,
        body: batch.body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      const reason = `${(error as Error).message}${cause?.message ? ` (${cause.message})` : ''}`;
      if (attempt < maxAttempts) {
        const delay = retryDelay(attempt, null);
        io.err(`${describeBatch(batch)}: ${reason}; retrying in ${delay} ms`);
        await sleep(delay);
        continue;
      }
      return {
        kind: 'undelivered',
        lines: [`${describeBatch(batch)}: not delivered after ${maxAttempts} attempts: ${reason}`],
      };
    }

    const body = parseBody(text);
    if (response.status === 200 || response.status === 201) {
      const results = (body as { items?: { status?: string }[] } | undefined)?.items;
      if (!Array.isArray(results)) {
        io.err(`${describeBatch(batch)}: answered ${response.status} without an IngestResult body`);
        const all = batch.items.length;
        return { kind: 'stored', status: response.status, created: response.status === 201 ? all : 0, existing: 0 };
      }
      const created = results.filter((result) => result.status === 'created').length;
      return { kind: 'stored', status: response.status, created, existing: results.length - created };
    }
    if (retryable(response.status) && attempt < maxAttempts) {
      const delay = retryDelay(attempt, response.headers.get('retry-after'));
      io.err(`${describeBatch(batch)}: answered ${response.status}; retrying in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    const lines = formatProblem(batch, response.status, body as Problem | undefined, text);
    if (retryable(response.status)) lines.push(`  gave up after ${maxAttempts} attempts`);
    return { kind: 'rejected', status: response.status, lines, stop: response.status === 401 || retryable(response.status) };
  }
}

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
