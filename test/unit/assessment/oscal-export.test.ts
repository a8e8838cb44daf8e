/**
 * The OSCAL export: a report in every status becomes an Assessment Results document that NIST's
 * OSCAL 1.0.6 JSON Schema accepts, with stable UUIDs, one finding per control and the evidence each
 * observation rests on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { toOscalAssessmentResults, uuidV5 } from '../../../functions/src/assessment/oscal-export.ts';
import type { ControlResult, Report } from '../../../functions/src/assessment/model.ts';

const schemaPath = join(import.meta.dirname, '../../fixtures/oscal/oscal_assessment-results_schema-1.0.6.json');
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);

function expectValid(doc: unknown): void {
  const valid = validate(doc);
  expect(valid, ajv.errorsText(validate.errors, { separator: '\n' })).toBe(true);
}

const controls: ControlResult[] = [
  {
    id: 'IAM-01',
    title: 'Multi-factor authentication for every active account',
    family: 'identity-and-access',
    severity: 'critical',
    status: 'passing',
    findings: [
      {
        outcome: 'pass',
        check: 'mfa-enrolled',
        kind: 'idp.user',
        subject: 'ada@example.com',
        message: 'ada@example.com signs in with a second factor.',
        evidence: ['ev-user-ada'],
      },
      {
        outcome: 'pass',
        check: 'mfa-enforced',
        kind: 'idp.settings',
        subject: 'example-tenant',
        message: 'example-tenant requires a second factor at sign-in.',
        evidence: ['ev-settings-1'],
      },
    ],
    evidence: ['ev-user-ada', 'ev-settings-1'],
  },
  {
    id: 'IAM-02',
    title: 'Accounts of leavers are disabled within a day',
    family: 'identity-and-access',
    severity: 'high',
    status: 'failing',
    findings: [
      {
        outcome: 'fail',
        check: 'leaver-disabled',
        kind: 'idp.user',
        subject: 'bob@example.com',
        message: 'bob@example.com left on 2026-02-20 but can still sign in.',
        evidence: ['okta:user:00u1bob', 'hr:leaver:42'],
      },
      {
        outcome: 'error',
        check: 'leaver-disabled',
        kind: 'idp.user',
        subject: '  carol@example.com\n',
        message: 'The check could not read data.leftOn.',
        evidence: ['okta:user:00u2carol'],
      },
    ],
    evidence: ['okta:user:00u1bob', 'okta:user:00u2carol', 'hr:leaver:42'],
  },
  {
    id: 'IAM-03',
    title: 'Access reviews every quarter',
    family: 'identity-and-access',
    severity: 'medium',
    status: 'stale',
    findings: [
      {
        outcome: 'stale',
        kind: 'access.review',
        message: 'The newest access review is 120 days old; the window is 92 days.',
        evidence: ['review-2025-q3'],
      },
    ],
    evidence: ['review-2025-q3'],
  },
  {
    id: 'IAM-04',
    title: 'Privileged accounts are inventoried',
    family: 'identity-and-access',
    severity: 'high',
    status: 'missing',
    findings: [{ outcome: 'missing', kind: 'iam.privileged', message: 'No iam.privileged evidence received.', evidence: [] }],
    evidence: [],
  },
  {
    id: 'IAM-05',
    title: 'Service accounts have owners',
    family: 'identity-and-access',
    severity: 'low',
    status: 'not_applicable',
    findings: [
      {
        outcome: 'not_applicable',
        kind: 'attestation',
        message: 'Scoped out: no service accounts exist (attested by ada@example.com).',
        evidence: ['att-iam-05'],
      },
    ],
    evidence: ['att-iam-05'],
  },
];

function reportFor(date: string, overrides: Partial<Report> = {}): Report {
  return {
    date,
    timeZone: 'Europe/Berlin',
    asOf: '2026-03-02T23:00:00.000Z',
    generatedAt: '2026-03-03T01:15:07.123Z',
    runId: 'run-20260302-0115',
    catalogVersion: 'c0ffee12',
    summary: {
      score: 41.7,
      counts: { passing: 1, failing: 1, stale: 1, missing: 1, not_applicable: 1 },
      controls: 5,
    },
    controls,
    diff: {
      previousDate: '2026-03-01',
      newlyFailing: ['IAM-02'],
      fixed: [],
      newlyStale: ['IAM-03'],
      changes: [
        { id: 'IAM-02', from: 'passing', to: 'failing' },
        { id: 'IAM-03', from: 'passing', to: 'stale' },
      ],
    },
    ...overrides,
  };
}

const report = reportFor('2026-03-02');
const nistByControl = { 'IAM-01': ['ia-2', 'ia-2.1', 'ia-2.2'], 'IAM-02': ['ac-2', 'ac-2.3'], 'IAM-03': ['ac-2'] };

interface Doc {
  'assessment-results': {
    uuid: string;
    metadata: Record<string, unknown>;
    'import-ap': { href: string };
    results: [Result];
    'back-matter': { resources: [{ uuid: string }] };
  };
}
interface Result {
  uuid: string;
  start: string;
  end: string;
  'reviewed-controls': Record<string, unknown>;
  observations?: Observation[];
  findings: OscalFinding[];
}
interface Observation {
  uuid: string;
  methods: string[];
  props: { name: string; value: string }[];
  'relevant-evidence'?: { href: string; description: string }[];
}
interface OscalFinding {
  uuid: string;
  title: string;
  target: { 'target-id': string; status: { state: string; reason?: string } };
  props: { name: string; value: string }[];
  'related-observations'?: { 'observation-uuid': string }[];
}

function exportOf(input: Report, withNist = true): Doc {
  return toOscalAssessmentResults(input, { version: '0.1.0', ...(withNist ? { nistByControl } : {}) }) as unknown as Doc;
}

/** Every `uuid` the document defines (references such as `observation-uuid` are not definitions). */
function definedUuids(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(definedUuids);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'uuid' && typeof inner === 'string' ? [inner] : definedUuids(inner),
  );
}

