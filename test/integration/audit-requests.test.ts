/**
 * The auditor's request list through Hosting on the emulators: a CSV list imported (again without
 * making anything twice), one request answered with a demo evidence item and a sample, returned by
 * the auditor with a comment, answered again and accepted, each step in its history with who took
 * it (the signed-in person in protected mode, `anonymous` in public mode); a step based on an old
 * version refused and the answer it would have overwritten kept; the list exported as CSV with
 * its answers, and in the audit package as `requests.csv`. Runs in both modes (scripts/test.ts
 * `modeSuites`): who is recorded differs by mode.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { components } from '../../functions/src/generated/api-types.ts';
import { api } from '../support/api.ts';
import { anotherPerson } from '../support/another-person.ts';
import { mode } from '../support/emulator.ts';

type AuditRequest = components['schemas']['AuditRequest'];
type Report = components['schemas']['Report'];

describe(`the auditor's request list, ${mode} mode`, () => {
  it('imports a list, answers, returns and accepts a request, recording who and when, and exports it', async () => {
    const user = await api.user();
    const auditor = await anotherPerson();
    const report = await api.get<Report>('/api/report/today');
    const control = report.controls.find((result) => result.evidence.length > 0)!;
    const evidenceId = control.evidence[0]!;
    const from = `${report.date.slice(0, 4)}-01-01`;
    const tag = randomUUID().slice(0, 8);
    const ids = [`PBC-1${tag}`, `PBC-2${tag}`];
    const csv =
      'id,control,from,to,description\r\n' +
      `${ids[0]},${control.id},${from},${report.date},"Evidence of ${control.id}, all year"\r\n` +
      `${ids[1]},${control.id},${from},${report.date},Sample of days\r\n`;
    const headers = { 'Content-Type': 'text/csv' };
    expect(await api.json('/api/requests/import', { body: csv, headers, status: 201 })).toEqual({ created: ids, unchanged: [] });
    expect(await api.json('/api/requests/import', { body: csv, headers })).toEqual({ created: [], unchanged: ids });

    const id = ids[0]!;
    const sample = `from=${from}&to=${report.date}&size=5&seed=${tag}`;
    const answered = await api.post<AuditRequest>(`/api/requests/${id}/answers`, {
      basedOn: 1,
      add: [
        { kind: 'evidence', ref: evidenceId, note: 'What the report cites' },
        { kind: 'sample', ref: sample },
      ],
    });
    expect(answered.status).toBe('answered');
    const returned = await api.json<AuditRequest>(`/api/requests/${id}/return`, {
      body: { basedOn: 2, comment: 'Show the sample too' },
      headers: auditor.headers,
    });
    expect(returned.status).toBe('returned');
    // A step on the version before the return is refused; the return stands.
    const stale = await api.call<{ code: string }>(`/api/requests/${id}/accept`, { body: { basedOn: 2 } });
    expect([stale.status, stale.body.code]).toEqual([409, 'audit_request_changed']);
    await api.post(`/api/requests/${id}/answers`, { basedOn: 3, add: [{ kind: 'sample', ref: sample, note: 'Five days' }] });
    const accepted = await api.json<AuditRequest>(`/api/requests/${id}/accept`, {
      body: { basedOn: 4 },
      headers: auditor.headers,
    });
    const me = user?.uid ?? 'anonymous';
    expect([accepted.status, accepted.version, accepted.answers]).toEqual([
      'accepted',
      5,
      [
        { kind: 'evidence', ref: evidenceId, note: 'What the report cites' },
        { kind: 'sample', ref: sample, note: 'Five days' },
      ],
    ]);
    expect(accepted.history.map(({ action, by, comment }) => [action, by.uid, comment])).toEqual([
      ['created', me, undefined],
      ['answered', me, undefined],
      ['returned', auditor.uid, 'Show the sample too'],
      ['answered', me, undefined],
      ['accepted', auditor.uid, undefined],
    ]);
    for (const step of accepted.history) expect(step.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const exported = await (await api.response('/api/requests/export.csv')).text();
    const line = exported.split('\r\n').find((row) => row.startsWith(`"${id}"`));
    expect(line).toContain(`"accepted","evidence ${evidenceId} (What the report cites)`);
    const zip = Buffer.from(await (await api.response(`/api/audit/package?from=${report.date}&to=${report.date}`)).arrayBuffer());
    expect(zip.includes(Buffer.from('requests.csv'))).toBe(true);
  });

  it('refuses a list with an unknown control, storing none of its rows', async () => {
    const description = `Never stored ${randomUUID()}`;
    const refused = await api.call<{ code: string; errors: { line: number; pointer: string }[] }>('/api/requests/import', {
      body: `control,from,to,description\r\nIAM-01,2026-01-01,2026-01-31,${description}\r\nZZZ-99,2026-01-01,2026-01-31,x\r\n`,
      headers: { 'Content-Type': 'text/csv' },
    });
    expect([refused.status, refused.body.code, refused.body.errors.map(({ line, pointer }) => [line, pointer])]).toEqual([
      400,
      'invalid_request',
      [[3, '/control']],
    ]);
    const list = await api.get<{ items: AuditRequest[] }>('/api/requests?control=IAM-01');
    expect(list.items.some((request) => request.description === description)).toBe(false);
  });
});
