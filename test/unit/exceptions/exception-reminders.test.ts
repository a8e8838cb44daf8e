/**
 * The daily job's `exception.expiring` reminders come from the exceptions its report lists as in
 * force, not from a second read of the store: one for each exception expiring a reminder's
 * number of days after the report's day, none for the others.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { exceptionReminders } from '../../../functions/src/jobs/webhook-job.ts';
import { exceptionExpiring } from '../../../functions/src/webhooks/webhook-events.ts';

const now = new Date('2026-11-24T06:00:00Z');
const exception = (id: string, expiresOn: string) => ({
  id,
  controlId: 'IAM-01',
  subject: null,
  expiresOn,
  approver: { uid: 'u-ana' },
});

describe('the reminders of exceptions expiring', () => {
  it('names those of the report expiring 30, 7 or 1 days after its day, each with its days left', () => {
    const listed = [
      exception('exc-20261125-0000000001', '2026-11-25'),
      exception('exc-20261126-0000000002', '2026-11-26'),
      exception('exc-20261201-0000000003', '2026-12-01'),
      exception('exc-20261224-0000000004', '2026-12-24'),
    ];
    const report = { date: '2026-11-24', exceptions: listed } as Report;
    expect(exceptionReminders(report, [30, 7, 1], now)).toEqual([
      exceptionExpiring(listed[0]!, 1, now),
      exceptionExpiring(listed[2]!, 7, now),
      exceptionExpiring(listed[3]!, 30, now),
    ]);
  });

  it('names none for a report that lists no exceptions', () => {
    expect(exceptionReminders({ date: '2026-11-24' } as Report, [30, 7, 1], now)).toEqual([]);
  });
});
