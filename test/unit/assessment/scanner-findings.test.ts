/**
 * Scanner findings in the assessment: Prowler's real sample output imported and evaluated
 * against controls whose scanner feeds the catalog build compiles from Prowler's real mappings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { evaluate, compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { toObservation } from '../../../functions/src/assessment/oscal-export.ts';
import { CheckpointStore } from '../../../functions/src/evidence/checkpoint-store.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import type { Control, ControlResult, EvidenceItem, FrameworkMappings } from '../../../functions/src/assessment/model.ts';
import { defaultDueDays } from '@evident/contract';
import { convertFinding, type ScannerFindingInput } from '../../../functions/src/common/ocsf-findings.ts';
import { readScanner, readScannerMappings } from '../../../scripts/lib/scanner-mappings.ts';

const root = join(import.meta.dirname, '../../..');
const mappings = readScannerMappings(join(root, 'functions/catalog/scanners'));
const refusals = {
  lineOf: () => 1,
  fail: (_line: number, message: string): never => {
    throw new Error(message);
  },
};

function sample(provider: 'aws' | 'azure'): unknown[] {
  return JSON.parse(readFileSync(join(root, `test/fixtures/prowler/example_output_${provider}.ocsf.json`), 'utf8')) as unknown[];
}

function imported(findings: readonly unknown[], receivedAt = '2025-02-14T14:00:00.000Z'): EvidenceItem[] {
  return findings.flatMap((finding) => {
    const converted = convertFinding(finding);
    if ('problem' in converted) throw new Error(converted.problem);
    return converted.items.map((input: ScannerFindingInput) => ({ ...input, receivedAt, attachments: [] }));
  });
}

const noMappings: FrameworkMappings = { soc2: [], iso27001: [], nist80053: [] };

/** A control with no evidence of its own, fed by the scanner as its frontmatter would say. */
function control(
  id: string,
  scanner: Record<string, unknown>,
  frameworks: Partial<FrameworkMappings> = {},
  fields: Partial<Control> = {},
): Control {
  const mapped = { ...noMappings, ...frameworks };
  const evidence = fields.evidence ?? [];
  return {
    id,
    title: `Control ${id}`,
    family: 'identity-and-access',
    severity: 'high',
    owner: 'Cloud team',
    frameworks: mapped,
    evidence,
    checks: [],
    scanner: readScanner(refusals, scanner, { frameworks: mapped, evidence }, mappings),
    objective: '',
    guidance: '',
    objectiveMarkdown: '',
    guidanceMarkdown: '',
    ...fields,
  };
}

function assess(
  controls: Control[],
  evidence: readonly EvidenceItem[],
  asOf = '2025-02-15T00:00:00.000Z',
): Map<string, ControlResult> {
  const compiled = compileCatalog({ version: 'test', controls, frameworks: [], dueDays: defaultDueDays });
  const report = evaluate(compiled, {
    date: asOf.slice(0, 10),
    timeZone: 'UTC',
    asOf: new Date(asOf),
    generatedAt: new Date(asOf),
    runId: 'an-20250215000000000-00000000',
    evidence,
    previous: null,
  });
  return new Map(report.controls.map((result) => [result.id, result]));
}

const outcomes = (result: ControlResult | undefined) =>
  result?.findings.map((finding) => [finding.outcome, finding.check, finding.subject ?? null]);

