/**
 * Accepting a risk through Hosting on the emulators, four eyes: an exception for one failing
 * subject of a demo control is requested, and is not applied while it awaits approval; its
 * requester may not approve it in protected mode (403 `self_review`), another person does (an
 * independent review), and in public mode the anonymous approval is recorded as not independent;
 * a second approval is refused (409). Approved, it shows in today's report as soon as an
 * analysis publishes it (the finding accepted, the exception listed with its requester and
 * whether it was independently approved); revoked, it is gone from the next publication, and a
 * second revocation is refused. A refused request is kept, with who refused it and why, and
 * never applied. Runs in both modes (scripts/test.ts `modeSuites`): the rule differs by mode.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { api } from '../support/api.ts';
import { anotherPerson } from '../support/another-person.ts';
import { mode } from '../support/emulator.ts';
import { until } from '../support/until.ts';

type Exception = components['schemas']['Exception'];

/**
 * Publishes today's report again for one control, through an analysis, and reads it back: an
 * instance serves today's report from memory for up to a second before checking for a newer one,
 * so the read is repeated until it is the run's.
 */
async function republish(controlId: string): Promise<Report> {
  const run = await api.post<{ id: string }>('/api/analyses', { controls: [controlId], publish: true }, 202);
  return until(
    `${run.id} to publish today's report`,
    async () => {
      expect(['queued', 'running', 'succeeded']).toContain((await api.get<{ state: string }>(`/api/analyses/${run.id}`)).state);
      return api.get<Report>('/api/report/today');
    },
    (report) => report.runId === run.id,
    { timeoutMs: 60_000 },
  );
}

/** Approves an exception as another person than its requester (the `api` helper's user). */
async function approveAsAnother(id: string): Promise<{ approved: Exception; approverUid: string }> {
  const other = await anotherPerson();
  const approved = await api.json<Exception>(`/api/exceptions/${id}/approve`, {
    method: 'POST',
    body: { comment: 'Agreed with the CISO.' },
    headers: other.headers,
  });
  return { approved, approverUid: other.uid };
}

describe(`accepting a risk, ${mode} mode`, () => {
  it("marks the subject's failing finding accepted once approved and published, and stops when revoked", async () => {
    const user = await api.user();
    const today = await api.get<Report>('/api/report/today');
    const control = today.controls.find((result) =>
      result.findings.some((finding) => finding.outcome === 'fail' && finding.subject !== undefined),
    )!;
    const failed = control.findings.find((finding) => finding.outcome === 'fail' && finding.subject !== undefined)!;
    const subject = failed.subject!;
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

    const created = await api.post<Exception>(
      '/api/exceptions',
      { controlId: control.id, subject, justification: 'Accepted while the vendor ships a fix.', expiresOn },
      201,
    );
    const requester = { uid: user?.uid ?? 'anonymous', ...(user ? { email: user.email } : {}) };
    expect(created).toMatchObject({
      controlId: control.id,
      subject,
      expiresOn,
      state: 'requested',
      requestedBy: requester,
      review: null,
      revoked: null,
    });
    // The same check's finding for the subject: a subject may pass other checks of the control.
    const finding = (report: Report) =>
      report.controls
        .find((result) => result.id === control.id)!
        .findings.find((candidate) => candidate.subject === subject && candidate.check === failed.check)!;

    // Awaiting approval: published again, the report does not apply it.
    const pending = await republish(control.id);
    expect(finding(pending).accepted).toBeUndefined();
    expect(pending.exceptions!.map((exception) => exception.id)).not.toContain(created.id);

    if (mode === 'protected') {
      const own = await api.post<{ code: string }>(`/api/exceptions/${created.id}/approve`, {}, 403);
      expect(own.code).toBe('self_review');
    }
    const { approved, approverUid } = await approveAsAnother(created.id);
    expect(approved).toMatchObject({ id: created.id, state: 'active', requestedBy: requester });
    expect(approved.review).toMatchObject({
      decision: 'approved',
      by: { uid: approverUid },
      comment: 'Agreed with the CISO.',
      independent: mode === 'protected',
    });
    if (mode === 'protected') expect(approved.review!.caveat).toBeNull();
    else expect(approved.review!.caveat).toMatch(/^The server runs in public mode/);
    const twice = await api.post<{ code: string }>(`/api/exceptions/${created.id}/approve`, {}, 409);
    expect(twice.code).toBe('exception_not_pending');

    const accepted = await republish(control.id);
    expect(finding(accepted).accepted).toEqual({ exception: created.id, expiresOn });
    expect(accepted.exceptions!.find((exception) => exception.id === created.id)).toMatchObject({
      requestedBy: requester,
      approver: { uid: approverUid },
      independent: mode === 'protected',
    });

    const revoked = await api.post<Exception>(`/api/exceptions/${created.id}/revoke`, { reason: 'Fixed.' });
    expect(revoked).toMatchObject({ state: 'revoked', revoked: { reason: 'Fixed.', by: { uid: user?.uid ?? 'anonymous' } } });
    const again = await api.post<{ code: string }>(`/api/exceptions/${created.id}/revoke`, {}, 409);
    expect(again.code).toBe('exception_revoked');

    const counted = await republish(control.id);
    expect(finding(counted).accepted).toBeUndefined();
    expect(counted.exceptions!.map((exception) => exception.id)).not.toContain(created.id);
  });

  it('keeps a refused request, with who refused it and why, and never applies it', async () => {
    const today = await api.get<Report>('/api/report/today');
    const control = today.controls.find((result) => result.status === 'failing')!;
    const expiresOn = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const created = await api.post<Exception>(
      '/api/exceptions',
      { controlId: control.id, justification: 'Accept the whole control for the quarter.', expiresOn },
      201,
    );
    const other = await anotherPerson();
    const refused = await api.json<Exception>(`/api/exceptions/${created.id}/refuse`, {
      method: 'POST',
      body: { reason: 'Fix it instead.' },
      headers: other.headers,
    });
    expect(refused).toMatchObject({
      state: 'refused',
      review: { decision: 'refused', by: { uid: other.uid }, comment: 'Fix it instead.' },
    });
    const listed = await api.get<{ items: Exception[] }>(`/api/exceptions?state=refused&control=${control.id}`);
    expect(listed.items.map((item) => item.id)).toContain(created.id);
    const approving = await api.post<{ code: string }>(`/api/exceptions/${created.id}/approve`, {}, 409);
    expect(approving.code).toBe('exception_not_pending');
    const counted = await republish(control.id);
    expect(counted.exceptions!.map((exception) => exception.id)).not.toContain(created.id);
  });
});
