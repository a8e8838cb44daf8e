/**
 * Populations in evaluation (functions/src/assessment/populations.ts), through the engine: a
 * subject a complete run no longer reports leaves; an incomplete newest run, an outdated complete
 * one and an unacknowledged drop each fail the control with a completeness finding; each
 * reconciliation fails it naming the uncovered subjects; a result names the population its
 * checks ran on; and the population with each subject's outcome is there for auditors.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultDueDays } from '../../../functions/src/assessment/due-dates.ts';
import { compileCatalog, evaluate, evaluateWithPopulations } from '../../../functions/src/assessment/evaluate.ts';
import type {
  Control,
  ControlResult,
  EvidenceItem,
  Reconciliation,
  SourcePopulation,
} from '../../../functions/src/assessment/model.ts';

const dayMs = 24 * 60 * 60 * 1000;
const asOf = new Date('2026-11-21T23:00:00.000Z');
const ago = (days: number): string => new Date(asOf.getTime() - days * dayMs).toISOString();
const sha256 = (subjects: string[]) =>
  createHash('sha256')
    .update(
      [...subjects]
        .sort()
        .map((subject) => `${subject}\n`)
        .join(''),
    )
    .digest('hex');

const mfa: Control = {
  id: 'IAM-01',
  title: 'MFA',
  family: 'identity-and-access',
  severity: 'high',
  owner: 'Identity team',
  frameworks: { soc2: ['CC6.1'], iso27001: [], nist80053: [] },
  evidence: [{ kind: 'idp.user', freshnessDays: 7 }],
  checks: [
    {
      id: 'mfa-enrolled',
      kind: 'idp.user',
      mode: 'each',
      where: 'item.data.active',
      expression: 'item.data.mfaEnabled',
      pass: '{{subject}} has MFA.',
      fail: '{{subject}} has no MFA.',
    },
  ],
  scanner: { frameworks: [], checks: [], freshnessDays: 7 },
  objective: '',
  guidance: '',
  objectiveMarkdown: '',
  guidanceMarkdown: '',
};

const user = (
  id: string,
  subject: string,
  collectedAt: string,
  data: Record<string, unknown> = {},
  source = 'okta',
): EvidenceItem => ({
  id,
  kind: 'idp.user',
  source,
  subject,
  collectedAt,
  receivedAt: collectedAt,
  data: { active: true, mfaEnabled: true, ...data },
  attachments: [],
});

const device = (id: string, subject: string, owner: string, collectedAt: string): EvidenceItem => ({
  id,
  kind: 'endpoint.device',
  source: 'mdm',
  subject,
  collectedAt,
  receivedAt: collectedAt,
  data: { owner },
  attachments: [],
});

/** A complete run of okta's users that opened two days ago and ended a minute later. */
function oktaRun(subjects: string[], fields: Partial<NonNullable<SourcePopulation['complete']>> = {}): SourcePopulation {
  return {
    source: 'okta',
    kind: 'idp.user',
    complete: {
      runId: 'run-okta-2',
      openedAt: ago(2),
      endedAt: new Date(Date.parse(ago(2)) + 60_000).toISOString(),
      count: subjects.length,
      sha256: sha256(subjects),
      subjects: new Set(subjects),
      ...fields,
    },
  };
}

function assess(controls: Control[], evidence: EvidenceItem[], populations: SourcePopulation[]): ControlResult[] {
  const report = evaluate(compileCatalog({ version: 'v', controls, frameworks: [], dueDays: defaultDueDays }), {
    date: '2026-11-21',
    timeZone: 'UTC',
    asOf,
    generatedAt: asOf,
    runId: 'daily',
    evidence,
    previous: null,
    populations,
  });
  return report.controls;
}

const completenessOf = (result: ControlResult) => result.findings.filter((finding) => finding.completeness);

