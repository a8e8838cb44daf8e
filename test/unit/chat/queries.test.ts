/**
 * The chat's structured queries on the demo() history (14 daily reports up to 2026-11-21): how
 * questions are read into spans, days and checks; what trends, comparisons and control histories
 * answer and cite; the evidence each control result lists as going stale; and the history
 * reader, which reads each past report once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem } from '../../../functions/src/assessment/model.ts';
import { answerAsked, answerQuestion, type ComposedAnswer } from '../../../functions/src/chat/answer.ts';
import type { ChatTurn } from '../../../functions/src/chat/question.ts';
import { parseQuery } from '../../../functions/src/chat/offline/parse-query.ts';
import { askedOf } from '../../../functions/src/chat/offline/asked.ts';
import { readQuestion } from '../../../functions/src/chat/offline/reader.ts';
import { normalize } from '../../../functions/src/chat/offline/question-cues.ts';
import { StoredReportDays } from '../../../functions/src/reports/report-days.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { citedIds, evaluationToday, useEvaluationHistory } from '../../support/chat-evaluation.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const demo = useEvaluationHistory();

const ask = (message: string, history: ChatTurn[] = []): Promise<ComposedAnswer> =>
  answerQuestion({
    message,
    history,
    report: demo().report,
    catalog: demo().compiled.catalog,
    index: demo().index,
    days: demo().days,
  });

describe('reading days and spans into queries', () => {
  it('reads two dates as a comparison, a span with a score word as a trend, and a span with a named control as its history', () => {
    const read = (text: string) => parseQuery(askedOf(text, [], demo().index, text));
    expect(read('compare 2026-11-10 with 2026-11-18')).toEqual({
      kind: 'compare',
      earlier: '2026-11-10',
      later: '2026-11-18',
      phrase: '2026-11-10 and 2026-11-18',
    });
    expect(read('how did the score move over the last 10 days')).toMatchObject({ kind: 'trend', period: { from: '2026-11-12' } });
    expect(read('was iam-01 passing all month')).toMatchObject({ kind: 'controlHistory', controlIds: ['IAM-01'] });
    // "changes over the past 3 days" is a diff since a day, which the intent classifier answers.
    expect(read('what were the changes over the past 3 days')).toBeUndefined();
  });
});

describe('reading what a question names', () => {
  const parse = (text: string, history: ChatTurn[] = []) => parseQuery(askedOf(text, history, demo().index, normalize(text)));

  it('reads requirement ids as people write them: Annex A with a space, a series with .x, ranges, NIST families', () => {
    expect(parse('Is Annex A 8.5 (secure authentication) met?')).toMatchObject({ kind: 'readiness', requirements: ['A.8.5'] });
    expect(parse('Which of the ISO Annex A people controls (A.6.x) are still open?')).toMatchObject({
      requirements: ['A.6'],
      statuses: ['failing', 'stale', 'missing'],
    });
    expect(parse('supplier requirements in 27001 (A.5.19 - A.5.22), anything open?')).toMatchObject({
      requirements: ['A.5.19', 'A.5.20', 'A.5.21', 'A.5.22'],
    });
    expect(parse('which 800-53 SI controls are failing')).toMatchObject({ framework: 'nist80053', requirements: ['si'] });
  });

  it('reads a subject by the names people use for it, and a day against the one before', () => {
    expect(parse('what does Priya Patel fail?')).toMatchObject({ kind: 'subject', name: 'priya.patel@acme.example' });
    expect(parse('is the billing-service repo ok?')).toMatchObject({ kind: 'subject', name: 'acme/billing-service' });
    expect(parse('what broke on nov 14')).toEqual({ kind: 'day', date: '2026-11-14', phrase: 'nov 14', focus: 'newlyFailing' });
    expect(
      parse('who owns those and when are they due?', [
        { role: 'user', content: 'which laptops fail?' },
        {
          role: 'assistant',
          content: 'END-02 and END-03.',
          citations: [
            { controlId: 'END-02', quote: 'END-02' },
            { controlId: 'END-03', quote: 'END-03' },
          ],
        },
      ]),
    ).toEqual({ kind: 'ownership', controlIds: ['END-02', 'END-03'] });
  });

  it("says of a subject, check by check, only what that check's findings say", async () => {
    const answer = await ask('what are the acme.okta.com settings on lockout and passwords?');
    expect(answer.answer.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- **IAM-07** Password, lockout and session limits in the identity provider, check password-length — passing: acme.okta.com requires passwords of at least 14 characters.',
      '- **IAM-07** Password, lockout and session limits in the identity provider, check lockout — passing: acme.okta.com locks an account after 10 failed attempts.',
    ]);
  });
});

describe('changes over a span', () => {
  it("counts them from the span's first report when the history starts inside it, and says between which days", async () => {
    // The demo's history starts on 2026-11-08: the day before "the last two weeks" has no report.
    const answer = await answerQuestion({
      message: 'What changed in the last two weeks?',
      history: [],
      report: demo().report,
      catalog: demo().compiled.catalog,
      index: demo().index,
      days: demo().days,
      reportOn: async (date) => (await demo().reports.find(date, { immutable: true }))?.report,
    });
    expect(answer.answer.split('\n')[0]).toBe(
      '10 controls changed status between 2026-11-08 and 2026-11-21. The score went from 84.3 on 2026-11-08 to 75.7 on 2026-11-21.',
    );
    expect(answer.grounded).toBe(true);
  });
});

describe('changes over a span counted back', () => {
  it('reads "over the past month" as the changes since the day before it, and "last month" as no such day', () => {
    const read = (text: string) => readQuestion(text, [], demo().index, demo().days);
    return Promise.all([
      expect(read('has anything regressed over the past month')).resolves.toEqual({
        kind: 'changes',
        since: { date: '2026-10-21', phrase: 'the past month' },
        focus: 'newlyFailing',
      }),
      expect(read('what changed last month')).resolves.toEqual({
        kind: 'changes',
        since: { date: null, phrase: 'the previous report' },
        focus: 'all',
      }),
    ]);
  });
});

describe('a trend over more than a month of reports', () => {
  it('tables the score by month: days with a report, lowest, highest and last', async () => {
    // 40 days from 2026-10-13 to 2026-11-21, the score one point up each day from 60.
    const records = Array.from({ length: 40 }, (_, n) => ({
      date: new Date(Date.UTC(2026, 9, 13 + n)).toISOString().slice(0, 10),
      summary: { ...demo().report.summary, score: 60 + n },
      statuses: {},
    }));
    const days = { between: async (from: string, to: string) => records.filter(({ date }) => date >= from && date <= to) };
    const answer = await answerAsked(
      { kind: 'trend', period: { from: '2026-10-13', to: '2026-11-21', phrase: 'the last 40 days' } },
      demo().index,
      { days },
    );
    const table = answer.answer.split('\n').filter((line) => line.startsWith('|'));
    expect(table).toEqual([
      '| Month | Days with a report | Lowest | Highest | Last |',
      '| --- | --- | --- | --- | --- |',
      '| 2026-10 | 19 | 60 | 78 | 78 |',
      '| 2026-11 | 21 | 79 | 99 | 99 |',
    ]);
  });
});

describe('rankings', () => {
  it('finds the day the score fell most against the report before it, and what changed that day', async () => {
    const answer = await ask('Which day saw the biggest drop in score?');
    expect(answer.answer.split('\n')[0]).toMatch(
      /^The score was \*\*[\d.]+\*\* on 2026-11-19, down [\d.]+ points from \*\*82.9\*\* on 2026-11-18/,
    );
    expect(citedIds(answer)).toEqual(['END-02', 'IAM-08']);
  });

  it('ranks owners by the controls they have needing attention, and frameworks by readiness', async () => {
    const owners = await ask('Which owner has the most open controls?');
    expect(owners.answer.split('\n')[0]).toBe('The IT lead has the most controls needing attention: 4.');
    expect(citedIds(owners)).toEqual(['END-02', 'END-03', 'IAM-05', 'IAM-08']);
    // Asked of people, not owners: the same ranking.
    const who = await ask('Who is on the hook for the most open items?');
    expect([who.answer.split('\n')[0], citedIds(who)]).toEqual([owners.answer.split('\n')[0], citedIds(owners)]);
    const frameworks = await ask('Which of the three frameworks are we closest to being audit-ready for?');
    expect(frameworks.answer.split('\n')[2]).toMatch(/^- NIST SP 800-53 .*: \*\*71.6%\*\* ready/);
    expect([frameworks.grounded, frameworks.citations]).toEqual([true, []]);
  });
});

describe("a subject's history", () => {
  it("finds a subject today's report no longer names in the reports of the span, with its days and where it stands today", async () => {
    const answer = await ask('Did cloudsql/acme-prod-billing miss its backups at any point in the last two weeks?');
    expect(answer.answer.split('\n')[0]).toBe(
      'What the reports from 2026-11-08 to 2026-11-21 (the last two weeks) say of cloudsql/acme-prod-billing:',
    );
    expect(answer.answer).toContain('**BCK-01**');
    expect(answer.answer).toMatch(/Today the control is passing and the finding is gone\.$/);
    expect(citedIds(answer)).toEqual(['BCK-01']);
  });

  it("says a finding is still open when today's report still names the subject, whatever its message now says", async () => {
    // The span ends before today, and VUL-02's finding counts its oldest vulnerability's days: today's words differ.
    const answer = await ask('Was host/vpn-gateway failing between nov 10 and nov 14?');
    expect(answer.answer).toMatch(/\*\*VUL-02\*\*.*Today the control is failing and the finding is still open\.$/m);
    expect(citedIds(answer)).toEqual(['VUL-02']);
  });

  it('leaves a question with no past cue, or naming nothing the span holds, to the other answers', async () => {
    expect((await ask('What is wrong with acme/billing-service?')).answer).toMatch(
      /^In the report for 2026-11-21, 2 open findings name/,
    );
    expect((await ask('Was acme/nothing-here ever failing in the last two weeks?')).answer).not.toMatch(/^What the reports from/);
  });
});

describe('answers about subjects, days and frameworks the report does not have', () => {
  it('answers a day with its score against the report before it, citing what changed', async () => {
    const answer = await ask('why did the score drop on the 19th?');
    expect(answer.answer).toMatch(
      /^The score was \*\*[\d.]+\*\* on 2026-11-19, down [\d.]+ points from \*\*[\d.]+\*\* on 2026-11-18/,
    );
    expect(citedIds(answer)).toEqual(['END-02', 'IAM-08']);
  });

  it('declines a framework the catalog does not map and a person no finding names', async () => {
    for (const question of [
      'FedRAMP Moderate - how close are we?',
      'are we PCI DSS compliant?',
      'what is jennifer.wu@acme.example failing?',
    ]) {
      const answer = await ask(question);
      expect([answer.grounded, answer.citations]).toEqual([false, []]);
    }
  });
});

describe('answers over the history', () => {
  it('follows the score over a span, naming the days without a report and citing what changed between its ends', async () => {
    const answer = await ask('Show the score trend for November');
    expect(answer.grounded).toBe(true);
    expect(answer.answer).toContain('Days without a report (not counted): 2026-11-01 to 2026-11-07.');
    expect(answer.answer).toContain('**84.3** on 2026-11-08');
    expect(answer.answer).toContain('Lowest **66.2** on 2026-11-14');
    expect(citedIds(answer)).toEqual([
      'CHG-02',
      'ENC-04',
      'END-02',
      'IAM-05',
      'IAM-08',
      'INC-01',
      'INC-02',
      'INC-04',
      'PPL-03',
      'VUL-05',
    ]);
    expect(answer.citations.find((citation) => citation.controlId === 'IAM-08')?.quote).toBe(
      'IAM-08 was passing on 2026-11-08 and failing on 2026-11-21.',
    );
  });

  it('declines a span with no report at all', async () => {
    const answer = await ask('What was our score in 2024?');
    expect(answer).toMatchObject({ grounded: false, citations: [] });
    expect(answer.answer).toBe('There is no report between 2024-01-01 and 2024-12-31, so the report history cannot answer that.');
  });

  it("gives a control's runs of status over a span, and answers a follow-up about the control just cited", async () => {
    const answer = await ask('When did VUL-01 get fixed?');
    expect(citedIds(answer)).toEqual(['VUL-01']);
    expect(answer.answer).toContain('- failing from 2026-11-10 to 2026-11-16');
    expect(answer.answer).toContain('- passing from 2026-11-17 to 2026-11-21 (fixed), through today');
    const followUp = await ask('since when?', [
      { role: 'user', content: 'Is IAM-08 failing?' },
      { role: 'assistant', content: 'IAM-08 is failing.', citations: [{ controlId: 'IAM-08', quote: 'IAM-08 is failing.' }] },
    ]);
    expect(citedIds(followUp)).toEqual(['IAM-08']);
    expect(followUp.answer).toContain('- failing from 2026-11-19 to 2026-11-21, through today');
  });
});

describe('answers from the report alone', () => {
  it('gives readiness per framework from the report, citing what keeps it from ready', async () => {
    const answer = await ask('Are we ready for a SOC 2 audit?');
    expect(answer.answer.split('\n')[0]).toBe(
      'SOC 2 Trust Services Criteria (2017) readiness in the report for 2026-11-21 is **32%**: 8 met of 25 in scope ' +
        '(Security, Availability, Confidentiality, Processing Integrity, Privacy, less 36 criteria excluded); 13 not met ' +
        "and 4 unproven; 36 of its 61 requirements are out of scope. (The report's overall score, over every control, is 75.7.)",
    );
    expect(citedIds(answer)).not.toContain('PPL-01');
    expect(citedIds(answer)).toContain('IAM-08');
  });

  it('names the subjects a check fails, matched by the evidence fields it reads, or how many pass', async () => {
    const mfa = await ask('Which people do not have MFA enabled?');
    expect(citedIds(mfa)).toEqual(['IAM-01']);
    expect(mfa.answer).toContain('check mfa-enrolled on idp.user evidence: no subject fails; 12 pass.');
    const edr = await ask('Which devices are missing EDR?');
    expect(citedIds(edr)).toEqual(['END-02']);
    expect(edr.answer).toContain('- ACME-CB-002 \\(lucas.silva@acme.example\\) has no endpoint detection agent');
  });

  it('lists what an owner answers for, what falls due and what has been accepted', async () => {
    expect(citedIds(await ask('What does the IT lead own that is failing?'))).toEqual(['END-02', 'END-03', 'IAM-08']);
    const due = await ask('What is due before December?');
    expect(citedIds(due)).toEqual(['IAM-08']);
    expect(due.answer).toContain('due 2026-11-26');
    const accepted = await ask('What risks have we accepted?');
    expect(accepted).toMatchObject({ grounded: true, citations: [] });
    expect(accepted.answer).toBe('No exception is in force in the report for 2026-11-21: no finding is accepted as a risk.');
  });

  it("reads an auditor's exceptions as the controls that fail the audit, and a granted exception as an accepted risk", async () => {
    const flagged = await ask('Which controls would an auditor flag as exceptions?');
    expect(flagged.answer.split('\n')[0]).toBe(
      '12 controls are failing, stale or missing evidence in the report for 2026-11-21:',
    );
    expect(citedIds(flagged)).toEqual(
      [
        'END-02',
        'END-03',
        'ENC-04',
        'CHG-02',
        'IAM-05',
        'IAM-08',
        'INC-02',
        'LOG-04',
        'PPL-03',
        'PPL-05',
        'VEN-02',
        'VUL-02',
      ].sort(),
    );
    expect((await ask('Which exceptions has the auditor approved?')).answer).toBe(
      'No exception is in force in the report for 2026-11-21: no finding is accepted as a risk.',
    );
  });

  it('declines inventories and who-did-what, which no report holds', async () => {
    for (const question of ['How many employees do we have?', 'Who approved the last deployment?']) {
      expect(await ask(question)).toMatchObject({ grounded: false, citations: [] });
    }
  });

  it('lists evidence going stale ahead by day, leaving out daily snapshots', async () => {
    const answer = await ask('What goes stale in the next 60 days?');
    expect(citedIds(answer)).toEqual(['BCK-03']);
    expect(answer.answer).toContain(
      'The backup.restore_test evidence for gcs/acme-customer-uploads goes stale on **2026-12-13**',
    );
    const none = await ask('What evidence will go stale this week?');
    expect(none).toMatchObject({ grounded: true, citations: [] });
    expect(none.answer).toContain(
      'The next to go stale is the backup.restore_test evidence for gcs/acme-customer-uploads, on 2026-12-13.',
    );
  });
});

describe('what a report lists as going stale', () => {
  it('lists aged evidence with the instant it stops counting, and not a snapshot collected within the day', () => {
    const asOf = new Date(`${evaluationToday}T09:00:00Z`);
    const item = (subject: string, collectedAt: string, effectiveDate?: string): EvidenceItem => ({
      id: `ev-${subject}`,
      kind: 'backup.restore_test',
      source: 'backup-tool',
      subject,
      collectedAt,
      receivedAt: collectedAt,
      ...(effectiveDate ? { effectiveDate } : {}),
      data: { succeeded: true, restoreMinutes: 20, rtoMinutes: 240, completedOn: '2026-10-01' },
      attachments: [],
    });
    const report = evaluate(demo().compiled, {
      date: evaluationToday,
      timeZone: 'UTC',
      asOf,
      generatedAt: asOf,
      runId: 'test',
      previous: null,
      evidence: [item('db-aged', '2026-11-21T02:00:00Z', '2026-10-01T00:00:00Z')],
    });
    const restores = report.controls.find((control) => control.id === 'BCK-03')!;
    const window = demo().compiled.catalog.controls.find((control) => control.id === 'BCK-03')!.evidence[0]!.freshnessDays;
    expect(restores.expiring).toEqual([
      {
        kind: 'backup.restore_test',
        subject: 'db-aged',
        evidenceId: 'ev-db-aged',
        staleAt: new Date(Date.parse('2026-10-01T00:00:00Z') + window * 86_400_000 + 1).toISOString(),
      },
    ]);
    const snapshot = evaluate(demo().compiled, {
      date: evaluationToday,
      timeZone: 'UTC',
      asOf,
      generatedAt: asOf,
      runId: 'test',
      previous: null,
      evidence: [item('db-today', '2026-11-21T02:00:00Z')],
    });
    expect(snapshot.controls.find((control) => control.id === 'BCK-03')!.expiring).toBeUndefined();
  });
});

describe('the history reader', () => {
  it("reads each past day's report once, then only lists; the newest day is read again", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evident-report-days-'));
    try {
      const recording = new RecordingStore(new LocalFolderStore(dir));
      for (const date of ['2026-11-19', '2026-11-20', '2026-11-21']) {
        const stored = (await demo().reports.find(date))!;
        await new ReportStore(new LocalFolderStore(dir)).create(stored.report);
      }
      const days = new StoredReportDays(new ReportStore(recording), () => '2026-11-21');
      const first = await days.between('2026-11-01', '2026-11-21');
      expect(first.map((day) => day.date)).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
      expect(first[0]!.statuses['IAM-08']).toBe('failing');
      expect(recording.of('read').length).toBe(3);
      recording.reset();
      await days.between('2026-11-01', '2026-11-21');
      expect(recording.of('list').length).toBeGreaterThanOrEqual(1);
      // Today's report may be republished, so it is looked up again (the store's own cache may serve it).
      expect(recording.of('read').filter((name) => !name.includes('2026-11-21'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
