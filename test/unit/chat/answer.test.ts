/**
 * The chat engine through its entry, `answerQuestion`, on reports made from the real catalog:
 * controls found by id, name and framework requirement, follow-ups that lean on the previous
 * turn, change since a date from the caller's earlier report, declines, escaping of evidence
 * text.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it, vi } from 'vitest';
import { diffReports, summaryOf } from '../../../functions/src/assessment/report-summary.ts';
import type { ControlResult, ControlStatus, Finding, Report } from '../../../functions/src/assessment/model.ts';
import { answerQuestion, type AnswerInput } from '../../../functions/src/chat/answer.ts';
import { escapeMarkdown } from '../../../functions/src/chat/answers/compose.ts';
import type { ChatTurn, Question } from '../../../functions/src/chat/question.ts';
import { indexReport } from '../../../functions/src/chat/report-index.ts';
import { benchChatCorpus, daysOf } from '../../../scripts/bench/chat.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';

function findingFor(id: string, status: ControlStatus): Finding {
  switch (status) {
    case 'failing':
      return {
        outcome: 'fail',
        check: 'check',
        kind: 'kind',
        subject: `${id.toLowerCase()}-subject`,
        message: `${id} fails.`,
        evidence: [`ev-${id}`],
      };
    case 'stale':
      return {
        outcome: 'stale',
        kind: 'kind',
        subject: `${id.toLowerCase()}-subject`,
        message: `${id} evidence is old.`,
        evidence: [`ev-${id}`],
      };
    case 'missing':
      return { outcome: 'missing', kind: 'kind', message: `No evidence for ${id}.`, evidence: [] };
    case 'not_applicable':
      return {
        outcome: 'not_applicable',
        kind: 'attestation',
        message: `Scoped out: ${id} does not apply.`,
        evidence: [`ev-${id}`],
      };
    case 'passing':
      return { outcome: 'pass', check: 'check', kind: 'kind', message: `${id} holds.`, evidence: [`ev-${id}`] };
  }
}

/** A report over the whole catalog: every control passing except those named, each with one plain finding. */
function reportOn(
  date: string,
  statuses: Record<string, ControlStatus>,
  options: { findings?: Record<string, Finding[]>; previous?: Report } = {},
): Report {
  const controls: ControlResult[] = catalog.controls.map((control) => {
    const status = statuses[control.id] ?? 'passing';
    const findings = options.findings?.[control.id] ?? [findingFor(control.id, status)];
    return {
      id: control.id,
      title: control.title,
      family: control.family,
      severity: control.severity,
      status,
      findings,
      evidence: findings.flatMap((finding) => finding.evidence),
    };
  });
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T09:00:00.000Z`,
    generatedAt: `${date}T09:00:00.000Z`,
    runId: `run-${date}`,
    catalogVersion: catalog.version,
    summary: summaryOf(controls),
    controls,
    diff: diffReports(controls, options.previous ?? null),
  };
}

const yesterday = reportOn('2026-11-20', { 'IAM-08': 'failing', 'VUL-02': 'failing', 'IAM-05': 'stale' });
const report = reportOn(today, { 'IAM-08': 'failing', 'VUL-02': 'failing', 'IAM-05': 'stale' }, { previous: yesterday });
const index = indexReport(report, catalog);

const ask = (message: string, more: Partial<AnswerInput> = {}) =>
  answerQuestion({ message, history: [], report, catalog, index, ...more });
const citedIds = (answer: { citations: { controlId: string }[] }) => [
  ...new Set(answer.citations.map((citation) => citation.controlId)),
];
const assistant = (...ids: string[]): ChatTurn => ({
  role: 'assistant',
  content: 'An earlier answer.',
  citations: ids.map((id) => ({ controlId: id, quote: `${id} is in the report.` })),
});

const declineSuggestions = [
  'What is failing?',
  'How did the score change since yesterday?',
  'What is the status of AST-01?',
  'How do we fix IAM-08?',
];

describe('answerQuestion', () => {
  it('answers the status of a control named by its id, citing the finding it rests on', async () => {
    expect(await ask('What is the status of IAM-01?')).toEqual({
      answer:
        '**IAM-01** Multi-factor authentication for every active account is **passing** (critical severity).\n\n- Passes: IAM-01 holds.',
      citations: [
        { controlId: 'IAM-01', evidenceId: 'ev-IAM-01', quote: 'IAM-01 is passing: IAM-01 holds.' },
        { controlId: 'IAM-01', evidenceId: 'ev-IAM-01', quote: 'IAM-01 holds.' },
      ],
      grounded: true,
      suggestions: ['Which evidence supports IAM-01?', 'What changed since yesterday?', 'What needs attention?'],
    });
  });

  it('finds a control by its name, and by what people call it', async () => {
    expect(citedIds(await ask('Is multi-factor authentication enforced?'))).toEqual(['IAM-01']);
    expect(citedIds(await ask('Do we have MFA?'))).toEqual(['IAM-01']);
    expect(citedIds(await ask('iam 8'))).toEqual(['IAM-08']);
  });

  it('maps a framework requirement, in any case, to every control mapped to it and its enhancements', async () => {
    const answer = await ask('What about IA-2?');
    expect(citedIds(answer).sort()).toEqual(['IAM-01', 'IAM-02', 'IAM-06', 'IAM-09']);
    expect(answer.answer.split('\n')[0]).toBe('4 controls are mapped to ia-2 in the report for 2026-11-21:');
    expect(citedIds(await ask('and cc6.6?')).sort()).toEqual(['END-04', 'IAM-01', 'IAM-08']);
  });

  it('lists the controls that need attention, riskiest first, grouped by status', async () => {
    const answer = await ask('What needs attention?');
    expect(answer.answer).toBe(
      [
        '3 controls are failing, stale or missing evidence in the report for 2026-11-21:',
        '',
        '**Failing**',
        '',
        '- **IAM-08** Non-public data stores are not open to the internet \u2014 failing, critical: IAM-08 fails.',
        '- **VUL-02** High vulnerabilities are fixed within 30 days \u2014 failing, high: VUL-02 fails.',
        '',
        '**Stale**',
        '',
        '- **IAM-05** Quarterly access reviews of in-scope systems \u2014 stale, high: IAM-05 evidence is old.',
      ].join('\n'),
    );
    expect(citedIds(answer)).toEqual(['IAM-08', 'VUL-02', 'IAM-05']);
  });

  it('explains the controls the previous answer cited when asked "why?"', async () => {
    const answer = await ask('why?', { history: [{ role: 'user', content: 'What is failing?' }, assistant('IAM-08', 'VUL-02')] });
    expect(answer.answer).toBe(
      [
        '**IAM-08** Non-public data stores are not open to the internet is **failing** because:',
        '',
        '- Fails: IAM-08 fails.',
        '',
        '**VUL-02** High vulnerabilities are fixed within 30 days is **failing** because:',
        '',
        '- Fails: VUL-02 fails.',
      ].join('\n'),
    );
    expect(citedIds(answer)).toEqual(['IAM-08', 'VUL-02']);
  });

  it('gives the guidance of the previously cited control for "how do I fix it?"', async () => {
    const answer = await ask('How do I fix it?', { history: [{ role: 'user', content: 'Is VUL-02 ok?' }, assistant('VUL-02')] });
    expect(citedIds(answer)).toEqual(['VUL-02']);
    expect(answer.answer.split('\n').slice(0, 5)).toEqual([
      '**VUL-02** High vulnerabilities are fixed within 30 days is **failing**. What to fix:',
      '',
      '- Fails: VUL-02 fails.',
      '',
      'The catalog advises:',
    ]);
  });

  it('repeats the previous question for a new topic: "and backups?"', async () => {
    const history: ChatTurn[] = [{ role: 'user', content: 'Which evidence supports IAM-08?' }, assistant('IAM-08')];
    const answer = await ask('and backups?', { history });
    expect(citedIds(answer).sort()).toEqual(['BCK-01', 'BCK-02', 'BCK-03', 'BCK-04']);
    expect(answer.answer.split('\n').filter((line) => line.startsWith('**'))).toEqual([
      '**BCK-02** Backups are encrypted, off-site and immutable (passing) rests on 1 evidence item:',
      '**BCK-01** Daily backups succeed and are kept for at least 30 days (passing) rests on 1 evidence item:',
      '**BCK-04** Business continuity and disaster recovery plan is approved and tested (passing) rests on 1 evidence item:',
      '**BCK-03** Restores are tested every quarter and meet the recovery time objective (passing) rests on 1 evidence item:',
    ]);
  });

  it('compares with the report of a given date, which it asks the caller for', async () => {
    const earlier = reportOn('2026-11-15', { 'IAM-01': 'failing', 'VUL-02': 'failing', 'PPL-05': 'missing' });
    const lookup = vi.fn(async (date: string) => (date === '2026-11-15' ? earlier : undefined));
    const answer = await ask('What changed since 2026-11-15?', { reportOn: lookup });
    expect(lookup).toHaveBeenCalledWith('2026-11-15');
    expect(answer.answer.split('\n')[0]).toBe(
      `4 controls changed status between 2026-11-15 and 2026-11-21. The score went from ${earlier.summary.score} on 2026-11-15 to ${report.summary.score} on 2026-11-21.`,
    );
    expect(answer.citations).toEqual([
      { controlId: 'IAM-08', quote: 'IAM-08 was passing on 2026-11-15 and is failing on 2026-11-21.' },
      { controlId: 'IAM-01', quote: 'IAM-01 was failing on 2026-11-15 and is passing on 2026-11-21.' },
      { controlId: 'IAM-05', quote: 'IAM-05 was passing on 2026-11-15 and is stale on 2026-11-21.' },
      { controlId: 'PPL-05', quote: 'PPL-05 was missing evidence on 2026-11-15 and is passing on 2026-11-21.' },
    ]);
  });

  it('uses the report\u2019s own diff for "since yesterday" when the caller has no earlier reports', async () => {
    expect(await ask('What changed since yesterday?')).toEqual({
      answer: `No control changed status between 2026-11-20 and 2026-11-21. The score is ${report.summary.score}, the same as on 2026-11-20.`,
      citations: [],
      grounded: true,
      suggestions: ['What needs attention?'],
    });
  });

  it('says there is no report for a date the caller has none for', async () => {
    expect(await ask('What changed since 2026-10-01?', { reportOn: async () => undefined })).toEqual({
      answer:
        'There is no report for 2026-10-01, so what it held is not known and the report for 2026-11-21 cannot be compared with it. ' +
        'The previous report is from 2026-11-20.',
      citations: [],
      grounded: false,
      suggestions: declineSuggestions,
    });
  });

  it('declines what the report does not cover, suggesting questions it can answer', async () => {
    const scope =
      ' It can only answer from that report: its 64 controls, their findings and evidence, the catalog\u2019s guidance for them, ' +
      'and how their status changed since an earlier report.';
    expect(await ask('What is the weather in Paris?')).toEqual({
      answer: `The report for 2026-11-21 does not cover that.${scope}`,
      citations: [],
      grounded: false,
      suggestions: declineSuggestions,
    });
    expect((await ask("What's the password policy of Google?")).answer).toBe(
      `The report for 2026-11-21 does not mention \u201cGoogle\u201d, so it cannot answer that.${scope}`,
    );
    expect(await ask('Who is our CEO?')).toMatchObject({ grounded: false, citations: [] });
    expect(await ask('Why?')).toMatchObject({ grounded: false, citations: [] });
  });

  it('escapes evidence text so that it cannot inject HTML, links or images', async () => {
    const message = 'gcs/x <img src=x onerror=alert(1)> see [click](javascript:alert(1)) and ![i](http://evil.example/i.png)';
    const hostile = reportOn(
      today,
      { 'IAM-08': 'failing' },
      {
        findings: {
          'IAM-08': [
            {
              outcome: 'fail',
              check: 'no-public-access',
              kind: 'storage.bucket',
              subject: '<script>x</script>',
              message,
              evidence: ['ev-1'],
            },
          ],
        },
      },
    );
    const answer = await answerQuestion({ message: 'Why is IAM-08 failing?', history: [], report: hostile, catalog });
    expect(answer.answer).toBe(
      '**IAM-08** Non-public data stores are not open to the internet is **failing** because:\n\n' +
        '- Fails: gcs/x &lt;img src=x onerror=alert\\(1\\)&gt; see \\[click\\]\\(javascript:alert\\(1\\)\\) and ' +
        '\\!\\[i\\]\\(http://evil.example/i.png\\)',
    );
    const html = new MarkdownIt({ html: true }).render(answer.answer);
    expect(html).not.toMatch(/<img|<a |<script/);
    // Citations quote the report as it is: they are data, shown as text.
    expect(answer.citations[0]).toEqual({ controlId: 'IAM-08', evidenceId: 'ev-1', quote: `IAM-08 is failing: ${message}` });
  });
});

describe('answerQuestion, on how questions are written', () => {
  const scope =
    ' It can only answer from that report: its 64 controls, their findings and evidence, the catalog\u2019s guidance for them, ' +
    'and how their status changed since an earlier report.';

  it.each(['IAM-01', 'iam-01', 'IAM_01', 'iam 01', 'IAM01', 'iam-1'])('finds IAM-01 written as %s', async (written) => {
    const answer = await ask(`status of ${written}`);
    expect(answer.answer).toBe(
      '**IAM-01** Multi-factor authentication for every active account is **passing** (critical severity).\n\n- Passes: IAM-01 holds.',
    );
    expect(citedIds(answer)).toEqual(['IAM-01']);
  });

  it('finds a device named in upper or lower case, or its user, as the findings name them', async () => {
    const devices = reportOn(
      today,
      { 'END-02': 'failing', 'END-03': 'failing' },
      {
        findings: {
          'END-02': [
            {
              outcome: 'fail',
              check: 'edr-running',
              kind: 'endpoint.device',
              subject: 'ACME-CB-002',
              message: 'ACME-CB-002 (lucas.silva@acme.example) has no endpoint detection agent.',
              evidence: ['ev-cb-002'],
            },
          ],
          'END-03': [
            {
              outcome: 'fail',
              check: 'os-patched',
              kind: 'endpoint.device',
              subject: 'ACME-XPS-004',
              message: 'ACME-XPS-004 (priya.patel@acme.example) has no OS security update installed in the last 30 days.',
              evidence: ['ev-xps-004'],
            },
          ],
        },
      },
    );
    const askAbout = (message: string) => answerQuestion({ message, history: [], report: devices, catalog });
    // A subject the findings name is asked after by name: its open findings, under their controls;
    // with what the rest of the question speaks of ("healthy", "patched"), what those checks say of it.
    const quote = 'END-02 is failing: ACME-CB-002 (lucas.silva@acme.example) has no endpoint detection agent.';
    const suggestions = ['Why is END-02 failing?', 'How do we fix END-02?'];
    const edr = {
      answer:
        'What the report for 2026-11-21 says of ACME-CB-002:\n\n' +
        '- **END-02** Endpoint detection and response runs on every device, check edr-running \u2014 failing: ' +
        'ACME-CB-002 \\(lucas.silva@acme.example\\) has no endpoint detection agent.',
      citations: [{ controlId: 'END-02', evidenceId: 'ev-cb-002', quote }],
      grounded: true,
      suggestions,
    };
    expect(await askAbout('Is ACME-CB-002 healthy?')).toEqual(edr);
    expect(await askAbout('Is acme-cb-002 healthy?')).toEqual(edr);
    expect(await askAbout('What does lucas.silva fail?')).toEqual({
      answer:
        'In the report for 2026-11-21, 1 open finding names lucas.silva@acme.example:\n\n' +
        '- **END-02** Endpoint detection and response runs on every device \u2014 failing, high\n' +
        '  - ACME-CB-002 \\(lucas.silva@acme.example\\) has no endpoint detection agent.',
      citations: [{ controlId: 'END-02', evidenceId: 'ev-cb-002', quote }],
      grounded: true,
      suggestions,
    });
    const patched = await askAbout('Is ACME-XPS-004 patched?');
    expect(patched.answer).toBe(
      'What the report for 2026-11-21 says of ACME-XPS-004:\n\n' +
        '- **END-03** Devices run a supported, recently patched operating system, check os-patched \u2014 failing: ' +
        'ACME-XPS-004 \\(priya.patel@acme.example\\) has no OS security update installed in the last 30 days.',
    );
    expect(citedIds(patched)).toEqual(['END-03']);
  });

  it.each([
    ['What changed since 11/14/2026?', '11/14/2026'],
    ['What changed since 14.11.2026?', '14\\.11.2026'],
    ['What failed on 14-11-2026?', '14-11-2026'],
    ['Anything new since 11/14?', '11/14'],
  ])('declines %j, whose day and month order it will not guess', async (message, written) => {
    const lookup = vi.fn(async (_date: string) => undefined);
    expect(await ask(message, { reportOn: lookup })).toEqual({
      answer:
        `\u201c${written}\u201d is not written as YYYY-MM-DD, and dates in other formats are not read, since the order of day ` +
        'and month differs from place to place. Ask again with the date as YYYY-MM-DD, such as 2026-11-21 (the date of this report).',
      citations: [],
      grounded: false,
      suggestions: declineSuggestions,
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('reads a status word with one typo, but not a word it knows or one that starts differently', async () => {
    const failing = await ask('What is failing?');
    expect(citedIds(failing)).toEqual(['IAM-08', 'VUL-02']);
    for (const typed of ['whats faling?', 'What is failng?', 'what is fialing', 'What faild?']) {
      expect(await ask(typed)).toEqual(failing);
    }
    expect(await ask('What about the mailing list?')).toEqual({
      answer: `The report for 2026-11-21 does not cover \u201cmailing\u201d.${scope}`,
      citations: [],
      grounded: false,
      suggestions: declineSuggestions,
    });
  });

  it('lists what failed on an earlier day from that day\u2019s report, however the day is named', async () => {
    const earlier = reportOn('2026-11-18', { 'IAM-01': 'failing', 'VUL-02': 'failing', 'IAM-05': 'stale' });
    const lookup = vi.fn(async (date: string) => (date === '2026-11-18' ? earlier : undefined));
    const listed = {
      answer: [
        '2 controls were failing in the report for 2026-11-18:',
        '',
        '- **IAM-01** Multi-factor authentication for every active account \u2014 failing, critical: IAM-01 fails.',
        '- **VUL-02** High vulnerabilities are fixed within 30 days \u2014 failing, high: VUL-02 fails.',
      ].join('\n'),
      citations: [
        { controlId: 'IAM-01', evidenceId: 'ev-IAM-01', quote: 'IAM-01 was failing on 2026-11-18: IAM-01 fails.' },
        { controlId: 'VUL-02', evidenceId: 'ev-VUL-02', quote: 'VUL-02 was failing on 2026-11-18: VUL-02 fails.' },
      ],
      grounded: true,
      suggestions: ['What changed since 2026-11-18?', 'What needs attention?'],
    };
    expect(await ask('What failed 3 days ago?', { reportOn: lookup })).toEqual(listed);
    expect(await ask('What failed on 2026-11-18?', { reportOn: lookup })).toEqual(listed);
    expect(await ask('What was failing on Nov 18?', { reportOn: lookup })).toEqual(listed);
    expect(lookup.mock.calls).toEqual([['2026-11-18'], ['2026-11-18'], ['2026-11-18']]);
    // Named as where a comparison starts, the same day asks what changed since.
    expect((await ask('What failed since 2026-11-18?', { reportOn: lookup })).answer.split('\n')[0]).toBe(
      `2 controls changed status between 2026-11-18 and 2026-11-21. The score is ${report.summary.score}, the same as on 2026-11-18.`,
    );
    expect(await ask('What failed on 2026-11-10?', { reportOn: lookup })).toEqual({
      answer:
        'There is no report for 2026-11-10, so what it held is not known and the report for 2026-11-21 cannot be compared with it. ' +
        'The previous report is from 2026-11-20.',
      citations: [],
      grounded: false,
      suggestions: declineSuggestions,
    });
  });

  it('lists the framework requirements a control maps to, citing it', async () => {
    expect(await ask('Which frameworks does IAM-01 map to?')).toEqual({
      answer: [
        '**IAM-01** Multi-factor authentication for every active account (passing) maps to:',
        '',
        '- SOC 2: CC6.1, CC6.6',
        '- ISO 27001: A.5.17, A.8.5',
        '- NIST SP 800-53: ia-2, ia-2.1, ia-2.2',
      ].join('\n'),
      citations: [{ controlId: 'IAM-01', evidenceId: 'ev-IAM-01', quote: 'IAM-01 is passing: IAM-01 holds.' }],
      grounded: true,
      suggestions: ['Which evidence supports IAM-01?', 'What changed since yesterday?', 'What needs attention?'],
    });
    // Naming only a requirement asks for its controls, as before.
    expect(citedIds(await ask('Which controls map to IA-2?')).sort()).toEqual(['IAM-01', 'IAM-02', 'IAM-06', 'IAM-09']);
  });

  it('gives a control\u2019s objective as the catalog states it', async () => {
    expect(await ask('objective of ENC-04')).toEqual({
      answer:
        'The objective of **ENC-04** Encryption keys rotate at least once a year (passing, low severity), as the catalog states it:\n\n' +
        'Rotating encryption keys limits how much data any one key version protects and how long a leaked key stays useful. ' +
        'Automatic rotation in the key-management service does this without downtime, since older versions remain available ' +
        'for decryption.',
      citations: [{ controlId: 'ENC-04', evidenceId: 'ev-ENC-04', quote: 'ENC-04 is passing: ENC-04 holds.' }],
      grounded: true,
      suggestions: ['Which evidence supports ENC-04?', 'What changed since yesterday?', 'What needs attention?'],
    });
  });

  it('does not repeat a finding\u2019s label when its message already starts with it', async () => {
    const scopedOut = reportOn(today, { 'PPL-01': 'not_applicable' });
    const answer = await answerQuestion({ message: 'Why is PPL-01 not applicable?', history: [], report: scopedOut, catalog });
    expect(answer.answer).toBe(
      '**PPL-01** Background checks are completed for staff is **not applicable** because it is scoped out:\n\n' +
        '- Scoped out: PPL-01 does not apply.',
    );
  });
});

describe("the catalog's aliases", () => {
  it('find a control by what people call it where its own text says it otherwise', async () => {
    // IAM-01's text says "multi-factor"; "MFA" is one of its aliases, and no other control's.
    expect(catalog.controls.find((control) => control.id === 'IAM-01')!.aliases).toContain('MFA');
    expect(catalog.controls.filter((control) => control.aliases?.includes('MFA')).map((control) => control.id)).toEqual([
      'IAM-01',
    ]);
    expect(citedIds(await ask('Is MFA on for every account?'))).toEqual(['IAM-01']);
  });

  it('are not found in the report without them', async () => {
    const bare = { ...catalog, controls: catalog.controls.map(({ aliases: _aliases, ...control }) => control) };
    const answer = await answerQuestion({ message: 'Where do we stand on the pentest?', history: [], report, catalog: bare });
    expect(citedIds(answer)).toEqual([]);
  });
});

describe('escapeMarkdown', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert\\(1\\)&lt;/script&gt;'],
    ['[x](javascript:alert(1))', '\\[x\\]\\(javascript:alert\\(1\\)\\)'],
    ['![i](http://evil.example/i.png)', '\\!\\[i\\]\\(http://evil.example/i.png\\)'],
    ['# not a heading', '\\# not a heading'],
    ['- not a list', '\\- not a list'],
    ['1. not a list', '1\\. not a list'],
    ['a | b *c* _d_ `e` ~f~ & g\\h', 'a \\| b \\*c\\* \\_d\\_ \\`e\\` \\~f\\~ &amp; g\\\\h'],
    ['two\nlines', 'two lines'],
  ])('makes %j inert', (input, escaped) => {
    expect(escapeMarkdown(input)).toBe(escaped);
  });

  it('renders as the same text, with no tags, links or images', () => {
    const hostile =
      '<img src=x onerror=alert(1)> [click](javascript:alert(1)) ![i](http://evil.example/i.png) <script>x</script>';
    expect(new MarkdownIt({ html: true }).renderInline(escapeMarkdown(hostile))).toBe(
      '&lt;img src=x onerror=alert(1)&gt; [click](javascript:alert(1)) ![i](http://evil.example/i.png) &lt;script&gt;x&lt;/script&gt;',
    );
  });
});

describe('a question another reader asks that the data given cannot answer', () => {
  const period = { from: '2026-11-14', to: today, phrase: 'the last week' };
  it.each<[string, Question]>([
    ['a framework\u2019s readiness, of a report made before readiness', { kind: 'readiness', framework: 'soc2', gaps: false }],
    ['a trend, with no history at hand', { kind: 'trend', period }],
    ['one subject\u2019s past, with no history at hand', { kind: 'subjectHistory', names: ['acme/api'], period }],
  ])('declines %s', async (_what, question) => {
    const answer = await ask('(read by a model)', { read: async () => question });
    expect(answer).toMatchObject({ grounded: false, citations: [] });
    expect(answer.answer).toMatch(/^The report for 2026-11-21 does not cover that\./);
  });
});

describe('a 500-control report', () => {
  it('answers every benchmark question with the index built once, over a year of history', async () => {
    const corpus = benchChatCorpus(500, catalog);
    const started = performance.now();
    const big = indexReport(corpus.report, corpus.catalog);
    const indexMs = performance.now() - started;
    const times: number[] = [];
    const answers = [];
    for (const question of corpus.questions) {
      const asked = performance.now();
      answers.push(
        await answerQuestion({
          ...question,
          report: corpus.report,
          catalog: corpus.catalog,
          index: big,
          reportOn: async (date) => (date === corpus.earlier.date ? corpus.earlier : undefined),
          days: daysOf(corpus),
        }),
      );
      times.push(performance.now() - asked);
    }
    const status = answers[corpus.questions.findIndex((question) => question.message.startsWith('What is the status of'))]!;
    expect(citedIds(status)).toEqual(['BEN-251']);
    const declined = answers[corpus.questions.findIndex((question) => question.message.includes('weather'))]!;
    expect(declined).toMatchObject({ grounded: false });
    // A year of history: 365 days, every seventh without a report.
    const year = answers[corpus.questions.findIndex((question) => question.message.includes('last year'))]!;
    expect(year.answer).toMatch(/^Over 2025-11-22 to 2026-11-21 \(the last year\), 313 days have a report\./);
    // Hundreds of controls changed over the year: forty are listed and cited, the rest counted.
    expect(year.answer).toMatch(/\n- \u2026and \d+ more\.$/);
    expect(year.citations).toHaveLength(40);
    // Timing is for the benchmark (scripts/bench/chat.ts) to judge; here it is only reported.
    console.log(`chat on 500 controls: index ${indexMs.toFixed(1)} ms, slowest answer ${Math.max(...times).toFixed(1)} ms`);
  });
});