describe('a population in evaluation', () => {
  it('leaves out a subject whose newest item predates the newest complete run that did not report it', () => {
    const evidence = [user('ev-ada', 'ada@x.com', ago(1)), user('ev-bob', 'bob@x.com', ago(3), { mfaEnabled: false })];
    const [result] = assess([mfa], evidence, [oktaRun(['ada@x.com'])]);
    expect(result!.status).toBe('passing');
    expect(result!.evidence).toEqual(['ev-ada']);
    expect(result!.populations).toEqual([
      {
        kind: 'idp.user',
        count: 1,
        sha256: sha256(['ada@x.com']),
        runs: [
          {
            source: 'okta',
            runId: 'run-okta-2',
            completedAt: '2026-11-19T23:01:00.000Z',
            count: 1,
            sha256: sha256(['ada@x.com']),
          },
        ],
      },
    ]);
    // Without the run, bob's old item still counts and fails the control.
    expect(assess([mfa], evidence, [])[0]!.status).toBe('failing');
  });

  it('keeps a subject collected since the run opened, or sent by another source, though the run did not report it', () => {
    const evidence = [
      user('ev-ada', 'ada@x.com', ago(1)),
      user('ev-cy', 'cy@x.com', ago(1), { mfaEnabled: false }),
      user('ev-di', 'di@x.com', ago(3), { mfaEnabled: false }, 'hr-sync'),
    ];
    const [result] = assess([mfa], evidence, [oktaRun(['ada@x.com'])]);
    expect(result!.evidence).toEqual(['ev-ada', 'ev-cy', 'ev-di']);
    expect(result!.findings.filter((finding) => finding.outcome === 'fail').map((finding) => finding.subject)).toEqual([
      'cy@x.com',
      'di@x.com',
    ]);
  });

  it('fails a control whose source ended its newest run incomplete, saying which run and why', () => {
    const population: SourcePopulation = {
      ...oktaRun(['ada@x.com']),
      incomplete: { runId: 'run-okta-3', reason: 'abandoned', endedAt: ago(0.5) },
    };
    const [result] = assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [population]);
    expect(result!.status).toBe('failing');
    expect(completenessOf(result!)).toEqual([
      {
        outcome: 'fail',
        kind: 'idp.user',
        message:
          'The newest idp.user run of okta (run-okta-3) is incomplete: it was not completed in time. IAM-01 cannot pass ' +
          'until a run of okta completes.',
        evidence: [],
        completeness: { reason: 'run_incomplete', source: 'okta', runId: 'run-okta-3' },
      },
    ]);
  });

  it('words each way a run ends incomplete', () => {
    const words = (['counts_disagree', 'cancelled'] as const).map((reason) => {
      const population = { ...oktaRun(['ada@x.com']), incomplete: { runId: 'run-okta-3', reason, endedAt: ago(0.5) } };
      return completenessOf(assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [population])[0]!)[0]!.message;
    });
    expect(words).toEqual([
      'The newest idp.user run of okta (run-okta-3) is incomplete: the counts its collector declared disagree with what ' +
        'arrived. IAM-01 cannot pass until a run of okta completes.',
      'The newest idp.user run of okta (run-okta-3) is incomplete: it was cancelled. IAM-01 cannot pass until a run of ' +
        'okta completes.',
    ]);
  });

  it('fails a control whose newest complete run is older than the kind\u2019s freshness window, and not one within it', () => {
    const old = oktaRun(['ada@x.com'], { endedAt: ago(8) });
    const [result] = assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [old]);
    expect(completenessOf(result!)).toEqual([
      {
        outcome: 'fail',
        kind: 'idp.user',
        message: 'The newest complete idp.user run of okta (run-okta-2) ended 8 days ago; IAM-01 needs one within 7 days.',
        evidence: [],
        completeness: { reason: 'run_outdated', source: 'okta', runId: 'run-okta-2' },
      },
    ]);
    const recent = oktaRun(['ada@x.com'], { endedAt: ago(7) });
    expect(assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [recent])[0]!.status).toBe('passing');
  });

  it('fails a control on an unacknowledged drop until it is acknowledged', () => {
    const drop = { previousRunId: 'run-okta-1', previousCount: 10, percent: 90 };
    const dropped = oktaRun(['ada@x.com'], { drop: { ...drop, acknowledged: false } });
    const [result] = assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [dropped]);
    expect(completenessOf(result!)).toEqual([
      {
        outcome: 'fail',
        kind: 'idp.user',
        message:
          'The idp.user population of okta dropped 90 % (from 10 in run-okta-1 to 1 in run-okta-2); IAM-01 cannot pass ' +
          'until someone acknowledges the drop.',
        evidence: [],
        completeness: { reason: 'population_dropped', source: 'okta', runId: 'run-okta-2' },
      },
    ]);
    const acknowledged = oktaRun(['ada@x.com'], { drop: { ...drop, acknowledged: true } });
    expect(assess([mfa], [user('ev-ada', 'ada@x.com', ago(1))], [acknowledged])[0]!.status).toBe('passing');
  });

  it('ignores runs of attestations and scanner findings, which are not read per subject of a kind', () => {
    // A control that reads both, each with an incomplete newest run: neither doubts its population.
    const both: Control = {
      ...mfa,
      evidence: [...mfa.evidence, { kind: 'attestation', freshnessDays: 365 }, { kind: 'scanner.finding', freshnessDays: 7 }],
    };
    const incomplete = (kind: SourcePopulation['kind']): SourcePopulation => ({
      source: 'grc',
      kind,
      incomplete: { runId: 'r', reason: 'cancelled', endedAt: ago(1) },
    });
    const [result] = assess(
      [both],
      [user('ev-ada', 'ada@x.com', ago(1))],
      [incomplete('attestation'), incomplete('scanner.finding')],
    );
    expect(completenessOf(result!)).toEqual([]);
    // The same run of a kind read per subject does doubt it.
    const [doubted] = assess([both], [user('ev-ada', 'ada@x.com', ago(1))], [incomplete('idp.user')]);
    expect(completenessOf(doubted!).map((finding) => finding.completeness)).toEqual([
      { reason: 'run_incomplete', source: 'grc', runId: 'r' },
    ]);
  });
});

