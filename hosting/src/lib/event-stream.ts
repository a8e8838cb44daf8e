/**
 * Follows one of the API's resumable server-sent event streams over `fetch`: it reconnects
 * whenever the server or a proxy ends the connection, resumes with `Last-Event-ID`, and hands
 * the caller every event exactly once and in order, never a half-received one. `EventSource`
 * cannot do this job: it sends no `Authorization` header and hides the server's problems.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError, type Problem } from './api.ts';

export interface StreamEvent<T = unknown> {
  id: string;
  type: string;
  data: T;
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

export interface FollowOptions<T> {
  onEvent(event: StreamEvent<T>): void;
  /** Extra request headers, asked for before every connection so a refreshed token is used. */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Resume after this event on the first connection. */
  lastEventId?: string;
  /**
   * The first connection's response when the caller already has it (a POST that answers with
   * the stream); it is read like any connection, and later ones go to `url`.
   */
  opened?: Response;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Called on a 401 before the one retry it earns; the app refreshes its ID token here. */
  onUnauthorized?: () => Promise<void> | void;
  /** Stop right after an event this accepts, without asking the server for more. */
  isTerminal?: (event: StreamEvent<T>) => boolean;
  /** `failures` counts consecutive attempts that failed without delivering an event. */
  onConnectionChange?: (state: ConnectionState, info?: { failures: number; delayMs: number }) => void;
  /** Give up after this many consecutive failed attempts; default 8. */
  maxFailures?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A connection that ended before the stream finished: how many events it delivered, and what broke it if anything did. */
interface Interruption {
  finished: false;
  retryNow?: false;
  received: number;
  error?: unknown;
  retryAfterMs?: number | undefined;
}

/** How one connection attempt ended, as far as reconnecting is concerned. */
type Ending = { finished: true } | { finished: false; retryNow: true } | Interruption;

/** What one follow carries from each connection to the next. */
interface Follow<T> {
  readonly url: string;
  readonly options: FollowOptions<T>;
  readonly fetcher: typeof fetch;
  lastEventId: string | undefined;
  opened: Response | undefined;
  retryMs: number;
  // One retry per 401, earned again by every connection that opens: an ID token expires
  // hourly, so a long follow may legitimately need several refreshes.
  refreshed: boolean;
}

const MAX_DELAY_MS = 30_000;

export async function followEventStream<T>(url: string, options: FollowOptions<T>): Promise<{ lastEventId: string | undefined }> {
  const { signal, onConnectionChange } = options;
  const sleep = options.sleep ?? wait;
  const maxFailures = options.maxFailures ?? 8;
  const follow: Follow<T> = {
    url,
    options,
    fetcher: options.fetch ?? globalThis.fetch,
    lastEventId: options.lastEventId,
    opened: options.opened,
    retryMs: 1000,
    refreshed: false,
  };
  let failures = 0;

  onConnectionChange?.('connecting');
  for (;;) {
    signal?.throwIfAborted();
    const ending = await connect(follow);
    if (ending.finished) return { lastEventId: follow.lastEventId };
    if (ending.retryNow) continue;
    const next = nextAttempt(follow, ending, failures, maxFailures);
    failures = next.failures;
    onConnectionChange?.('reconnecting', next);
    await sleep(next.delayMs, signal);
  }
}

// Resolves how the connection ended; rejects only for what retrying cannot fix.
async function connect<T>(follow: Follow<T>): Promise<Ending> {
  const response = await open(follow);
  if ('finished' in response) return response;
  const type = response.headers.get('Content-Type') ?? '';
  if (!/^text\/event-stream\s*(;|$)/i.test(type)) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`${follow.url} answered 200 with Content-Type "${type}" instead of text/event-stream.`);
  }
  follow.refreshed = false;
  follow.options.onConnectionChange?.('open');
  if (!response.body) return { finished: false, received: 0 };
  return readEvents(follow, response.body);
}

/** The response to read events from, or how the attempt ended before there was one. */
async function open<T>(follow: Follow<T>): Promise<Response | Ending> {
  const { options, url } = follow;
  const { signal } = options;
  const headers: Record<string, string> = { ...(await options.headers?.()), Accept: 'text/event-stream' };
  if (follow.lastEventId !== undefined) headers['Last-Event-ID'] = follow.lastEventId;
  signal?.throwIfAborted();
  let response: Response;
  try {
    response = follow.opened ?? (await follow.fetcher(url, { headers, signal }));
  } catch (error) {
    signal?.throwIfAborted();
    return { finished: false, received: 0, error };
  } finally {
    follow.opened = undefined;
  }
  const { status } = response;
  if (status === 204) return { finished: true };
  if (status !== 200) return refused(follow, response);
  return response;
}

