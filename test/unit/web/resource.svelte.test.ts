/** Resource, compiled by Svelte with real runes: "Try again" asks again as the last load did. */
import { describe, expect, it } from 'vitest';
import { Connectivity } from '../../../hosting/src/lib/connectivity.svelte.ts';
import { Resource } from '../../../hosting/src/lib/resource.svelte.ts';

describe('a resource', () => {
  it('retries the last load, reading what it reads afresh', async () => {
    const resource = new Resource<string>(new Connectivity());
    let answers = 0;
    let fail = true;
    await resource.load(async () => {
      answers += 1;
      if (fail) throw new Error('The server answered 500.');
      return `answer ${answers}`;
    });
    expect(resource.state).toEqual({ status: 'failed', error: new Error('The server answered 500.') });
    fail = false;
    expect(await resource.retry()).toBe('answer 2');
    expect(resource.state).toEqual({ status: 'loaded', value: 'answer 2' });
  });

  it('has nothing to retry before its first load', async () => {
    const resource = new Resource<string>(new Connectivity());
    expect(await resource.retry()).toBeUndefined();
    expect(resource.state).toEqual({ status: 'loading' });
  });
});
