/**
 * Accepting a risk through Hosting on the emulators: an exception for one failing subject of a
 * demo control, recorded with its approver, shows in today's report as soon as an analysis
 * publishes it (the finding accepted, the exception listed); revoked, it is gone from the next
 * publication, and a second revocation is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { bearer, hosting, mode, signUp, type SignedIn } from '../support/emulator.ts';

type Exception = components['schemas']['Exception'];

let auth: Record<string, string>;
let user: SignedIn | undefined;
beforeAll(async () => {
  user = mode === 'protected' ? await signUp() : undefined;
  auth = user ? bearer(user.idToken) : {};
});

async function call<T>(path: string, init: { method?: string; body?: unknown } = {}, status = 200): Promise<T> {
  const answer = await fetch(`${hosting}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...auth, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  expect([path, answer.status]).toEqual([path, status]);
  return (await answer.json()) as T;
}

/**
 * Publishes today's report again for one control, through an analysis, and reads it back: an
 * instance serves today's report from memory for up to a second before checking for a newer one,
 * so the read is repeated until it is the run's.
 */
async function republish(controlId: string): Promise<Report> {
  const body = { controls: [controlId], publish: true };
  const run = await call<{ id: string }>('/api/analyses', { method: 'POST', body }, 202);
  for (let tries = 0; tries < 120; tries++) {
    const report = await call<Report>('/api/report/today');
    if (report.runId === run.id) return report;
    expect(['queued', 'running', 'succeeded']).toContain((await call<{ state: string }>(`/api/analyses/${run.id}`)).state);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${run.id} did not publish today's report`);
}

describe(`accepting a risk, ${mode} mode`, () => {
  it("marks the subject's failing finding accepted once published, and stops when revoked", async () => {
    const today = await call<Report>('/api/report/today');
    const control = today.controls.find((result) =>
      result.findings.some((finding) => finding.outcome === 'fail' && finding.subject !== undefined),
    )!;
    const failed = control.findings.find((finding) => finding.outcome === 'fail' && finding.subject !== undefined)!;
    const subject = failed.subject!;
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

    const created = await call<Exception>(
      '/api/exceptions',
      {
        method: 'POST',
        body: { controlId: control.id, subject, justification: 'Accepted while the vendor ships a fix.', expiresOn },
      },
      201,
    );
    expect(created).toMatchObject({ controlId: control.id, subject, expiresOn, state: 'active', revoked: null });
    expect(created.approver.uid).toBe(user?.uid ?? 'anonymous');

    const accepted = await republish(control.id);
    // The same check's finding for the subject: a subject may pass other checks of the control.
    const finding = (report: Report) =>
      report.controls
        .find((result) => result.id === control.id)!
        .findings.find((candidate) => candidate.subject === subject && candidate.check === failed.check)!;
    expect(finding(accepted).accepted).toEqual({ exception: created.id, expiresOn });
    expect(accepted.exceptions!.map((exception) => exception.id)).toContain(created.id);

    const revoked = await call<Exception>(`/api/exceptions/${created.id}/revoke`, { method: 'POST', body: { reason: 'Fixed.' } });
    expect(revoked).toMatchObject({ state: 'revoked', revoked: { reason: 'Fixed.', by: { uid: user?.uid ?? 'anonymous' } } });
    const again = await call<{ code: string }>(`/api/exceptions/${created.id}/revoke`, { method: 'POST', body: {} }, 409);
    expect(again.code).toBe('exception_revoked');

    const counted = await republish(control.id);
    expect(finding(counted).accepted).toBeUndefined();
    expect(counted.exceptions!.map((exception) => exception.id)).not.toContain(created.id);
  });
});
