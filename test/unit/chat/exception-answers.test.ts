/**
 * The chat's answer to "what risks have we accepted?" on a report holding an exception per
 * subject of a control, 60,000 of them: the soonest to expire listed, the rest counted, the one
 * control cited; never an answer of 60,000 lines.
 */
import { describe, expect, it } from 'vitest';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import { answerExceptions } from '../../../functions/src/chat/answers/report-queries.ts';
import { indexReport } from '../../../functions/src/chat/report-index.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const catalog = compileCatalogSources(paths.catalog);
const at = new Date('2026-11-24T12:00:00Z');

describe('the answer naming the exceptions in force', () => {
  it('lists the 40 soonest to expire of 60,000 and counts the rest', () => {
    const exceptions = Array.from({ length: 60_000 }, (_, index) => ({
      id: `exc-20270101-${index.toString(16).padStart(10, '0')}`,
      controlId: 'IAM-01',
      subject: `user-${index}@example.com`,
      expiresOn: '2027-01-01',
      approver: { uid: 'u-ana', email: 'ana@example.com' },
      requestedBy: { uid: 'u-bo', email: 'bo@example.com' },
      independent: true,
    }));
    const report = evaluate(compileCatalog(catalog), {
      date: '2026-11-24',
      timeZone: 'UTC',
      asOf: at,
      generatedAt: at,
      runId: 'r',
      evidence: [],
      previous: null,
      exceptions,
    });
    const answer = answerExceptions({ kind: 'exceptions' }, indexReport(report, catalog));
    const lines = answer.answer.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '60000 exceptions are in force:',
      '',
      '- **IAM-01** for user-0@example.com: accepted by ana@example.com until 2027-01-01',
    ]);
    expect(lines.slice(2)).toHaveLength(41);
    expect(lines.at(-1)).toBe('- \u2026and 59960 more, expiring later: the Exceptions page lists them all.');
    expect(answer.citations.map((citation) => citation.controlId)).toEqual(['IAM-01']);
  });
});
