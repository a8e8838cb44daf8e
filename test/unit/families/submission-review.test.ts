/**
 * Reviewing a submission through the submissions family (`POST /api/submissions/{id}/review`):
 * accepted or rejected once, by someone other than its submitter (four eyes: one's own refused
 * in protected mode, a review in public mode recorded as not independent), two reviews at once
 * answered one 201 and one 409, a rejection without a reason and other bad bodies answered 400,
 * an unknown submission 404; and the review shown on the submission and in the listing. The
 * store's create-only review underneath.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { maxReviewReasonLength } from '@evident/contract';
import type { ProblemCode } from '@evident/contract/problems';
import { caveats } from '../../../functions/src/common/four-eyes.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { createSubmissionsFamily } from '../../../functions/src/families/submissions.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore, type SubmissionReviewRecord } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type Submission = components['schemas']['Submission'];

const store = new MemoryStore();
const clock = new Date('2026-11-21T09:00:00Z');
const ada = bearer(fakeTokens.valid);
const bo = bearer(fakeTokens.other);
let served: Served;

beforeAll(async () => {
  setMode('public');
  served = await serve(
    createSubmissionsFamily({
      store: async () => store,
      catalog: () => compileCatalogSources(paths.catalog),
      now: () => clock,
      timeZone: () => 'UTC',
      loadTable: tableOf('submissions'),
      verifyToken: fakeVerifier(),
    }),
  );
});
afterAll(() => served.close());
beforeEach(() => void vi.spyOn(logs, 'submissionReviewed').mockImplementation(() => undefined));

async function submit(headers: Record<string, string> = {}): Promise<Submission> {
  const form = new FormData();
  form.append('controls', 'PPL-06');
  form.append('statement', 'The security policy was approved by the board.');
  const answer = await fetch(`${served.url}/api/submissions`, { method: 'POST', body: form, headers });
  expect(answer.status).toBe(201);
  return (await answer.json()) as Submission;
}

const review = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${served.url}/api/submissions/${id}/review`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${served.url}${path}`, { headers })).json();

async function expectProblem(answer: Response, code: ProblemCode, detail: string, instance: string, extra = {}) {
  const problem = expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!, extra);
  expect([answer.status, await answer.json()]).toEqual([problem.status, problem]);
}

describe('a new submission', () => {
  it('awaits review, on its own page and in the listing', async () => {
    const made = await submit();
    expect(made.review).toEqual({ state: 'pending' });
    expect(((await get(`/api/submissions/${made.id}`)) as Submission).review).toEqual({ state: 'pending' });
    const page = (await get('/api/submissions?limit=50')) as { items: Submission[] };
    expect(page.items.find((item) => item.id === made.id)?.review).toEqual({ state: 'pending' });
  });
});

describe('reviewing a submission in public mode', () => {
  it('answers 201 with the submission accepted, not independent, and shows the review from then on', async () => {
    const made = await submit();
    const answer = await review(made.id, { decision: 'accepted' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(`/api/submissions/${made.id}`);
    const accepted = {
      state: 'accepted',
      at: clock.toISOString(),
      by: { uid: 'anonymous' },
      reason: null,
      independent: false,
      caveat: caveats.publicMode,
    };
    expect(await answer.json()).toEqual({ ...made, review: accepted });
    expect(await get(`/api/submissions/${made.id}`)).toEqual({ ...made, review: accepted });
    // Submissions made in the same millisecond list in an order of their ids' random part: found by id.
    const page = (await get('/api/submissions?limit=50')) as { items: Submission[] };
    expect(page.items.find((item) => item.id === made.id)).toEqual({ ...made, review: accepted });
    expect(logs.submissionReviewed).toHaveBeenCalledWith(made.id, 'accepted', false);
  });

  it('rejects with the reason given, trimmed', async () => {
    const made = await submit();
    const answer = await review(made.id, { decision: 'rejected', reason: '  The file is last year\u2019s policy. ' });
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as Submission).review).toEqual({
      state: 'rejected',
      at: clock.toISOString(),
      by: { uid: 'anonymous' },
      reason: 'The file is last year\u2019s policy.',
      independent: false,
      caveat: caveats.publicMode,
    });
  });

  it('answers 409 submission_already_reviewed to a second review, and keeps the first', async () => {
    const made = await submit();
    expect((await review(made.id, { decision: 'accepted', reason: 'Checked.' })).status).toBe(201);
    const path = `/api/submissions/${made.id}/review`;
    await expectProblem(
      await review(made.id, { decision: 'rejected', reason: 'Too late.' }),
      'submission_already_reviewed',
      `The submission ${made.id} was accepted at ${clock.toISOString()} by anonymous; a review is final.`,
      path,
    );
    expect(((await get(`/api/submissions/${made.id}`)) as Submission).review.state).toBe('accepted');
  });

  it('lets one of two reviews at once win, and answers the other 409', async () => {
    const made = await submit();
    const answers = await Promise.all([
      review(made.id, { decision: 'accepted' }),
      review(made.id, { decision: 'rejected', reason: 'No.' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const winner = (await answers.find((answer) => answer.status === 201)!.json()) as Submission;
    expect(((await get(`/api/submissions/${made.id}`)) as Submission).review).toEqual(winner.review);
  });

  it('answers 404 submission_not_found for an unknown submission', async () => {
    const id = 'sub-000000000aaaaaaaaaaaa';
    await expectProblem(
      await review(id, { decision: 'accepted' }),
      'submission_not_found',
      `No submission has the id "${id}".`,
      `/api/submissions/${id}/review`,
    );
  });

  it.each([
    [{ decision: 'rejected' }, '/reason', 'is required to reject: say why, for the submitter'],
    [{ decision: 'rejected', reason: '   ' }, '/reason', 'is required to reject: say why, for the submitter'],
  ])('answers 400 to a rejection without a reason (%j)', async (body, pointer, message) => {
    const made = await submit();
    const path = `/api/submissions/${made.id}/review`;
    await expectProblem(await review(made.id, body), 'invalid_request', `The body ${pointer} ${message}.`, path, {
      errors: [{ in: 'body', pointer, message }],
    });
    expect(((await get(`/api/submissions/${made.id}`)) as Submission).review).toEqual({ state: 'pending' });
  });

  it.each([
    ['an unknown decision', { decision: 'approved' }],
    ['no decision', { reason: 'Fine.' }],
    ['a reason over the limit', { decision: 'rejected', reason: 'x'.repeat(maxReviewReasonLength + 1) }],
    ['an unknown field', { decision: 'accepted', by: 'someone else' }],
  ])('answers 400 invalid_request to %s, and records nothing', async (_case, body) => {
    const made = await submit();
    const answer = await review(made.id, body);
    expect([answer.status, ((await answer.json()) as { code: string }).code]).toEqual([400, 'invalid_request']);
    expect(((await get(`/api/submissions/${made.id}`)) as Submission).review).toEqual({ state: 'pending' });
  });
});

describe('reviewing a submission in protected mode', () => {
  beforeAll(() => setMode('protected'));
  afterAll(() => setMode('public'));

  it.each([
    ['accept', { decision: 'accepted' }],
    ['reject', { decision: 'rejected', reason: 'Mine.' }],
  ])('answers 403 self_review when the submitter tries to %s it, and it stays pending', async (_action, body) => {
    const made = await submit(ada);
    expect(made.submittedBy).toEqual({ uid: 'user-1', email: 'ada@example.com' });
    await expectProblem(
      await review(made.id, body, ada),
      'self_review',
      `You made the submission ${made.id}; another person accepts or rejects it.`,
      `/api/submissions/${made.id}/review`,
    );
    expect(((await get(`/api/submissions/${made.id}`, ada)) as Submission).review).toEqual({ state: 'pending' });
  });

  it('records an acceptance by another person as independent', async () => {
    const made = await submit(ada);
    const answer = await review(made.id, { decision: 'accepted', reason: 'Read and checked.' }, bo);
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as Submission).review).toEqual({
      state: 'accepted',
      at: clock.toISOString(),
      by: { uid: 'user-2', email: 'bo@example.com' },
      reason: 'Read and checked.',
      independent: true,
      caveat: null,
    });
  });

  it('accepts a submission made without signing in, saying the two people could not be told apart', async () => {
    setMode('public');
    const made = await submit();
    setMode('protected');
    const accepted = (await (await review(made.id, { decision: 'accepted' }, bo)).json()) as Submission;
    expect(accepted.review).toMatchObject({ state: 'accepted', independent: false, caveat: caveats.anonymousRequest });
  });

  it('answers 401 without a token', async () => {
    const made = await submit(ada);
    expect((await review(made.id, { decision: 'accepted' })).status).toBe(401);
  });
});

describe('the submission store', () => {
  const reviewBy = (uid: string, decision: SubmissionReviewRecord['decision']): SubmissionReviewRecord => ({
    decision,
    at: clock.toISOString(),
    by: { uid },
    reason: decision === 'rejected' ? 'No.' : null,
    independent: true,
    caveat: null,
  });

  it('records a review create-only: of two at once, one is recorded and the other finds it', async () => {
    const own = new MemoryStore();
    const evidence = new EvidenceStore(own);
    const made = await new SubmissionStore(own, evidence).create(
      {
        controls: ['PPL-06'],
        statement: 'Approved.',
        subject: 'policy',
        effectiveDate: '2026-11-21',
        notApplicable: false,
        submittedBy: { uid: 'u-ada' },
        files: [],
      },
      clock,
    );
    // Two instances, so neither knows what the other wrote.
    const [first, second] = await Promise.all([
      new SubmissionStore(own, evidence).review(made.id, reviewBy('u-bo', 'accepted')),
      new SubmissionStore(own, evidence).review(made.id, reviewBy('u-cy', 'rejected')),
    ]);
    const outcomes = [first, second].map((result) => result.outcome).sort();
    expect(outcomes).toEqual(['already', 'recorded']);
    expect(first.standing).toEqual(second.standing);
    const fresh = new SubmissionStore(own, evidence);
    expect((await fresh.get(made.id)).review).toEqual({
      state: first.standing.decision,
      ...(({ decision: _decision, ...rest }) => rest)(first.standing),
    });
    expect(await fresh.decisions([made.id, made.id, 'sub-000000000aaaaaaaaaaaa'])).toEqual(
      new Map([[made.id, { decision: first.standing.decision, at: clock.toISOString() }]]),
    );
  });
});