/** A status other than 200 or 204: worth a retry, or thrown. */
async function refused<T>(follow: Follow<T>, response: Response): Promise<Ending> {
  const { status } = response;
  const error = new ApiError(status, await problemOf(response));
  follow.options.signal?.throwIfAborted();
  if (status === 401 && !follow.refreshed) {
    follow.refreshed = true;
    await follow.options.onUnauthorized?.();
    return { finished: false, retryNow: true };
  }
  if (status >= 500 || status === 408 || status === 429) {
    return { finished: false, received: 0, error, retryAfterMs: retryAfterMs(response) };
  }
  throw error;
}

/** Reads one open connection to its end, handing every complete event on as it arrives. */
async function readEvents<T>(follow: Follow<T>, body: ReadableStream<Uint8Array>): Promise<Ending> {
  const { signal } = follow.options;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const messages: EventSourceMessage[] = [];
  // A fresh parser per connection, never reset({ consume: true }): an event cut off mid-way
  // dies with its connection, and the server replays it whole after Last-Event-ID.
  const parser = createParser({ onEvent: (message) => messages.push(message), onRetry: (ms) => (follow.retryMs = ms) });
  let received = 0;
  try {
    for (;;) {
      const chunk = await reader.read().catch((error: unknown) => ({ error }));
      if ('error' in chunk) {
        signal?.throwIfAborted();
        return { finished: false, received, error: chunk.error };
      }
      if (chunk.done) return { finished: false, received };
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      for (const message of messages.splice(0)) {
        const outcome = dispatch(follow, message);
        if (outcome === 'terminal') return { finished: true };
        if (outcome === 'dispatched') received += 1;
        // The caller may abort from onEvent; nothing after that event may reach it.
        signal?.throwIfAborted();
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function dispatch<T>(follow: Follow<T>, message: EventSourceMessage): 'skipped' | 'dispatched' | 'terminal' {
  const { url, options, lastEventId } = follow;
  const id = message.id ?? '';
  if (!/^[1-9]\d*$/.test(id)) throw new Error(`${url} sent an event whose id "${id}" is not a positive integer.`);
  // A correct server replays only what follows Last-Event-ID; this guards against one that does not.
  if (lastEventId !== undefined && Number(id) <= Number(lastEventId)) return 'skipped';
  let data: T;
  try {
    data = JSON.parse(message.data) as T;
  } catch (error) {
    throw new Error(`Event ${id} from ${url} does not carry JSON data: ${(error as Error).message}`, { cause: error });
  }
  const event: StreamEvent<T> = { id, type: message.event ?? 'message', data };
  follow.lastEventId = id;
  options.onEvent(event);
  return options.isTerminal?.(event) ? 'terminal' : 'dispatched';
}

/**
 * The consecutive failures after this interruption and the wait before reconnecting; throws
 * once too many attempts in a row have failed.
 */
function nextAttempt<T>(
  follow: Follow<T>,
  ending: Interruption,
  failures: number,
  maxFailures: number,
): { failures: number; delayMs: number } {
  if (ending.received > 0) failures = 0;
  // A connection that delivered events made progress, however it ended; a clean end without
  // events is the server's own time limit. Only an error without progress is a failure.
  if (ending.error === undefined || ending.received > 0) return { failures, delayMs: follow.retryMs };
  failures += 1;
  if (failures >= maxFailures) {
    if (ending.error instanceof ApiError) throw ending.error;
    throw new Error(`Following ${follow.url} failed ${failures} times in a row without receiving an event.`, {
      cause: ending.error,
    });
  }
  return { failures, delayMs: ending.retryAfterMs ?? backoff(follow.retryMs, failures) };
}

// Exponential from the server's retry hint, capped, with "equal jitter" (half fixed, half
// random) so clients cut off together by one proxy restart do not come back in lockstep.
function backoff(baseMs: number, failures: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, baseMs * 2 ** (failures - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After')?.trim();
  return value && /^\d+$/.test(value) ? Number(value) * 1000 : undefined;
}

async function problemOf(response: Response): Promise<Problem | undefined> {
  try {
    if (response.headers.get('Content-Type')?.startsWith('application/problem+json')) {
      return (await response.json()) as Problem;
    }
    await response.body?.cancel();
  } catch {
    // A problem body that cannot be read still leaves the status to report.
  }
  return undefined;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
