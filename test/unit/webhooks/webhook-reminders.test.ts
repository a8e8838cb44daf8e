/**
 * Reminders and event wording: evidence a control needs is reminded of on exactly the reminder
 * days before it goes stale, and each event reads as one line in a chat channel.
 */
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { expiringEvidence } from '../../../functions/src/assessment/expiring-evidence.ts';
import type { Control, EvidenceItem } from '../../../functions/src/assessment/model.ts';
import { defaultDueDays } from '@evident/contract';
import { exceptionExpiring, evidenceExpiring, slackText } from '../../../functions/src/webhooks/webhook-events.ts';

const dayMs = 24 * 60 * 60 * 1000;
const asOf = new Date('2026-11-24T00:00:00.000Z');

const control: Control = {
  id: 'BCK-03',
  title: 'Restores are tested every quarter',
  family: 'backup-and-recovery',
  severity: 'high',
  owner: 'Platform lead',
  frameworks: { soc2: [], iso27001: [], nist80053: [] },
  evidence: [{ kind: 'backup.restore_test', freshnessDays: 90 }],
  checks: [],
  scanner: { frameworks: [], checks: [], freshnessDays: 7 },
  objective: '',
  guidance: '',
  objectiveMarkdown: '',
  guidanceMarkdown: '',
};
const compiled = compileCatalog({ version: 'v', controls: [control], frameworks: [], dueDays: defaultDueDays });

/** A restore test of `subject` collected `ago` days before the cut-off. */
const restoreTest = (subject: string, ago: number, extra: Partial<EvidenceItem> = {}): EvidenceItem => ({
  id: `ev-${subject}`,
  kind: 'backup.restore_test',
  source: 'backup-tool',
  subject,
  collectedAt: new Date(asOf.getTime() - ago * dayMs).toISOString(),
  receivedAt: new Date(asOf.getTime() - ago * dayMs).toISOString(),
  data: {},
  attachments: [],
  ...extra,
});

describe('evidence about to go stale', () => {
  it('is reminded of 30, 7 and 1 days ahead, and not on the days between or once stale', () => {
    // Stale after 90 days: 60 days old leaves 30, 83 leaves 7, 89 leaves 1.
    const evidence = [60, 61, 83, 89, 91].map((ago) => restoreTest(`db-${ago}`, ago));
    const reminders = expiringEvidence(compiled, evidence, { asOf, timeZone: 'UTC', reminderDays: [30, 7, 1] });
    expect(reminders).toEqual([
      {
        controlId: 'BCK-03',
        kind: 'backup.restore_test',
        subject: 'db-60',
        evidenceId: 'ev-db-60',
        staleOn: '2026-12-24',
        daysLeft: 30,
      },
      {
        controlId: 'BCK-03',
        kind: 'backup.restore_test',
        subject: 'db-83',
        evidenceId: 'ev-db-83',
        staleOn: '2026-12-01',
        daysLeft: 7,
      },
      {
        controlId: 'BCK-03',
        kind: 'backup.restore_test',
        subject: 'db-89',
        evidenceId: 'ev-db-89',
        staleOn: '2026-11-25',
        daysLeft: 1,
      },
    ]);
  });

  it('does not remind of a daily snapshot on the day it arrives, only once its collector has stopped', () => {
    const daily = compileCatalog({
      version: 'v',
      controls: [{ ...control, evidence: [{ kind: 'backup.restore_test', freshnessDays: 7 }] }],
      frameworks: [],
      dueDays: defaultDueDays,
    });
    // Collected 2 hours ago: 7 days left, which is the whole window. Six days old: 1 day left.
    const fresh = restoreTest('db-today', 2 / 24);
    const stopped = restoreTest('db-stopped', 6);
    const reminders = expiringEvidence(daily, [fresh, stopped], { asOf, timeZone: 'UTC', reminderDays: [30, 7, 1] });
    expect(reminders.map((reminder) => [reminder.subject, reminder.daysLeft])).toEqual([['db-stopped', 1]]);
  });

  it('counts from an expiry that comes before the freshness window ends', () => {
    const expiring = restoreTest('db-expiring', 1, { expiresAt: new Date(asOf.getTime() + 7 * dayMs).toISOString() });
    const [reminder] = expiringEvidence(compiled, [expiring], { asOf, timeZone: 'UTC', reminderDays: [7] });
    expect(reminder).toMatchObject({ subject: 'db-expiring', daysLeft: 7, staleOn: '2026-12-01' });
  });
});

describe('event wording for a chat channel', () => {
  it('says which evidence goes stale, when, and for which control', () => {
    const event = evidenceExpiring(
      {
        controlId: 'BCK-03',
        kind: 'backup.restore_test',
        subject: 'db-1',
        evidenceId: 'ev-1',
        staleOn: '2026-12-01',
        daysLeft: 7,
      },
      asOf,
    );
    expect(slackText(event)).toBe(
      'The backup.restore_test evidence for db-1 goes stale on 2026-12-01 (7 days left) and BCK-03 needs it',
    );
  });

  it('says which accepted risk expires, and gives the same event id every time', () => {
    const exception = {
      id: 'exc-20261225-0123456789',
      controlId: 'IAM-01',
      subject: 'ravi@example.com',
      expiresOn: '2026-12-25',
      approver: { uid: 'u1' },
    };
    const event = exceptionExpiring(exception, 30, asOf);
    expect(slackText(event)).toBe(
      'The accepted risk exc-20261225-0123456789 on IAM-01 for ravi@example.com expires on 2026-12-25 (30 days left)',
    );
    expect(exceptionExpiring(exception, 30, new Date()).id).toBe(event.id);
    expect(exceptionExpiring(exception, 7, asOf).id).not.toBe(event.id);
  });
});
