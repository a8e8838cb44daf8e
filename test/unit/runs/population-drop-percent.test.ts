/**
 * POPULATION_DROP_PERCENT: how far a population may shrink between two complete runs before it
 * is a drop. A whole percent from 1 to 100; anything else, or nothing, is the default 10, so a
 * typo never hides every drop or flags every run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { populationDropPercent } from '../../../functions/src/config.ts';
import { setSetting } from '../../support/families.ts';

afterAll(() => setSetting('POPULATION_DROP_PERCENT', undefined));

describe('POPULATION_DROP_PERCENT', () => {
  it.each([
    [undefined, 10],
    ['25', 25],
    ['1', 1],
    ['100', 100],
    ['0', 10],
    ['101', 10],
    ['-5', 10],
    ['lots', 10],
  ])('set to %s gives %i percent', (value, percent) => {
    setSetting('POPULATION_DROP_PERCENT', value);
    expect(populationDropPercent()).toBe(percent);
  });
});
