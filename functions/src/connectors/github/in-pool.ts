/**
 * Maps an async stream through `work`, at most `size` at once, yielding each result as it is
 * ready (in no particular order): only `size` entries and their results are held, never the
 * stream. The first failure is thrown once the results finished before it have been yielded.
 */
export async function* inPool<T, R>(entries: AsyncIterable<T>, size: number, work: (entry: T) => Promise<R>): AsyncGenerator<R> {
  const source = entries[Symbol.asyncIterator]();
  const running = new Map<number, Promise<{ id: number; result: R }>>();
  let next = 0;
  let exhausted = false;
  try {
    while (true) {
      while (!exhausted && running.size < size) {
        const entry = await source.next();
        if (entry.done) exhausted = true;
        else {
          const id = next++;
          running.set(
            id,
            work(entry.value).then((result) => ({ id, result })),
          );
        }
      }
      if (running.size === 0) return;
      const { id, result } = await Promise.race(running.values());
      running.delete(id);
      yield result;
    }
  } finally {
    // Failures of the work still running after a failure or an early stop are not waited for.
    for (const pending of running.values()) pending.catch(() => {});
    await source.return?.();
  }
}