describe('Prowler sample output', () => {
  it('imports every finding of both files as one item with its resource, status, severity and source', () => {
    const items = imported([...sample('aws'), ...sample('azure')]);
    expect(
      items.map((item) => [item.data['check'], item.subject, item.data['status'], item.data['severity'], item.source]),
    ).toEqual([
      ['accessanalyzer_enabled', '<resource_uid>', 'FAIL', 'low', 'Prowler aws <account_uid>'],
      [
        'account_maintain_current_contact_details',
        'arn:aws:iam::<account_uid>:root',
        'MANUAL',
        'medium',
        'Prowler aws <account_uid>',
      ],
      [
        'account_maintain_different_contact_details_to_security_billing_and_operations',
        'arn:aws:iam::<account_uid>:root',
        'FAIL',
        'medium',
        'Prowler aws <account_uid>',
      ],
      [
        'account_security_contact_information_is_registered',
        'arn:aws:iam::<account_uid>:root',
        'MANUAL',
        'medium',
        'Prowler aws <account_uid>',
      ],
      [
        'account_security_questions_are_registered_in_the_aws_account',
        'arn:aws:iam::<account_uid>:root',
        'MANUAL',
        'medium',
        'Prowler aws <account_uid>',
      ],
      ['appinsights_ensure_is_configured', 'AppInsights', 'FAIL', 'low', 'Prowler azure <subscription_uid>'],
      [
        'defender_additional_email_configured_with_a_security_contact',
        '<resource_uid>',
        'FAIL',
        'medium',
        'Prowler azure <subscription_uid>',
      ],
      [
        'defender_auto_provisioning_log_analytics_agent_vms_on',
        '<resource_uid>',
        'FAIL',
        'medium',
        'Prowler azure <subscription_uid>',
      ],
      ['defender_container_images_scan_enabled', '<resource_uid>', 'FAIL', 'medium', 'Prowler azure <subscription_uid>'],
      ['defender_ensure_defender_for_app_services_is_on', '<resource_uid>', 'FAIL', 'high', 'Prowler azure <subscription_uid>'],
    ]);
    // Prowler's time is seconds since the epoch; its time_dt is local time without an offset, so it is not read.
    expect(new Set(items.map((item) => item.collectedAt))).toEqual(
      new Set(['2025-02-14T13:27:03.000Z', '2025-02-14T13:27:30.000Z']),
    );
    // The samples share placeholder finding uids; the ids still differ, by check and resource.
    expect(new Set(items.map((item) => item.id)).size).toBe(10);
  });

  it('gives the same ids when the same scan is imported again, and new ones for a later scan', () => {
    const again = imported(sample('aws')).map((item) => item.id);
    expect(again).toEqual(imported(sample('aws')).map((item) => item.id));
    const later = sample('aws').map((finding) => ({ ...(finding as object), time: 1739626023 }));
    expect(
      imported(later)
        .map((item) => item.id)
        .filter((id) => again.includes(id)),
    ).toEqual([]);
  });

  it('moves the controls that follow its checks: a FAIL fails, MANUAL is shown and decides nothing', () => {
    const contacts = control('IAM-90', { frameworks: ['iso27001'] }, { iso27001: ['A.5.5'] });
    const monitoring = control('LOG-90', { frameworks: ['soc2'] }, { soc2: ['CC7.2'] });
    const analyzer = control('IAM-91', { checks: ['accessanalyzer_enabled'] });
    const questions = control('IAM-92', { checks: ['account_security_questions_are_registered_in_the_aws_account'] });
    const unfed = control('IAM-93', { checks: ['s3_bucket_public_access'] });
    const results = assess([contacts, monitoring, analyzer, questions, unfed], imported([...sample('aws'), ...sample('azure')]));

    expect([...results].map(([id, result]) => [id, result.status])).toEqual([
      ['IAM-90', 'failing'],
      ['IAM-91', 'failing'],
      ['IAM-92', 'passing'],
      ['IAM-93', 'passing'],
      ['LOG-90', 'failing'],
    ]);
    // Prowler maps these three checks under ISO A.5.5; the MANUAL ones are for information.
    expect(outcomes(results.get('IAM-90'))).toEqual([
      ['info', 'account_maintain_current_contact_details', 'arn:aws:iam::<account_uid>:root'],
      ['info', 'account_security_contact_information_is_registered', 'arn:aws:iam::<account_uid>:root'],
      ['fail', 'defender_additional_email_configured_with_a_security_contact', '<resource_uid>'],
    ]);
    expect(results.get('IAM-90')!.findings[2]!.message).toBe(
      'There is not another correct email configured for subscription <subscription_name>.',
    );
    expect(outcomes(results.get('LOG-90'))).toEqual([
      ['fail', 'defender_auto_provisioning_log_analytics_agent_vms_on', '<resource_uid>'],
    ]);
    expect(outcomes(results.get('IAM-91'))).toEqual([['fail', 'accessanalyzer_enabled', '<resource_uid>']]);
    expect(outcomes(results.get('IAM-92'))).toEqual([
      ['info', 'account_security_questions_are_registered_in_the_aws_account', 'arn:aws:iam::<account_uid>:root'],
    ]);
    expect(results.get('IAM-93')!.findings).toEqual([]);
  });
});

/** A finding in Prowler's shape, for one check on one resource at one time. */
function finding(check: string, resource: string, status: string, time: number, extra: Record<string, unknown> = {}): unknown {
  return {
    class_uid: 2004,
    metadata: { event_code: check, product: { name: 'Prowler' } },
    status_code: status,
    status_detail: `${check} is ${status} on ${resource}`,
    severity: 'High',
    finding_info: { uid: `prowler-aws-${check}-${resource}`, title: check },
    resources: [{ uid: resource }],
    cloud: { provider: 'aws', account: { uid: '123456789012' } },
    time,
    ...extra,
  };
}