describe('a reconciliation', () => {
  const devices: Reconciliation = {
    id: 'every-active-account-has-a-device',
    description: 'every active account has a managed device',
    population: { kind: 'idp.user', where: 'item.data.active' },
    coveredBy: { kind: 'endpoint.device', key: 'data.owner' },
    expect: '{{subject}}',
    freshnessDays: 7,
  };
  const edr: Control = {
    ...mfa,
    id: 'END-02',
    evidence: [{ kind: 'endpoint.device', freshnessDays: 7 }],
    checks: [],
    reconciliations: [devices],
  };

  it('passes when every subject of the population is covered, counting only admitted, fresh items', () => {
    const evidence = [
      user('ev-ada', 'ada@x.com', ago(1)),
      user('ev-old', 'old@x.com', ago(1), { active: false }),
      user('ev-gone', 'gone@x.com', ago(9)),
      device('ev-mac', 'mac-1', 'ada@x.com', ago(1)),
    ];
    expect(completenessOf(assess([edr], evidence, [])[0]!)).toEqual([]);
  });

  it('is not judged before the covering kind has any evidence: the control misses it instead', () => {
    const [result] = assess([edr], [user('ev-ada', 'ada@x.com', ago(1))], []);
    expect([result!.status, completenessOf(result!)]).toEqual(['missing', []]);
  });

  it('fails naming the first 20 uncovered subjects in order, their count and their items', () => {
    const people = Array.from({ length: 23 }, (_, n) => `p${String(n).padStart(2, '0')}@x.com`);
    const evidence = [
      ...people.map((person, n) => user(`ev-u${n}`, person, ago(1))),
      device('ev-mac', 'mac-1', 'p05@x.com', ago(1)),
      device('ev-stale', 'mac-2', 'p06@x.com', ago(8)),
    ];
    const [result] = assess([edr], evidence, []);
    const uncovered = people.filter((person) => person !== 'p05@x.com');
    expect(result!.status).toBe('failing');
    expect(completenessOf(result!)).toEqual([
      {
        outcome: 'fail',
        kind: 'idp.user',
        message:
          `22 idp.user subjects have no endpoint.device (every active account has a managed device): ` +
          `${uncovered.slice(0, 20).join(', ')} and 2 more.`,
        evidence: uncovered.slice(0, 20).map((person) => `ev-u${people.indexOf(person)}`),
        completeness: {
          reason: 'reconciliation',
          reconciliation: 'every-active-account-has-a-device',
          uncovered: { count: 22, subjects: uncovered.slice(0, 20) },
        },
      },
    ]);
    expect(result!.evidence).toContain('ev-u0');
  });

  it('matches through the expected key, a template over the population\u2019s item', () => {
    const trained: Reconciliation = {
      ...devices,
      id: 'trained',
      description: 'every active account was trained',
      coveredBy: { kind: 'training.completion', where: "item.data.course == 'security-awareness'", key: 'subject' },
      expect: '{{subject}}/security-awareness',
    };
    const training = (subject: string, course: string): EvidenceItem => ({
      id: `ev-${subject}`,
      kind: 'training.completion',
      source: 'lms',
      subject,
      collectedAt: ago(1),
      receivedAt: ago(1),
      data: { course },
      attachments: [],
    });
    const evidence = [
      user('ev-ada', 'ada@x.com', ago(1)),
      user('ev-bob', 'bob@x.com', ago(1)),
      training('ada@x.com/security-awareness', 'security-awareness'),
      training('bob@x.com/secure-coding', 'secure-coding'),
    ];
    const [result] = assess([{ ...edr, reconciliations: [trained] }], evidence, []);
    expect(completenessOf(result!).map((finding) => finding.completeness)).toEqual([
      { reason: 'reconciliation', reconciliation: 'trained', uncovered: { count: 1, subjects: ['bob@x.com'] } },
    ]);
  });
});

