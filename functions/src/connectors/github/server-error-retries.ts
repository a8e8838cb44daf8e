/**
 * Retries of GitHub's failed answers, as an octokit plugin: what `@octokit/plugin-retry` does
 * (three retries, waiting 1, 4 and 9 units, of any answer from 400 up but those a retry cannot
 * change), without its queue. That plugin schedules every request through a Bottleneck limiter
 * of its own, whose store waits a timer tick (`setTimeout(0)`) to submit, register, start and free
 * each job, and it runs inside the throttling plugin's slot: four ticks of each of the ten calls
 * in flight spent idle (measured: ten in flight 41 % of the time, 55 % without them).
 *
 * Added last, this hook wraps the throttling plugin, so a retried request queues again there and
 * the back-off holds no slot; 429 and the secondary rate limit's 403 stay the throttling
 * plugin's, which waits the retry-after GitHub names.
 */
import type { Octokit } from 'octokit';
import { statusOf } from './github-failures.js';

export interface ServerErrorRetryOptions {
  /** What one unit of the back-off lasts (plugin-retry's `retryAfterBaseValue`): 1 s unless a test shortens it. */
  retryAfterBaseMs?: number;
}

const retries = 3;
/** plugin-retry's own list, with 429 (see above). */
const doNotRetry = new Set([400, 401, 403, 404, 410, 422, 429, 451]);

/** The plugin; its options come as the client's `serverErrorRetry`. */
export function serverErrorRetries(octokit: Pick<Octokit, 'hook'>, options: { [option: string]: unknown }) {
  const unitMs = (options['serverErrorRetry'] as ServerErrorRetryOptions | undefined)?.retryAfterBaseMs ?? 1000;
  octokit.hook.wrap('request', async (request, requestOptions) => {
    for (let retry = 0; ; retry++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const status = statusOf(error);
        if (retry >= retries || status === undefined || status < 400 || doNotRetry.has(status)) throw error;
        await delay((retry + 1) ** 2 * unitMs, requestOptions.request?.signal);
      }
    }
  });
  return {};
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