const day = 24 * 60 * 60;
const scanAt = 1739577600; // 2025-02-15T00:00:00Z
const scanAtIso = '2025-02-15T00:00:00.000Z';

describe('scanner findings', () => {
  const buckets = control('IAM-94', { checks: ['s3_bucket_public_access'] });

  it('count the newest finding per check and resource: a later PASS fixes an earlier FAIL', () => {
    const evidence = imported([
      finding('s3_bucket_public_access', 'arn:aws:s3:::a', 'FAIL', scanAt - 2 * day),
      finding('s3_bucket_public_access', 'arn:aws:s3:::a', 'PASS', scanAt - day),
      finding('s3_bucket_public_access', 'arn:aws:s3:::b', 'PASS', scanAt - day),
    ]);
    const result = assess([buckets], evidence, '2025-02-15T12:00:00.000Z').get('IAM-94')!;
    expect(result.status).toBe('passing');
    expect(result.findings).toEqual([
      {
        outcome: 'pass',
        check: 's3_bucket_public_access',
        kind: 'scanner.finding',
        message: '2 resources pass s3_bucket_public_access.',
        evidence: [evidence[1]!.id, evidence[2]!.id],
      },
    ]);
  });

  it('set a muted FAIL aside as information', () => {
    const evidence = imported([
      finding('s3_bucket_public_access', 'arn:aws:s3:::site', 'FAIL', scanAt, { status_id: 3, status: 'Suppressed' }),
    ]);
    const result = assess([buckets], evidence, '2025-02-15T12:00:00.000Z').get('IAM-94')!;
    expect([result.status, result.findings.map((f) => [f.outcome, f.message])]).toEqual([
      'passing',
      [['info', 'Muted in Prowler (FAIL): s3_bucket_public_access is FAIL on arn:aws:s3:::site']],
    ]);
  });

  it('count a finding that names a requirement itself for the controls following that framework, through the NIST base control', () => {
    const accounts = control('IAM-95', { frameworks: ['nist80053'] }, { nist80053: ['ac-2'] });
    const notFollowing = control('IAM-96', { checks: ['unrelated'] }, { nist80053: ['ac-2'] });
    const own = finding('custom_dormant_accounts', 'user/ada', 'FAIL', scanAt, {
      compliance: { standards: ['NIST SP 800-53 Rev. 5'], requirements: ['AC-2(3)'] },
    });
    const results = assess([accounts, notFollowing], imported([own]), '2025-02-15T12:00:00.000Z');
    expect([results.get('IAM-95')!.status, results.get('IAM-96')!.status]).toEqual(['failing', 'passing']);
  });

  it('older than the control counts them are listed stale and set aside, without making the control stale', () => {
    const evidence = imported([finding('s3_bucket_public_access', 'arn:aws:s3:::a', 'FAIL', scanAt - 8 * day)]);
    const result = assess([buckets], evidence, '2025-02-15T12:00:00.000Z').get('IAM-94')!;
    expect([result.status, result.findings.map((f) => [f.outcome, f.message])]).toEqual([
      'passing',
      [
        [
          'stale',
          'The newest s3_bucket_public_access finding for arn:aws:s3:::a is 8 days old; IAM-94 counts scanner findings for 7 days.',
        ],
      ],
    ]);
  });

  it('make a control that requires them missing without any and stale without fresh ones', () => {
    const required = control(
      'VUL-90',
      { checks: ['s3_bucket_public_access'] },
      {},
      { evidence: [{ kind: 'scanner.finding', freshnessDays: 3 }] },
    );
    expect(assess([required], []).get('VUL-90')!.status).toBe('missing');
    const old = imported([finding('s3_bucket_public_access', 'arn:aws:s3:::a', 'PASS', scanAt - 4 * day)]);
    expect(assess([required], old, '2025-02-15T12:00:00.000Z').get('VUL-90')!.status).toBe('stale');
    const fresh = imported([finding('s3_bucket_public_access', 'arn:aws:s3:::a', 'PASS', scanAt - day)]);
    expect(assess([required], fresh, '2025-02-15T12:00:00.000Z').get('VUL-90')!.status).toBe('passing');
  });

  it('list at most 50 failing resources of a check and summarise the rest', () => {
    const many = Array.from({ length: 53 }, (_, index) =>
      finding('s3_bucket_public_access', `arn:aws:s3:::b${String(index).padStart(2, '0')}`, 'FAIL', scanAt),
    );
    const result = assess([buckets], imported(many), '2025-02-15T12:00:00.000Z').get('IAM-94')!;
    expect(result.findings).toHaveLength(51);
    expect(result.findings[50]).toEqual({
      outcome: 'fail',
      check: 's3_bucket_public_access',
      kind: 'scanner.finding',
      message: '3 more resources fail on s3_bucket_public_access; the first 50 are listed.',
      evidence: [],
    });
  });
});

