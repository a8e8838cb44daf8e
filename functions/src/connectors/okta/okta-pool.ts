/**
 * A bounded pool over a stream: at most `size` calls of `work` run at once, results come out as
 * they finish (in any order), and nothing more than the running calls is held. A failed call
 * fails the stream when its turn to be read comes; until then its error is held, never unhandled.
 */
type Settled<R> = { id: number; ok: true; value: R } | { id: number; ok: false; error: unknown };

export async function* pooled<T, R>(source: AsyncIterable<T>, size: number, work: (input: T) => Promise<R>): AsyncGenerator<R> {
  const running = new Map<number, Promise<Settled<R>>>();
  let next = 0;
  const take = async (): Promise<R> => {
    const settled = await Promise.race(running.values());
    running.delete(settled.id);
    if (!settled.ok) throw settled.error;
    return settled.value;
  };
  for await (const input of source) {
    if (running.size >= size) yield await take();
    const id = next++;
    running.set(
      id,
      work(input).then(
        (value): Settled<R> => ({ id, ok: true, value }),
        (error: unknown): Settled<R> => ({ id, ok: false, error }),
      ),
    );
  }
  while (running.size > 0) yield await take();
}
