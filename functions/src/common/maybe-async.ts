/**
 * Continues with a value that may or may not be a promise, staying synchronous when it is not.
 *
 * functions-framework runs every request inside a `domain`, which makes Node track each promise
 * the request creates; on the hot path (a cached route table, a public operation, a synchronous
 * handler) the HTTP core therefore creates none. Stores on that path (a cached report) answer
 * the same way, which is why this lives beside the domain rather than in `http/`.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromise(value) ? value.then(next) : next(value);
}

/**
 * Runs `load` on the first call and shares it with calls made meanwhile; once it has succeeded,
 * every later call gets the value synchronously. A failed load is tried again on the next call.
 */
export function loadOnce<T>(load: () => Promise<T>): () => MaybePromise<T> {
  let loaded: { value: T } | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded) return loaded.value;
    loading ??= load().then(
      (value) => {
        loaded = { value };
        return value;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
