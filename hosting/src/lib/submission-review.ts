/**
 * How the pages word a submission's review (`review` of a submission, `awaitingReview` of a
 * report), and whether the person on the page may review it: anyone but its submitter, as far as
 * the page can tell (the server decides; in public mode it cannot tell people apart). Pure, so it
 * is unit tested without a browser.
 */
import { plural } from '@evident/contract';
import type { Report, Submission } from './api-types.ts';

type Review = Submission['review'];
type Actor = Submission['submittedBy'];

const actorText = (actor: Actor): string => actor.email ?? actor.name ?? actor.uid;

/** "Awaiting review", "Accepted by bo@example.com", or "Rejected by bo@example.com: Last year's policy." */
export function reviewText(review: Review): string {
  if (review.state === 'pending' || !review.by) return 'Awaiting review';
  const who = `${review.state === 'accepted' ? 'Accepted' : 'Rejected'} by ${actorText(review.by)}`;
  return review.reason ? `${who}: ${review.reason}` : who;
}

/** Whether the page offers Accept and Reject: a pending submission someone else made (unknown when no one is signed in). */
export function mayReview(submission: Pick<Submission, 'review' | 'submittedBy'>, signedInUid: string | undefined): boolean {
  return submission.review.state === 'pending' && (signedInUid === undefined || signedInUid !== submission.submittedBy.uid);
}

/** The line above a report's list of submissions awaiting review; undefined when review is not required. */
export function awaitingText(awaiting: Report['awaitingReview']): string | undefined {
  if (!awaiting) return undefined;
  if (awaiting.count === 0) return 'No submission awaits review: every attestation submitted counts.';
  const shown = awaiting.submissions.length < awaiting.count ? ` (the oldest ${awaiting.submissions.length} shown)` : '';
  return (
    `${plural(awaiting.count, 'submission')} ${awaiting.count === 1 ? 'awaits' : 'await'} review${shown}; ` +
    'their attestations count once someone other than the submitter accepts them.'
  );
}

export const publicReviewNote =
  'This server runs in public mode: nobody needs to sign in, so it cannot tell who submitted this from who reviews ' +
  'it. A review here is recorded as not independent.';
