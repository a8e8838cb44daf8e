/**
 * Every OSCAL document Evident writes, validated against NIST's JSON schemas (test/fixtures/oscal/):
 * the Assessment Results and the POA&M of every day of the demo history, and the component
 * definition of the catalog. Then what the POA&M and the component definition say: one item and
 * risk per open control with its first-seen day, owner and due date; a plan with nothing open;
 * the catalog's NIST mappings, checks and owners.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endOfDay, startOfDay } from '../../../functions/src/assessment/dates.ts';
import { isOpenStatus } from '@evident/contract';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { toOscalComponentDefinition } from '../../../functions/src/assessment/oscal-component.ts';
import { toOscalAssessmentResults } from '../../../functions/src/assessment/oscal-export.ts';
import { toOscalPoam } from '../../../functions/src/assessment/oscal-poam.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

type Json = Record<string, unknown>;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
async function schema(file: string): Promise<ValidateFunction> {
  return ajv.compile(JSON.parse(await readFile(join(paths.root, 'test/fixtures/oscal', file), 'utf8')) as object);
}
function expectValid(validate: ValidateFunction, document: unknown, what: string): void {
  const valid = validate(document);
  expect(valid, `${what}:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`).toBe(true);
}

const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog(catalog);
const nistByControl = Object.fromEntries(catalog.controls.map((control) => [control.id, control.frameworks.nist80053]));
const today = '2026-11-21';
let dir: string;
const history: Report[] = [];
let results: ValidateFunction;
let poam: ValidateFunction;
let component: ValidateFunction;

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  [results, poam, component] = await Promise.all([
    schema('oscal_assessment-results_schema-1.0.6.json'),
    schema('oscal_poam_schema-1.0.6.json'),
    schema('oscal_component_schema-1.0.6.json'),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'evident-oscal-'));
  const store = new LocalFolderStore(dir);
  const reports = new ReportStore(store);
  await seedDemoHistory(demoSeedDependencies(store, compiled), { today, timeZone: 'UTC', now: new Date('2026-11-21T09:00:00Z') });
  for (const date of await reports.dates()) history.push((await reports.find(date))!.report);
  // Seeding two weeks of demo history takes seconds, more on a loaded machine.
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the OSCAL documents of the demo history', () => {
  it('are Assessment Results and POA&Ms the OSCAL 1.0.6 schemas accept, for every day', () => {
    expect(history.length).toBeGreaterThan(7);
    for (const report of history) {
      expectValid(
        results,
        toOscalAssessmentResults(report, { version: report.catalogVersion, nistByControl }),
        `AR ${report.date}`,
      );
      expectValid(poam, toOscalPoam(report, { version: report.catalogVersion, nistByControl }), `POA&M ${report.date}`);
    }
  });

  it('include a component definition of the catalog the schema accepts', () => {
    expectValid(
      component,
      toOscalComponentDefinition(catalog, { version: catalog.version, lastModified: '2026-11-21T09:00:00.000Z' }),
      'component definition',
    );
  });

  it('are checked by schemas that reject a broken document', () => {
    const report = history.at(-1)!;
    const plan = toOscalPoam(report, { version: 'v', nistByControl }) as { 'plan-of-action-and-milestones': Json };
    delete plan['plan-of-action-and-milestones']['poam-items'];
    expect(poam(plan)).toBe(false);
    const definition = toOscalComponentDefinition(catalog, { version: 'v', lastModified: 'yesterday' });
    expect(component(definition)).toBe(false);
  });
});

describe('the POA&M of a report', () => {
  const latest = () => history.at(-1)!;
  const planOf = (report: Report) =>
    toOscalPoam(report, { version: report.catalogVersion, nistByControl })['plan-of-action-and-milestones'] as {
      metadata: { parties?: { uuid: string; name: string }[] };
      risks?: Json[];
      'poam-items': Json[];
    };
  const propOf = (entry: Json, name: string) =>
    (entry['props'] as { name: string; value: string }[] | undefined)?.find((candidate) => candidate.name === name)?.value;

  it('has one item and one risk per control failing, stale or missing, with its first-seen day, owner and due date', () => {
    const report = latest();
    const open = report.controls.filter((control) => isOpenStatus(control.status));
    expect(open.length).toBeGreaterThan(0);
    const plan = planOf(report);
    expect(plan['poam-items'].map((item) => propOf(item, 'evident-control'))).toEqual(open.map((control) => control.id));
    for (const control of open) {
      const item = plan['poam-items'].find((candidate) => propOf(candidate, 'evident-control') === control.id)!;
      expect([propOf(item, 'evident-owner'), propOf(item, 'evident-first-seen'), propOf(item, 'evident-due-date')]).toEqual([
        control.owner,
        control.openSince,
        control.dueDate,
      ]);
      const risk = plan.risks!.find((candidate) => propOf(candidate, 'evident-control') === control.id)!;
      expect(risk['deadline']).toBe(endOfDay(report.timeZone, control.dueDate!).toISOString());
      expect((risk['risk-log'] as { entries: { start: string }[] }).entries[0]!.start).toBe(
        startOfDay(report.timeZone, control.openSince!).toISOString(),
      );
      expect(plan.metadata.parties!.map((party) => party.name)).toContain(control.owner);
    }
  });

  it('says nothing is open, in a valid document, when every control passes', () => {
    const report = latest();
    const passing: Report = {
      ...report,
      controls: report.controls.map(({ openSince: _s, dueDate: _d, overdue: _o, ...control }) => ({
        ...control,
        status: 'passing' as const,
      })),
    };
    const document = toOscalPoam(passing, { version: 'v', nistByControl });
    expectValid(poam, document, 'POA&M with nothing open');
    const plan = document['plan-of-action-and-milestones'] as { risks?: unknown; 'poam-items': Json[] };
    expect(plan.risks).toBeUndefined();
    expect(plan['poam-items']).toEqual([expect.objectContaining({ title: 'No open items' })]);
  });

  it('records an accepted risk as an approved deviation, naming the exception, its expiry, approver and requester', () => {
    const report = latest();
    const failing = report.controls.find((control) => control.status === 'failing')!;
    const exception = {
      id: 'exc-20270101-00000000aa',
      controlId: failing.id,
      subject: null,
      expiresOn: '2027-01-01',
      approver: { uid: 'u-ana', email: 'ana@example.com' },
      requestedBy: { uid: 'u-bo', email: 'bo@example.com' },
      independent: true,
    };
    const accepted: Report = {
      ...report,
      exceptions: [exception],
      controls: report.controls.map((control) =>
        control.id !== failing.id
          ? control
          : {
              ...control,
              riskAccepted: true,
              findings: control.findings.map((finding) =>
                finding.outcome === 'fail'
                  ? { ...finding, accepted: { exception: exception.id, expiresOn: exception.expiresOn } }
                  : finding,
              ),
            },
      ),
    };
    const document = toOscalPoam(accepted, { version: 'v', nistByControl });
    expectValid(poam, document, 'POA&M with an accepted risk');
    const risk = planOf(accepted).risks!.find((candidate) => propOf(candidate, 'evident-control') === failing.id)!;
    expect([
      risk['status'],
      propOf(risk, 'evident-exception'),
      propOf(risk, 'evident-exception-expires'),
      propOf(risk, 'evident-exception-approver'),
      propOf(risk, 'evident-exception-requester'),
      propOf(risk, 'evident-exception-independent'),
    ]).toEqual(['deviation-approved', exception.id, '2027-01-01', 'ana@example.com', 'bo@example.com', 'true']);
  });

  it("names each of 60,000 exceptions accepting the findings of one control once, in the report's order", () => {
    const report = latest();
    const failing = report.controls.find((control) => control.status === 'failing')!;
    const count = 60_000;
    const exceptions = Array.from({ length: count }, (_, index) => ({
      id: `exc-20270101-${index.toString(16).padStart(10, '0')}`,
      controlId: failing.id,
      subject: `user-${index}`,
      expiresOn: '2027-01-01',
      approver: { uid: 'u-ana' },
    }));
    const accepted: Report = {
      ...report,
      exceptions,
      controls: report.controls.map((control) =>
        control.id !== failing.id
          ? control
          : {
              ...control,
              riskAccepted: true,
              findings: exceptions.map((exception) => ({
                outcome: 'fail' as const,
                kind: 'idp.user',
                subject: exception.subject,
                message: `${exception.subject} fails.`,
                evidence: [],
                accepted: { exception: exception.id, expiresOn: exception.expiresOn },
              })),
            },
      ),
    };
    const risk = planOf(accepted).risks!.find((candidate) => propOf(candidate, 'evident-control') === failing.id)!;
    const named = (risk['props'] as { name: string; value: string }[]).filter((each) => each.name === 'evident-exception');
    expect(named.map((each) => each.value)).toEqual(exceptions.map((exception) => exception.id));
  });

  it('is the same document for the same report', () => {
    const report = latest();
    expect(JSON.stringify(toOscalPoam(report, { version: 'v', nistByControl }))).toBe(
      JSON.stringify(toOscalPoam(structuredClone(report), { version: 'v', nistByControl })),
    );
  });
});

describe('the component definition of the catalog', () => {
  const definition = toOscalComponentDefinition(catalog, { version: 'v', lastModified: '2026-11-21T09:00:00.000Z' })[
    'component-definition'
  ] as { components: { 'control-implementations': { 'implemented-requirements': Json[]; source: string }[] }[] };
  const [nist, evident] = definition.components[0]!['control-implementations'];

  it('names, for every NIST control the catalog maps to, the Evident controls that assess it', () => {
    const mapped = new Set(catalog.controls.flatMap((control) => control.frameworks.nist80053));
    expect(nist!['implemented-requirements'].map((requirement) => requirement['control-id']).sort()).toEqual([...mapped].sort());
    for (const requirement of nist!['implemented-requirements']) {
      const assessing = catalog.controls.filter((control) =>
        control.frameworks.nist80053.includes(requirement['control-id'] as string),
      );
      expect((requirement['props'] as { value: string }[]).map((entry) => entry.value)).toEqual(
        assessing.map((control) => control.id),
      );
    }
  });

  it('describes every Evident control with a statement per check', () => {
    expect(evident!['implemented-requirements']).toHaveLength(catalog.controls.length);
    for (const control of catalog.controls) {
      const requirement = evident!['implemented-requirements'].find((entry) => entry['control-id'] === control.id.toLowerCase())!;
      const statements = (requirement['statements'] as { description: string }[] | undefined) ?? [];
      expect(
        statements.map((statement) => statement.description.includes(control.checks[statements.indexOf(statement)]!.expression)),
      ).toEqual(control.checks.map(() => true));
    }
  });
});