describe('OSCAL Assessment Results export', () => {
  it('exports a report with controls in every status to a document the OSCAL 1.0.6 schema accepts', () => {
    const doc = exportOf(report);
    expectValid(doc);
    const results = doc['assessment-results'];
    expect(results.metadata).toEqual({
      title: 'Evident assessment results 2026-03-02',
      'last-modified': report.generatedAt,
      version: '0.1.0',
      'oscal-version': '1.0.6',
    });
    expect(results['import-ap'].href).toBe(`#${results['back-matter'].resources[0].uuid}`);
    const [result] = results.results;
    // The day in Berlin (UTC+1 in March) runs from 23:00 UTC the evening before to the cut-off.
    expect(result.start).toBe('2026-03-01T23:00:00.000Z');
    expect(result.end).toBe(report.asOf);
    expect(result['reviewed-controls']).toEqual({
      'control-selections': [
        {
          description: 'NIST SP 800-53 rev5 controls that the assessed Evident controls map to.',
          'include-controls': ['ia-2', 'ia-2.1', 'ia-2.2', 'ac-2', 'ac-2.3'].map((id) => ({ 'control-id': id })),
        },
      ],
    });
  });

  it('selects every control of the plan when no NIST mapping is given, and still validates', () => {
    const doc = exportOf(report, false);
    expectValid(doc);
    const selection = (doc['assessment-results'].results[0]['reviewed-controls']['control-selections'] as unknown[])[0];
    expect(selection).toMatchObject({ 'include-all': {} });
  });

  it('gives byte-identical JSON for the same report and new UUIDs for another date', () => {
    const first = JSON.stringify(exportOf(report));
    expect(JSON.stringify(exportOf(structuredClone(report)))).toBe(first);

    const uuids = definedUuids(JSON.parse(first));
    expect(new Set(uuids).size).toBe(uuids.length);
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const other = exportOf(reportFor('2026-03-03'));
    const otherUuids = definedUuids(other);
    const planUuid = other['assessment-results']['back-matter'].resources[0].uuid;
    // The catalog resource is the same subject on both days (same catalog version), so it keeps its UUID;
    // everything about the day itself is new.
    expect(uuids).toContain(planUuid);
    expect(otherUuids.filter((uuid) => uuid !== planUuid).some((uuid) => uuids.includes(uuid))).toBe(false);
  });

  it('derives UUIDs the RFC 4122 version 5 way', () => {
    // The RFC's DNS namespace and a name whose v5 UUID other implementations (Python's uuid5) agree on.
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('turns each control result into one finding with the state its status means', () => {
    const result = exportOf(report)['assessment-results'].results[0];
    expect(result.findings).toHaveLength(controls.length);
    const states = result.findings.map((finding) => [
      finding.target['target-id'],
      finding.target.status.state,
      finding.target.status.reason,
      finding.props.find((prop) => prop.name === 'evident-status')?.value,
    ]);
    expect(states).toEqual([
      ['iam-01_obj', 'satisfied', 'pass', 'passing'],
      ['iam-02_obj', 'not-satisfied', 'fail', 'failing'],
      ['iam-03_obj', 'not-satisfied', 'other', 'stale'],
      ['iam-04_obj', 'not-satisfied', 'other', 'missing'],
      ['iam-05_obj', 'satisfied', 'other', 'not_applicable'],
    ]);
    expect(result.findings[4]?.target).toMatchObject({ 'implementation-status': { state: 'not-applicable' } });
    expect(result.observations).toHaveLength(controls.flatMap((control) => control.findings).length);
  });

  it('lists a failing control’s evidence as relevant evidence of its observations', () => {
    const result = exportOf(report)['assessment-results'].results[0];
    const finding = result.findings[1]!;
    expect(finding.title).toBe('IAM-02: Accounts of leavers are disabled within a day');
    expect(finding.props).toEqual([
      { name: 'evident-control', ns: 'https://evident.dev/ns/oscal', value: 'IAM-02' },
      { name: 'evident-status', ns: 'https://evident.dev/ns/oscal', value: 'failing' },
      { name: 'evident-severity', ns: 'https://evident.dev/ns/oscal', value: 'high' },
      { name: 'evident-family', ns: 'https://evident.dev/ns/oscal', value: 'identity-and-access' },
      { name: 'evident-previous-status', ns: 'https://evident.dev/ns/oscal', value: 'passing' },
      { name: 'nist-800-53-control', ns: 'https://evident.dev/ns/oscal', value: 'ac-2' },
      { name: 'nist-800-53-control', ns: 'https://evident.dev/ns/oscal', value: 'ac-2.3' },
    ]);

    const related = finding['related-observations']!.map((link) => link['observation-uuid']);
    const observations = related.map((uuid) => result.observations!.find((observation) => observation.uuid === uuid));
    expect(observations.map((observation) => observation?.['relevant-evidence'])).toEqual([
      [
        { href: '/api/evidence/okta%3Auser%3A00u1bob', description: 'Evidence item okta:user:00u1bob.' },
        { href: '/api/evidence/hr%3Aleaver%3A42', description: 'Evidence item hr:leaver:42.' },
      ],
      [{ href: '/api/evidence/okta%3Auser%3A00u2carol', description: 'Evidence item okta:user:00u2carol.' }],
    ]);
    expect(observations.map((observation) => observation?.methods)).toEqual([['TEST'], ['TEST']]);
    // Free text is folded onto one line: OSCAL strings may not carry surrounding whitespace.
    expect(observations[1]?.props).toContainEqual({
      name: 'evident-subject',
      ns: 'https://evident.dev/ns/oscal',
      value: 'carol@example.com',
    });
  });

  it('examines rather than tests when a finding is about the evidence record', () => {
    const result = exportOf(report)['assessment-results'].results[0];
    const methods = result.observations!.map((observation) => observation.methods[0]);
    expect(methods).toEqual(['TEST', 'TEST', 'TEST', 'TEST', 'EXAMINE', 'EXAMINE', 'EXAMINE']);
    // A missing-evidence finding rests on no items, so it has no relevant-evidence (the list may not be empty).
    expect(result.observations![5]).not.toHaveProperty('relevant-evidence');
  });

  it('still validates a control without findings', () => {
    const quiet: ControlResult = { ...controls[0]!, findings: [], evidence: [] };
    const doc = exportOf(
      reportFor('2026-03-02', {
        controls: [quiet],
        summary: { score: 100, counts: { passing: 1, failing: 0, stale: 0, missing: 0, not_applicable: 0 }, controls: 1 },
        diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
      }),
    );
    expectValid(doc);
    const result = doc['assessment-results'].results[0];
    expect(result).not.toHaveProperty('observations');
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).not.toHaveProperty('related-observations');
    expect(result.findings[0]?.target.status).toEqual({ state: 'satisfied', reason: 'pass' });
  });

  it('is checked by a schema that rejects a broken document', () => {
    const broken = structuredClone(exportOf(report));
    broken['assessment-results'].uuid = 'not-a-uuid';
    expect(validate(broken)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/assessment-results/uuid' }));

    const badState = structuredClone(exportOf(report));
    badState['assessment-results'].results[0].findings[4]!.target.status.state = 'not-applicable';
    expect(validate(badState)).toBe(false);
  });
});
