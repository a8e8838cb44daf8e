/**
 * The collection run `npm run collect` sends evidence files under (docs/collectors.md,
 * "Collection runs"): opened for the files' one source and the kinds they hold, each batch sent
 * with `?run=<id>`, then completed with the count of each kind, so Evident can say whether it got
 * everything. A run is of one source: files of several sources are sent without one, as before,
 * and the collector says so. The run is opened once, never retried (a second run left open would
 * read as abandoned); a run that stops partway is cancelled, so it does not wait six hours to be
 * found incomplete, and a re-run opens a new one (items already stored answer "already present").
 */
import { plural } from '@evident/contract';
import type { Batch } from './batches.ts';
import type { CollectorIo, CollectorOptions } from './run-options.ts';

/** What the run will declare: its source and the distinct items of each kind. */
export interface RunShape {
  source: string;
  counts: Record<string, number>;
}

interface SentItem {
  id?: unknown;
  kind?: unknown;
  source?: unknown;
}

/**
 * The run the batches make, or why they make none: several sources. Items are counted as the
 * server counts them, distinct by id; an item without one gets an id of its own from the batch's
 * key, so it counts once.
 */
export function runShape(batches: readonly Batch[]): RunShape | { sources: string[] } {
  const sources = new Set<string>();
  const ids = new Map<string, Set<string>>();
  let unnamed = 0;
  for (const batch of batches) {
    for (const item of (JSON.parse(batch.body) as { items: SentItem[] }).items) {
      sources.add(String(item.source));
      const kind = String(item.kind);
      let seen = ids.get(kind);
      if (!seen) ids.set(kind, (seen = new Set()));
      seen.add(typeof item.id === 'string' ? item.id : `\u0000${unnamed++}`);
    }
  }
  if (sources.size !== 1) return { sources: [...sources].sort() };
  const counts = Object.fromEntries([...ids].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, seen]) => [kind, seen.size]));
  return { source: [...sources][0]!, counts };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One request to the runs API, answered or not; no retry (see the module's comment). */
async function call(url: string, body: unknown, options: CollectorOptions, io: CollectorIo): Promise<Answer | string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, application/problem+json',
  };
  if (options.token) headers['Authorization'] = `Bearer ${options.token}`;
  try {
    const response = await (io.fetch ?? fetch)(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch (error) {
    return (error as Error).message;
  }
}

function failure(what: string, answer: Answer | string): string {
  if (typeof answer === 'string') return `collect: could not ${what}: ${answer}`;
  const { code, detail } = answer.body;
  return `collect: could not ${what}: HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}${
    typeof detail === 'string' ? `: ${detail}` : ''
  }`;
}

const runsUrl = (options: CollectorOptions) => `${options.url.replace(/(?<!\/)\/+$/, '')}/api/runs`;

/** Opens the run; its id, or undefined when it could not be opened (said on `err`). */
export async function openRun(shape: RunShape, options: CollectorOptions, io: CollectorIo): Promise<string | undefined> {
  const answer = await call(runsUrl(options), { source: shape.source, kinds: Object.keys(shape.counts) }, options, io);
  if (typeof answer === 'string' || answer.status !== 201) {
    io.err(failure(`open a collection run for ${shape.source}`, answer));
    return undefined;
  }
  const id = String(answer.body['id']);
  io.out(`Run ${id}: opened for ${shape.source} (${plural(Object.keys(shape.counts).length, 'kind')})`);
  return id;
}

/** Completes the run with its counts; true when Evident found it complete. */
export async function completeRun(id: string, shape: RunShape, options: CollectorOptions, io: CollectorIo): Promise<boolean> {
  const answer = await call(`${runsUrl(options)}/${id}/complete`, { counts: shape.counts }, options, io);
  if (typeof answer === 'string' || answer.status !== 200) {
    io.err(failure(`complete run ${id}`, answer));
    return false;
  }
  if (answer.body['status'] === 'complete') {
    const items = Object.values(shape.counts).reduce((sum, count) => sum + count, 0);
    io.out(`Run ${id}: complete, ${plural(items, 'item')} as declared`);
    return true;
  }
  io.err(
    `Run ${id}: ${String(answer.body['status'])} (${String(answer.body['incompleteReason'])}): declared ` +
      `${JSON.stringify(answer.body['declared'])}, received ${JSON.stringify(answer.body['received'])}`,
  );
  return false;
}

/** Cancels a run that stopped partway, saying why; a failure to cancel is only reported (the run expires anyway). */
export async function cancelRun(id: string, reason: string, options: CollectorOptions, io: CollectorIo): Promise<void> {
  const answer = await call(`${runsUrl(options)}/${id}/cancel`, { reason }, options, io);
  if (typeof answer === 'string' || answer.status !== 200) io.err(failure(`cancel run ${id}`, answer));
  else io.err(`Run ${id}: cancelled (${reason})`);
}
