/**
 * What a review of a submission changes in the evaluation. With review required, a submission's
 * attestation counts once accepted before the report's cut-off: a pending one (or one accepted
 * after the cut-off) does not count and is listed as awaiting review, a rejected one never counts
 * and is not listed, and attestations not made by a submission count as before. Without it the
 * report is what it always was, with no `awaitingReview`. The daily job reads the reviews once
 * and gives them to the evaluation.
 */
import { describe, expect, it, vi } from 'vitest';
import { maxAwaitingReviewListed } from '@evident/contract';
import { compileCatalog, evaluate, type EvaluationInput } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem, Report } from '../../../functions/src/assessment/model.ts';
import type { SubmissionReviews } from '../../../functions/src/assessment/submission-review.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { closingFiles, newPackageFacts, packageFiles, type PackageRequest } from '../../../functions/src/audit/audit-package.ts';
import { verifyPackage } from '../../../functions/src/audit/verify-package.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const asOf = new Date('2026-11-21T12:00:00Z');

/** An attestation of PPL-06 (which rests on attestations alone), from a submission when `submissionId` is given. */
function attestation(id: string, collectedAt: string, submissionId?: string, subject = 'security policy'): EvidenceItem {
  return {
    id,
    kind: 'attestation',
    source: submissionId ? 'submission' : 'policy-bot',
    subject,
    collectedAt,
    effectiveDate: collectedAt.slice(0, 10),
    controls: ['PPL-06'],
    receivedAt: collectedAt,
    attachments: [],
    data: {
      statement: 'The board approved the policy.',
      ...(submissionId ? { submissionId, submittedBy: 'ada@example.com' } : {}),
    },
  };
}

const input = (evidence: EvidenceItem[], submissionReviews?: SubmissionReviews): EvaluationInput => ({
  date: '2026-11-21',
  timeZone: 'UTC',
  asOf,
  generatedAt: asOf,
  runId: 'test',
  evidence,
  previous: null,
  ...(submissionReviews ? { submissionReviews } : {}),
});

const statusOf = (report: Report, id: string) => report.controls.find((control) => control.id === id)?.status;
const pending = attestation('sub-a', '2026-11-20T09:00:00.000Z', 'sub-a');
const awaitingA = {
  submissionId: 'sub-a',
  evidenceId: 'sub-a',
  controlIds: ['PPL-06'],
  subject: 'security policy',
  submittedAt: '2026-11-20T09:00:00.000Z',
};

describe('evaluation with review required', () => {
  it('does not count a pending attestation, and lists it as awaiting review', () => {
    const report = evaluate(compiled, input([pending], new Map()));
    expect(statusOf(report, 'PPL-06')).toBe('missing');
    expect(report.awaitingReview).toEqual({ count: 1, submissions: [awaitingA] });
  });

  it('counts an attestation accepted before the cut-off, and lists nothing', () => {
    const reviews = new Map([['sub-a', { decision: 'accepted' as const, at: '2026-11-21T08:00:00.000Z' }]]);
    const report = evaluate(compiled, input([pending], reviews));
    expect(statusOf(report, 'PPL-06')).toBe('passing');
    expect(report.awaitingReview).toEqual({ count: 0, submissions: [] });
  });

  it('treats an acceptance recorded at or after the cut-off as not yet made', () => {
    const reviews = new Map([['sub-a', { decision: 'accepted' as const, at: asOf.toISOString() }]]);
    const report = evaluate(compiled, input([pending], reviews));
    expect(statusOf(report, 'PPL-06')).toBe('missing');
    expect(report.awaitingReview).toEqual({ count: 1, submissions: [awaitingA] });
  });

  it('never counts a rejected attestation, and does not list it', () => {
    const reviews = new Map([['sub-a', { decision: 'rejected' as const, at: '2026-11-21T08:00:00.000Z' }]]);
    const report = evaluate(compiled, input([pending], reviews));
    expect(statusOf(report, 'PPL-06')).toBe('missing');
    expect(report.awaitingReview).toEqual({ count: 0, submissions: [] });
  });

  it('counts an attestation no submission made, as before', () => {
    const report = evaluate(compiled, input([attestation('att-1', '2026-11-20T09:00:00.000Z')], new Map()));
    expect(statusOf(report, 'PPL-06')).toBe('passing');
    expect(report.awaitingReview).toEqual({ count: 0, submissions: [] });
  });

  it(`counts every pending submission and lists the oldest ${maxAwaitingReviewListed}`, () => {
    const many = Array.from({ length: maxAwaitingReviewListed + 10 }, (_, n) =>
      attestation(
        `sub-${String(n).padStart(3, '0')}`,
        new Date(Date.UTC(2026, 10, 20, 0, n)).toISOString(),
        `sub-${n}`,
        `s-${n}`,
      ),
    );
    const report = evaluate(compiled, input([...many].reverse(), new Map()));
    expect(report.awaitingReview?.count).toBe(maxAwaitingReviewListed + 10);
    expect(report.awaitingReview?.submissions.map((entry) => entry.submissionId)).toEqual(
      many.slice(0, maxAwaitingReviewListed).map((_, n) => `sub-${n}`),
    );
  });
});