describe('a control\u2019s population for auditors', () => {
  it('gives each subject the worst outcome of the checks of its kind, out of scope where no check applied', () => {
    const twoChecks: Control = {
      ...mfa,
      checks: [
        ...mfa.checks,
        { id: 'all-present', kind: 'idp.user', mode: 'all', expression: 'size(items) > 0', pass: 'ok', fail: 'none' },
        {
          id: 'admins-only',
          kind: 'idp.user',
          mode: 'each',
          where: 'item.data.admin',
          expression: 'item.data.mfaEnabled',
          pass: 'ok',
          fail: 'no',
        },
      ],
    };
    const evidence = [
      user('ev-ada', 'ada@x.com', ago(1)),
      user('ev-bob', 'bob@x.com', ago(1), { mfaEnabled: false }),
      user('ev-cy', 'cy@x.com', ago(1), { active: false }),
      user('ev-di', 'di@x.com', ago(1), { admin: true }),
    ];
    const onlyEach: Control = { ...mfa, checks: [mfa.checks[0]!] };
    const { report, populations } = evaluateWithPopulations(
      compileCatalog({
        version: 'v',
        controls: [twoChecks, { ...onlyEach, id: 'IAM-09' }],
        frameworks: [],
        dueDays: defaultDueDays,
      }),
      { date: '2026-11-21', timeZone: 'UTC', asOf, generatedAt: asOf, runId: 'daily', evidence, previous: null },
    );
    const subjects = ['ada@x.com', 'bob@x.com', 'cy@x.com', 'di@x.com'];
    expect(populations).toEqual([
      {
        controlId: 'IAM-01',
        kind: 'idp.user',
        count: 4,
        sha256: sha256(subjects),
        subjects: [
          // admins-only errs on ada, bob and cy (no admin field): an error outranks a pass, a fail outranks both.
          { subject: 'ada@x.com', outcome: 'error', evidenceId: 'ev-ada' },
          { subject: 'bob@x.com', outcome: 'fail', evidenceId: 'ev-bob' },
          { subject: 'cy@x.com', outcome: 'error', evidenceId: 'ev-cy' },
          { subject: 'di@x.com', outcome: 'pass', evidenceId: 'ev-di' },
        ],
      },
      {
        controlId: 'IAM-09',
        kind: 'idp.user',
        count: 4,
        sha256: sha256(subjects),
        subjects: [
          { subject: 'ada@x.com', outcome: 'pass', evidenceId: 'ev-ada' },
          { subject: 'bob@x.com', outcome: 'fail', evidenceId: 'ev-bob' },
          { subject: 'cy@x.com', outcome: 'out_of_scope', evidenceId: 'ev-cy' },
          { subject: 'di@x.com', outcome: 'pass', evidenceId: 'ev-di' },
        ],
      },
    ]);
    // The report is the one `evaluate` gives: asking for populations changes nothing in it.
    expect(report.controls.map((result) => result.populations)).toEqual([
      [{ kind: 'idp.user', count: 4, sha256: sha256(subjects), runs: [] }],
      [{ kind: 'idp.user', count: 4, sha256: sha256(subjects), runs: [] }],
    ]);
  });
});
