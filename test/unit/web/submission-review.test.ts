/**
 * How the pages word a submission's review and a report's submissions awaiting review, and
 * when they offer Accept and Reject: to anyone but the submitter, while the submission is pending.
 */
import { describe, expect, it } from 'vitest';
import { awaitingText, mayReview, reviewText } from '../../../hosting/src/lib/submission-review.ts';

const by = { uid: 'u-bo', email: 'bo@example.com' };
const reviewed = { at: '2026-11-21T09:00:00Z', by, independent: true, caveat: null };

describe('reviewText', () => {
  it.each([
    [{ state: 'pending' as const }, 'Awaiting review'],
    [{ state: 'accepted' as const, ...reviewed, reason: null }, 'Accepted by bo@example.com'],
    [{ state: 'accepted' as const, ...reviewed, reason: 'Checked.' }, 'Accepted by bo@example.com: Checked.'],
    [
      { state: 'rejected' as const, ...reviewed, by: { uid: 'anonymous' }, reason: 'Last year\u2019s.' },
      'Rejected by anonymous: Last year\u2019s.',
    ],
  ])('words %j as "%s"', (review, text) => {
    expect(reviewText(review)).toBe(text);
  });
});

describe('mayReview', () => {
  const pending = { review: { state: 'pending' as const }, submittedBy: { uid: 'u-ada' } };
  it.each([
    ['someone else signed in', pending, 'u-bo', true],
    ['no one signed in (public mode)', pending, undefined, true],
    ['the submitter', pending, 'u-ada', false],
    ['a reviewed submission', { ...pending, review: { state: 'accepted' as const, ...reviewed, reason: null } }, 'u-bo', false],
  ])('offers a review to %s: %s', (_who, submission, uid, offered) => {
    expect(mayReview(submission, uid)).toBe(offered);
  });
});

describe('awaitingText', () => {
  const entry = (n: number) => ({
    submissionId: `sub-${n}`,
    evidenceId: `sub-${n}`,
    controlIds: ['PPL-06'],
    subject: 'policy',
    submittedAt: '2026-11-20T09:00:00Z',
  });
  it.each([
    [undefined, undefined],
    [{ count: 0, submissions: [] }, 'No submission awaits review: every attestation submitted counts.'],
    [
      { count: 1, submissions: [entry(1)] },
      '1 submission awaits review; their attestations count once someone other than the submitter accepts them.',
    ],
    [
      { count: 3, submissions: [entry(1), entry(2)] },
      '3 submissions await review (the oldest 2 shown); their attestations count once someone other than the submitter ' +
        'accepts them.',
    ],
  ])('words %j', (awaiting, text) => {
    expect(awaitingText(awaiting)).toBe(text);
  });
});
