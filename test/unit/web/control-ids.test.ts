/** Control ids as typed in the submission and analysis forms. */
import { describe, expect, it } from 'vitest';
import { controlIdsIn, parseControlIds } from '../../../hosting/src/lib/control-ids.ts';

describe('control ids typed in a form', () => {
  it('reads each word once, upper-cased, in order, whatever separates them', () => {
    expect(controlIdsIn(' ppl-06, PPL-07;IAM-01\nppl-06  ')).toEqual(['PPL-06', 'PPL-07', 'IAM-01']);
    expect(controlIdsIn('  ')).toEqual([]);
  });

  it('tells catalog-form ids from words that cannot be one, kept as typed', () => {
    expect(parseControlIds('iam-01, NET-02;iam-01  sec_1 VUL-003')).toEqual({
      ids: ['IAM-01', 'NET-02', 'VUL-003'],
      invalid: ['sec_1'],
    });
    expect(parseControlIds('  ')).toEqual({ ids: [], invalid: [] });
  });
});
