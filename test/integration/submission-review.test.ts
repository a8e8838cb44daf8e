/**
 * Reviewing manual evidence through Hosting on the emulators, four eyes: a submission awaits
 * review when made; its submitter may not accept it in protected mode (403 `self_review`, and it
 * stays pending), another person does (an independent review), and in public mode the anonymous
 * review is recorded as not independent; a second review is refused (409), and the submission
 * and the listing show the review that stands. A rejection needs a reason and keeps it. Runs in
 * both modes (scripts/test.ts `modeSuites`): the rule differs by mode.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../functions/src/generated/api-types.ts';
import { api } from '../support/api.ts';
import { anotherPerson } from '../support/another-person.ts';
import { mode } from '../support/emulator.ts';

type Submission = components['schemas']['Submission'];

/** A submission of the `api` helper's user, for PPL-06. */
function submit(statement: string): Promise<Submission> {
  const form = new FormData();
  form.append('controls', 'PPL-06');
  form.append('statement', statement);
  return api.json<Submission>('/api/submissions', { method: 'POST', body: form, status: 201 });
}

describe(`reviewing a submission, ${mode} mode`, () => {
  it('is accepted once, by another person than its submitter, and shows its review', async () => {
    const user = await api.user();
    const made = await submit('The board approved the security policy (review test).');
    expect([made.submittedBy.uid, made.review]).toEqual([user?.uid ?? 'anonymous', { state: 'pending' }]);

    if (mode === 'protected') {
      const own = await api.call<{ code: string; detail: string }>(`/api/submissions/${made.id}/review`, {
        body: { decision: 'accepted' },
      });
      expect([own.status, own.body.code, own.body.detail]).toEqual([
        403,
        'self_review',
        `You made the submission ${made.id}; another person accepts or rejects it.`,
      ]);
      expect((await api.get<Submission>(`/api/submissions/${made.id}`)).review).toEqual({ state: 'pending' });
    }

    const other = await anotherPerson();
    const answer = await api.call<Submission>(`/api/submissions/${made.id}/review`, {
      body: { decision: 'accepted', reason: 'Read the minutes.' },
      headers: other.headers,
    });
    expect([answer.status, answer.headers.get('location')]).toEqual([201, `/api/submissions/${made.id}`]);
    expect(answer.body.review).toMatchObject({
      state: 'accepted',
      by: { uid: other.uid },
      reason: 'Read the minutes.',
      independent: mode === 'protected',
    });
    if (mode === 'protected') expect(answer.body.review.caveat).toBeNull();
    else expect(answer.body.review.caveat).toMatch(/^The server runs in public mode/);

    const again = await api.call<{ code: string }>(`/api/submissions/${made.id}/review`, {
      body: { decision: 'rejected', reason: 'Second thoughts.' },
      headers: other.headers,
    });
    expect([again.status, again.body.code]).toEqual([409, 'submission_already_reviewed']);
    expect((await api.get<Submission>(`/api/submissions/${made.id}`)).review).toEqual(answer.body.review);
    const page = await api.get<{ items: Submission[] }>('/api/submissions?control=PPL-06&limit=5');
    expect(page.items.find((item) => item.id === made.id)?.review).toEqual(answer.body.review);
  });

  it('is rejected only with a reason, which it keeps', async () => {
    const made = await submit('Last year\u2019s policy (review test).');
    const other = await anotherPerson();
    const path = `/api/submissions/${made.id}/review`;
    const bare = await api.call<{ code: string }>(path, { body: { decision: 'rejected' }, headers: other.headers });
    expect([bare.status, bare.body.code]).toEqual([400, 'invalid_request']);
    const rejected = await api.json<Submission>(path, {
      body: { decision: 'rejected', reason: 'The attached policy is last year\u2019s.' },
      headers: other.headers,
      status: 201,
    });
    expect(rejected.review).toMatchObject({ state: 'rejected', reason: 'The attached policy is last year\u2019s.' });
  });
});
