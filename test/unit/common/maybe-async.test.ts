/** `loadOnce`: one load shared by concurrent callers, synchronous afterwards, retried after failure. */
import { describe, expect, it } from 'vitest';
import { isPromise, loadOnce } from '../../../functions/src/common/maybe-async.ts';

describe('loadOnce', () => {
  it('shares one load between callers that arrive while it runs, then answers synchronously', async () => {
    let loads = 0;
    const value = loadOnce(async () => ++loads);
    const first = value();
    const second = value();
    expect(isPromise(first)).toBe(true);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(value()).toBe(1);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load, and keeps the first success', async () => {
    let loads = 0;
    const value = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('not yet');
      return 'ready';
    });
    await expect(value()).rejects.toThrow('not yet');
    expect(await value()).toBe('ready');
    expect(value()).toBe('ready');
    expect(loads).toBe(2);
  });
});
