/**
 * Review of manual evidence in the evaluation. With `SUBMISSION_REVIEW=required`, the attestation
 * a submission became counts for its controls only once someone other than its submitter accepted
 * it before the report's cut-off; until then it is listed as awaiting review, and a rejected one
 * never counts. Other evidence, attestations sent by collectors included, is not reviewed.
 *
 * The reviews are an input like the evidence (the daily job reads them once per report), and a
 * review counts by its time, not by when it was read: re-evaluating a day from the same evidence
 * and reviews gives the same report, however late, which is what lets an auditor re-derive it.
 *
 * An evaluation's evidence holds the newest attestation per control and subject
 * (evidence-state.ts), so a new submission for a control and subject replaces the one before it
 * as soon as it arrives: under `required`, the subject rests on no attestation until the new one
 * is accepted.
 */
import { maxAwaitingReviewListed, type submissionReviewDecisions } from '@evident/contract';
import type { EvidenceItem, Report } from './model.js';

export interface ReviewDecision {
  decision: (typeof submissionReviewDecisions)[number];
  /** When it was recorded (ISO 8601); a report counts it only when this is before its `asOf`. */
  at: string;
}

/** The reviews recorded, by submission id; given to an evaluation only when review is required. */
export type SubmissionReviews = ReadonlyMap<string, ReviewDecision>;

export type AwaitingReview = NonNullable<Report['awaitingReview']>;

/** The submission an item came from: an attestation made by `POST /api/submissions` names it. */
export function submissionOf(item: EvidenceItem): string | undefined {
  const id = item.kind === 'attestation' ? item.data['submissionId'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The submissions the evidence came from, whose reviews an evaluation needs. */
export function submissionsIn(evidence: readonly EvidenceItem[]): string[] {
  return [...new Set(evidence.flatMap((item) => submissionOf(item) ?? []))];
}

/**
 * The evidence that counts under required review, and the submissions awaiting one as of `asOf`
 * (collected before it and not expired by it, oldest first, listed up to the contract's bound).
 */
export function reviewedEvidence(
  evidence: readonly EvidenceItem[],
  reviews: SubmissionReviews,
  asOf: Date,
): { counted: EvidenceItem[]; awaitingReview: AwaitingReview } {
  const cutoff = asOf.getTime();
  const counted: EvidenceItem[] = [];
  const awaiting: EvidenceItem[] = [];
  for (const item of evidence) {
    const submission = submissionOf(item);
    if (submission === undefined) {
      counted.push(item);
      continue;
    }
    const review = reviews.get(submission);
    const decided = review !== undefined && Date.parse(review.at) < cutoff ? review.decision : undefined;
    if (decided === 'accepted') counted.push(item);
    else if (decided === undefined && isCurrent(item, cutoff)) awaiting.push(item);
  }
  awaiting.sort(oldestFirst);
  return {
    counted,
    awaitingReview: {
      count: awaiting.length,
      submissions: awaiting.slice(0, maxAwaitingReviewListed).map((item) => ({
        submissionId: submissionOf(item)!,
        evidenceId: item.id,
        controlIds: [...(item.controls ?? [])],
        subject: item.subject,
        submittedAt: item.collectedAt,
      })),
    },
  };
}

/** Collected before the cut-off and not expired by it: what the evaluation would otherwise have counted. */
function isCurrent(item: EvidenceItem, cutoff: number): boolean {
  return Date.parse(item.collectedAt) < cutoff && !(item.expiresAt !== undefined && Date.parse(item.expiresAt) <= cutoff);
}

function oldestFirst(a: EvidenceItem, b: EvidenceItem): number {
  const byTime = Date.parse(a.collectedAt) - Date.parse(b.collectedAt);
  return byTime !== 0 ? byTime : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