describe('evaluation with review optional', () => {
  it('counts a submission at once and gives the report no awaitingReview', () => {
    const report = evaluate(compiled, input([pending]));
    expect(statusOf(report, 'PPL-06')).toBe('passing');
    expect(Object.keys(report)).not.toContain('awaitingReview');
  });
});

describe('the daily report with review required', () => {
  it('lists a new submission as awaiting review, and counts it from the first report after its acceptance', async () => {
    for (const name of ['reportPublished', 'evidenceSnapshotLoaded'] as const)
      vi.spyOn(logs, name).mockImplementation(() => undefined);
    const store = new MemoryStore();
    const evidence = new EvidenceStore(store);
    const submissions = new SubmissionStore(store, evidence);
    const made = await submissions.create(
      {
        controls: ['PPL-06'],
        statement: 'The board approved the policy.',
        subject: 'security policy',
        effectiveDate: '2026-11-20',
        notApplicable: false,
        submittedBy: { uid: 'u-ada' },
        files: [],
      },
      new Date('2026-11-20T09:00:00Z'),
    );
    const day = (date: string, submissionReview: 'optional' | 'required') =>
      produceDailyReport({
        store,
        catalog: compiled,
        timeZone: 'UTC',
        now: new Date(`${date}T10:00:00Z`),
        date,
        trigger: 'test',
        evidence,
        submissionReview,
      });
    const first = (await day('2026-11-20', 'required')).stored.report;
    expect(statusOf(first, 'PPL-06')).toBe('missing');
    expect(first.awaitingReview).toEqual({
      count: 1,
      submissions: [
        {
          submissionId: made.id,
          evidenceId: made.evidenceId,
          controlIds: ['PPL-06'],
          subject: 'security policy',
          submittedAt: '2026-11-20T09:00:00.000Z',
        },
      ],
    });
    await submissions.review(made.id, {
      decision: 'accepted',
      at: '2026-11-20T15:00:00.000Z',
      by: { uid: 'u-bo' },
      reason: null,
      independent: true,
      caveat: null,
    });
    const second = (await day('2026-11-21', 'required')).stored.report;
    expect(statusOf(second, 'PPL-06')).toBe('passing');
    expect(second.awaitingReview).toEqual({ count: 0, submissions: [] });
    const third = (await day('2026-11-22', 'optional')).stored.report;
    expect(statusOf(third, 'PPL-06')).toBe('passing');
    expect(Object.keys(third)).not.toContain('awaitingReview');

    // The audit package of those days carries the reviews, so the verifier re-derives the days made with review required.
    const request: PackageRequest = {
      from: '2026-11-20',
      to: '2026-11-22',
      dates: ['2026-11-20', '2026-11-21', '2026-11-22'],
      today: '2026-11-22',
      timeZone: 'UTC',
      generatedAt: new Date('2026-11-22T12:00:00Z'),
      apiVersion: 'test',
      requestedBy: { uid: 'auditor' },
    };
    const sources = { store, reports: new ReportStore(store), evidence, catalog: compiled.catalog };
    const facts = newPackageFacts();
    const files = new Map<string, Buffer>();
    for await (const file of packageFiles(sources, request, facts)) files.set(file.path, file.data);
    for (const file of closingFiles(request, facts, [])) files.set(file.path, file.data);
    expect(JSON.parse(files.get('inputs/submission-reviews.json')!.toString())).toEqual({
      [made.id]: { decision: 'accepted', at: '2026-11-20T15:00:00.000Z' },
    });
    const verification = verifyPackage(files);
    expect(verification.days.map((outcome) => [outcome.date, outcome.outcome])).toEqual([
      ['2026-11-20', 'follows'],
      ['2026-11-21', 'follows'],
      ['2026-11-22', 'follows'],
    ]);
  });
});
