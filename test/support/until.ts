/**
 * Waiting for what the emulators do in their own time (a queued run, a cache that rechecks):
 * one polling helper, so every such wait has a deadline and fails there, naming what it
 * waited for and what it last saw, instead of letting the test carry on.
 */

/** Probes until `done` holds and returns that value; at the deadline, throws. */
export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Waited ${timeoutMs} ms for ${what}; the last probe gave ${JSON.stringify(value)}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
