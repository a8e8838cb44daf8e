/**
 * RUN_ABANDON_HOURS: how long a collection run may stay open before it reads as abandoned. A
 * whole number of hours from 1 to 168; anything else, or nothing, is the default 6, so a typo
 * never leaves runs open for ever or ends them at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runAbandonHours } from '../../../functions/src/config.ts';
import { setSetting } from '../../support/families.ts';

afterAll(() => setSetting('RUN_ABANDON_HOURS', undefined));

describe('RUN_ABANDON_HOURS', () => {
  it.each([
    [undefined, 6],
    ['12', 12],
    ['1', 1],
    ['168', 168],
    ['0', 6],
    ['169', 6],
    ['-3', 6],
    ['soon', 6],
  ])('set to %s gives %i hours', (value, hours) => {
    setSetting('RUN_ABANDON_HOURS', value);
    expect(runAbandonHours()).toBe(hours);
  });
});
