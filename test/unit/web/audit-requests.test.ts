/** The Requests page's logic: where each kind of answer leads, a history step as a line, an import's faults as lines. */
import { describe, expect, it } from 'vitest';
import { answerHref, importErrorLines, stepLine } from '../../../hosting/src/lib/audit-requests.ts';

describe('the Requests page', () => {
  it('links each kind of answer to what shows it', () => {
    expect(answerHref('IAM-01', { kind: 'evidence', ref: 'gh:a b' })).toBe('/evidence/gh%3Aa%20b');
    expect(answerHref('IAM-01', { kind: 'submission', ref: 'sub-0123456789' })).toBe('/api/submissions/sub-0123456789');
    expect(answerHref('IAM-01', { kind: 'population', ref: '2026-06-30/idp.user' })).toBe(
      '/api/controls/IAM-01/population?date=2026-06-30&kind=idp.user',
    );
    expect(answerHref('IAM-01', { kind: 'sample', ref: 'from=2026-01-01&to=2026-06-30&size=25' })).toBe(
      '/api/controls/IAM-01/sample?from=2026-01-01&to=2026-06-30&size=25',
    );
  });

  it('says each step with when, what, who and the comment', () => {
    expect(
      stepLine({
        action: 'returned',
        at: '2026-11-24T10:00:00.000Z',
        by: { uid: 'u', email: 'bo@example.com' },
        comment: 'Q2 missing',
      }),
    ).toBe('2026-11-24 10:00 UTC · returned by bo@example.com: Q2 missing');
    expect(stepLine({ action: 'created', at: '2026-11-24T10:00:00.000Z', by: { uid: 'anonymous' } })).toBe(
      '2026-11-24 10:00 UTC · created by anonymous',
    );
  });

  it('lists an import\u2019s faults with their line and column', () => {
    expect(
      importErrorLines([
        { line: 3, pointer: '/control', message: 'row 2: "XYZ-01" names no control in the catalog' },
        { line: 2, message: 'is not UTF-8 text' },
        { message: 'is required' },
      ]),
    ).toEqual([
      'Line 3, column control: row 2: "XYZ-01" names no control in the catalog',
      'Line 2: is not UTF-8 text',
      'The file: is required',
    ]);
  });
});
