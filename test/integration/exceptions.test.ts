/**
 * Accepting a risk through Hosting on the emulators: an exception for one failing subject of a
 * demo control, recorded with its approver, shows in today's report as soon as an analysis
 * publishes it (the finding accepted, the exception listed); revoked, it is gone from the next
 * publication, and a second revocation is refused.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { api } from '../support/api.ts';
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

describe(`accepting a risk, ${mode} mode`, () => {
  it("marks the subject's failing finding accepted once published, and stops when revoked", async () => {
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

    const revoked = await api.post<Exception>(`/api/exceptions/${created.id}/revoke`, { reason: 'Fixed.' });
    expect(revoked).toMatchObject({ state: 'revoked', revoked: { reason: 'Fixed.', by: { uid: user?.uid ?? 'anonymous' } } });
    const again = await api.post<{ code: string }>(`/api/exceptions/${created.id}/revoke`, {}, 409);
    expect(again.code).toBe('exception_revoked');

    const counted = await republish(control.id);
    expect(finding(counted).accepted).toBeUndefined();
    expect(counted.exceptions!.map((exception) => exception.id)).not.toContain(created.id);
  });
});