describe('a finding that names several resources', () => {
  const buckets = control('IAM-94', { checks: ['s3_bucket_public_access'] });
  const compiled = compileCatalog({ version: 'test', controls: [buckets], frameworks: [], dueDays: defaultDueDays });
  const scan = (time: number, status: string, message: string, resources: string[]) => ({
    ...(finding('s3_bucket_public_access', 'unused', status, time) as object),
    status_detail: message,
    finding_info: { uid: 'prowler-aws-s3_bucket_public_access-buckets', title: 'Buckets are not public' },
    resources: resources.map((uid) => ({ uid })),
  });
  /** Stores a scan as the import does, and runs the daily job of `date` at 06:00 UTC on everything stored. */
  async function dayOf(store: MemoryStore, date: string, scans: object[]) {
    const evidence = new EvidenceStore(store, { settleMs: 0 });
    const items = scans.flatMap((each) => {
      const converted = convertFinding(each);
      if ('problem' in converted) throw new Error(converted.problem);
      return converted.items;
    });
    if (items.length > 0) await evidence.ingest(items, { receivedAt: new Date(`${date}T05:00:00Z`) });
    const { stored } = await produceDailyReport({
      store,
      catalog: compiled,
      timeZone: 'UTC',
      now: new Date(`${date}T06:00:00Z`),
      date,
      trigger: 'test',
      evidence,
    });
    return { items, result: stored.report.controls[0]! };
  }
  const failures = (result: ControlResult) =>
    result.findings.filter((f) => f.outcome === 'fail').map((f) => [f.subject, f.message, f.evidence]);

  it("shows every resource's failure with the finding's message, from the item that carries it, day after day", async () => {
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    vi.spyOn(logs, 'evidenceSnapshotLoaded').mockImplementation(() => undefined);
    const store = new MemoryStore();
    const first = await dayOf(store, '2025-02-15', [scan(scanAt, 'FAIL', 'The bucket is public.', ['a', 'b', 'c'])]);
    const [a, b, c] = first.items.map((item) => item.id);
    expect(failures(first.result)).toEqual([
      ['a', 'The bucket is public.', [a]],
      ['b', 'The bucket is public.', [b, a]],
      ['c', 'The bucket is public.', [c, a]],
    ]);
    expect(first.result.evidence).toEqual([a, b, c].sort());
    // OSCAL's observation of b rests on both items.
    expect(toObservation(first.result, first.result.findings[1]!, 'u', scanAtIso)['relevant-evidence']).toEqual([
      { href: `/api/evidence/${b}`, description: `Evidence item ${b}.` },
      { href: `/api/evidence/${a}`, description: `Evidence item ${a}.` },
    ]);

    // The next scan finds only a, fixed: b and c still fail as the first scan said, read from a's old item,
    // which the day's checkpoint keeps for them although a newer item replaced it.
    const second = await dayOf(store, '2025-02-16', [scan(scanAt + day, 'PASS', 'The bucket is private.', ['a'])]);
    expect(failures(second.result)).toEqual([
      ['b', 'The bucket is public.', [b, a]],
      ['c', 'The bucket is public.', [c, a]],
    ]);
    const kept = async (date: string) => {
      const checkpoint = await new CheckpointStore(store).latestUsable({
        date,
        asOf: Date.parse(`${date}T06:00:00Z`),
        receivedUpTo: Date.parse(`${date}T06:00:00Z`),
      });
      return checkpoint!.state.items().map((item) => item.id);
    };
    expect(await kept('2025-02-16')).toContain(a);

    // Once b and c are scanned again, nothing names a's old item, and the next checkpoint drops it.
    const third = await dayOf(store, '2025-02-17', [scan(scanAt + 2 * day, 'PASS', 'Private.', ['b', 'c'])]);
    expect(failures(third.result)).toEqual([]);
    expect(await kept('2025-02-17')).not.toContain(a);
    vi.restoreAllMocks();
  });

  it('says what it can without the carrying item: the check and the resource', () => {
    const [, b] = imported([scan(scanAt, 'FAIL', 'The bucket is public.', ['a', 'b'])]);
    const result = assess([buckets], [b!], '2025-02-15T12:00:00.000Z').get('IAM-94')!;
    expect(failures(result)).toEqual([['b', 's3_bucket_public_access on b', [b!.id]]]);
  });
});
