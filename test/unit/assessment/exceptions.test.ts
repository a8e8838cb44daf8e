/**
 * Risk acceptance in evaluation (assessment/exceptions.ts and the engine): which findings an
 * exception covers, when a control is risk-accepted and what it then counts for, the day an
 * exception stops counting, and the exceptions a report lists.
 */
import { describe, expect, it } from 'vitest';
import { defaultDueDays } from '../../../functions/src/assessment/due-dates.ts';
import { assembleReport, compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { scoreOf } from '../../../functions/src/assessment/report-summary.ts';
import { applyExceptions, inForceOn, type ActiveException } from '../../../functions/src/assessment/exceptions.ts';
import type { ControlResult, Finding } from '../../../functions/src/assessment/model.ts';
import { readinessOf } from '../../../functions/src/assessment/readiness.ts';
import { defaultScope } from '../../../functions/src/settings/settings-model.ts';

const approver = { uid: 'u-ana', email: 'ana@example.com' };
const exception = (id: string, subject: string | null, expiresOn = '2027-03-01', controlId = 'IAM-01'): ActiveException => ({
  id,
  controlId,
  subject,
  expiresOn,
  approver,
  requestedBy: { uid: 'u-bo', email: 'bo@example.com' },
  independent: true,
});
const fail = (subject?: string): Finding => ({
  outcome: 'fail',
  check: 'mfa',
  kind: 'idp.user',
  ...(subject ? { subject } : {}),
  message: `${subject ?? 'more'} fails.`,
  evidence: [],
});
const result = (findings: Finding[], status: ControlResult['status'] = 'failing'): ControlResult => ({
  id: 'IAM-01',
  title: 'MFA',
  family: 'identity-and-access',
  severity: 'critical',
  status,
  findings,
  evidence: [],
});

describe('an exception', () => {
  it("covers its subject's failing findings, not another subject's", () => {
    const [applied] = applyExceptions([result([fail('bob'), fail('eve')])], [exception('exc-1', 'bob')]);
    expect(applied!.findings.map((finding) => finding.accepted)).toEqual([
      { exception: 'exc-1', expiresOn: '2027-03-01' },
      undefined,
    ]);
    expect(applied!.riskAccepted).toBeUndefined();
  });

  it('for the whole control covers every failure, a summary of further subjects included, and accepts the risk', () => {
    const [applied] = applyExceptions([result([fail('bob'), fail()])], [exception('exc-1', null)]);
    expect(applied!.findings.every((finding) => finding.accepted?.exception === 'exc-1')).toBe(true);
    expect(applied!.riskAccepted).toBe(true);
  });

  it("prefers a subject's own exception to a whole-control one", () => {
    const [applied] = applyExceptions(
      [result([fail('bob')])],
      [exception('exc-all', null, '2027-06-01'), exception('exc-bob', 'bob')],
    );
    expect(applied!.findings[0]!.accepted?.exception).toBe('exc-bob');
  });

  it('does not accept the risk of a control whose evidence is also stale or missing', () => {
    const stale: Finding = { outcome: 'stale', kind: 'idp.settings', subject: 'tenant', message: 'Old.', evidence: [] };
    const [applied] = applyExceptions([result([fail('bob'), stale])], [exception('exc-1', null)]);
    expect(applied!.findings[0]!.accepted).toEqual({ exception: 'exc-1', expiresOn: '2027-03-01' });
    expect(applied!.riskAccepted).toBeUndefined();
  });

  it('covers nothing of a control it does not name, and leaves passes alone', () => {
    const pass: Finding = { outcome: 'pass', check: 'mfa', kind: 'idp.user', subject: 'bob', message: 'Ok.', evidence: [] };
    const [applied] = applyExceptions([result([pass], 'passing')], [exception('exc-1', null, '2027-03-01', 'IAM-02')]);
    expect(applied).toEqual(result([pass], 'passing'));
  });

  it('no longer marks a result once it is not in force (a republished report drops what a revoked one said)', () => {
    const [before] = applyExceptions([result([fail('bob')])], [exception('exc-1', 'bob')]);
    expect(applyExceptions([before!], [])).toEqual([result([fail('bob')])]);
  });

  it('is in force on the days before its expiry day, and not on it', () => {
    expect(inForceOn(exception('exc-1', null, '2027-03-01'), '2027-02-28')).toBe(true);
    expect(inForceOn(exception('exc-1', null, '2027-03-01'), '2027-03-01')).toBe(false);
  });
});

describe('a risk-accepted control', () => {
  it('counts for neither the score nor readiness', () => {
    const passing = { status: 'passing' as const, severity: 'low' as const };
    expect(scoreOf([passing, { status: 'failing', severity: 'critical', riskAccepted: true }])).toBe(100);
    expect(scoreOf([passing, { status: 'failing', severity: 'critical' }])).toBe(9.1);
    const [soc2] = readinessOf(
      [{ id: 'soc2', name: 'SOC 2', requirements: [{ id: 'CC6.1', title: null }] }],
      [{ id: 'IAM-01', frameworks: { soc2: ['CC6.1'], iso27001: [], nist80053: [] } }],
      [{ id: 'IAM-01', status: 'failing', riskAccepted: true }],
      defaultScope,
    );
    expect(soc2!.requirements[0]!.status).toBe('not_applicable');
  });

  it('is listed in a report with its exception, keeps its open run and has no due date while accepted', () => {
    const control = {
      id: 'IAM-01',
      title: 'MFA',
      family: 'identity-and-access',
      severity: 'critical' as const,
      owner: 'IT lead',
      frameworks: { soc2: [], iso27001: [], nist80053: [] },
      evidence: [],
      checks: [],
      scanner: { frameworks: [], checks: [], freshnessDays: 7 },
      objective: '',
      guidance: '',
      objectiveMarkdown: '',
      guidanceMarkdown: '',
    };
    const compiled = compileCatalog({ version: 'v', controls: [control], frameworks: [], dueDays: defaultDueDays });
    const previous = { date: '2026-11-01', controls: [{ ...result([fail('bob')]), openSince: '2026-10-01' }] };
    const at = new Date('2026-11-24T12:00:00Z');
    const report = assembleReport(
      compiled,
      {
        date: '2026-11-24',
        timeZone: 'UTC',
        asOf: at,
        generatedAt: at,
        runId: 'r',
        previous,
        exceptions: [exception('exc-1', null)],
      },
      [result([fail('bob')])],
    );
    expect(report.controls[0]).toMatchObject({ status: 'failing', riskAccepted: true, openSince: '2026-10-01' });
    expect(report.controls[0]!.dueDate).toBeUndefined();
    expect(report.summary).toMatchObject({ score: 100, overdue: 0, riskAccepted: 1 });
    expect(report.exceptions).toEqual([
      {
        id: 'exc-1',
        controlId: 'IAM-01',
        subject: null,
        expiresOn: '2027-03-01',
        approver,
        requestedBy: { uid: 'u-bo', email: 'bo@example.com' },
        independent: true,
      },
    ]);
    // The same day without the exception: failing, and long overdue from the run's first day.
    const without = assembleReport(
      compiled,
      { date: '2026-11-24', timeZone: 'UTC', asOf: at, generatedAt: at, runId: 'r', previous },
      [result([fail('bob')])],
    );
    expect(without.controls[0]).toMatchObject({ dueDate: '2026-10-08', overdue: true });
  });
});

describe('grouping the exceptions of a report', () => {
  /** `count` exceptions of IAM-01, one per subject, each counting every read of its fields, and a failing finding per subject. */
  function oneEach(count: number) {
    const reads = { count: 0 };
    const exceptions = Array.from(
      { length: count },
      (_, index) =>
        new Proxy(exception(`exc-${String(index).padStart(6, '0')}`, `user-${index}`), {
          get(target, key, receiver) {
            reads.count++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
    );
    const findings = Array.from({ length: count }, (_, index) => fail(`user-${index}`));
    return { exceptions, findings, reads };
  }

  it('prefers, of two for the same subject, the one that lasts longer, then the smaller id', () => {
    const [applied] = applyExceptions(
      [result([fail('bob'), fail('eve')])],
      [
        exception('exc-b1', 'bob', '2027-01-01'),
        exception('exc-b2', 'bob', '2027-06-01'),
        exception('exc-e2', 'eve', '2027-01-01'),
        exception('exc-e1', 'eve', '2027-01-01'),
      ],
    );
    expect(applied!.findings.map((finding) => finding.accepted?.exception)).toEqual(['exc-b2', 'exc-e1']);
  });

  it('reads each exception a bounded number of times however many there are (linear, not one pass per exception)', () => {
    const perException = [1_000, 4_000].map((count) => {
      const { exceptions, findings, reads } = oneEach(count);
      const [applied] = applyExceptions([result(findings)], exceptions);
      expect(applied!.riskAccepted).toBe(true);
      return reads.count / count;
    });
    // Its control and subject once each, then its id and expiry for the finding it covers.
    expect(perException).toEqual([4, 4]);
  });

  it('applies 60,000 exceptions of one control to as many findings', () => {
    const { exceptions, findings } = oneEach(60_000);
    const [applied] = applyExceptions([result(findings)], exceptions);
    expect(applied!.findings.at(-1)!.accepted).toEqual({ exception: 'exc-059999', expiresOn: '2027-03-01' });
    expect(applied!.riskAccepted).toBe(true);
  });
});
