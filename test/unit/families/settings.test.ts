/**
 * `/api/settings` through the settings family, and what reports make of a version: the
 * defaults before anything is saved, each save a new version with who, when and why, two saves
 * from the same version (the second refused, nothing lost), every mistake refused with a 400 at
 * its place, the versions listed newest first and paged, and a report naming the version it was
 * made with while the report before it keeps its own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { createControlsFamily } from '../../../functions/src/families/controls.ts';
import { createSettingsFamily } from '../../../functions/src/families/settings.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { defaultScope } from '../../../functions/src/settings/settings-model.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type SettingsVersion = components['schemas']['SettingsVersion'];
type SettingsVersionList = components['schemas']['SettingsVersionList'];
type OrganisationSettings = components['schemas']['OrganisationSettings'];

const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog(catalog);
const timeZone = 'UTC';
const store = new MemoryStore();
let clock = new Date('2026-11-24T10:00:00Z');
let served: Served;

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('protected');
  served = await serve(
    createSettingsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => clock,
      timeZone: () => timeZone,
      verifyToken: fakeVerifier(),
      loadTable: tableOf('settings'),
    }),
  );
});

afterAll(() => served.close());

const headers = { 'Content-Type': 'application/json', ...bearer(fakeTokens.valid) };
const get = (path: string) => fetch(`${served.url}${path}`, { headers });
const save = (body: unknown) => fetch(`${served.url}/api/settings`, { method: 'PUT', headers, body: JSON.stringify(body) });

const defaults: OrganisationSettings = {
  owners: { controls: {}, families: {} },
  dueDays: { critical: 7, high: 30, medium: 90, low: 180 },
  freshness: { controls: {}, kinds: {} },
  scope: defaultScope,
  connectors: {},
};

const ada = { uid: 'user-1', email: 'ada@example.com' };

const first: OrganisationSettings = {
  ...defaults,
  owners: {
    controls: { 'IAM-01': [{ email: 'grace@example.com', role: 'IT lead' }] },
    families: { 'identity-and-access': [{ email: 'alan@example.com', role: 'Identity owner' }] },
  },
  dueDays: { critical: 3, high: 14, medium: 60, low: 120 },
  freshness: { controls: {}, kinds: { 'idp.user': 2 } },
  scope: {
    soc2: { categories: ['security', 'availability'], excluded: [] },
    iso27001: { excluded: [{ requirement: 'A.7.4', reason: 'No premises: every employee works remotely.' }] },
    nist80053: { baseline: 'moderate', excluded: [] },
  },
  connectors: { github: { organisation: 'acme', enterprise: false } },
};

/** A save based on `basedOn`, a version never saved, answers 400 at `/basedOn` with `message`. */
async function expectBaseRefused(basedOn: number, message: string) {
  const answer = await save({ basedOn, reason: 'Based on a version of my own.', settings: first });
  const pointer = '/basedOn';
  expect([answer.status, await answer.json()]).toEqual([
    400,
    expectedProblem('invalid_request', `The body ${pointer} ${message}.`, '/api/settings', answer.headers.get('x-request-id')!, {
      errors: [{ in: 'body', pointer, message }],
    }),
  ]);
}

describe('the settings before anything is saved', () => {
  it('are the defaults, version null, with nobody and no reason', async () => {
    const answer = await get('/api/settings');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ version: null, savedAt: null, savedBy: null, reason: null, settings: defaults });
    expect(await (await get('/api/settings/versions')).json()).toEqual({ items: [], hasMore: false });
  });

  it('make a report that names no version and counts the narrowest scope', async () => {
    const { stored } = await produceDailyReport({ store, catalog: compiled, timeZone, now: clock, trigger: 'test' });
    expect(stored.report.settingsVersion).toBeNull();
    const soc2 = stored.report.frameworks!.find((framework) => framework.framework === 'soc2')!;
    expect(soc2.scope).toBe('Security');
    expect(stored.report.controls.find((result) => result.id === 'IAM-01')).toMatchObject({ owner: 'IT lead' });
  });
});

describe('saving the settings', () => {
  it('refuses a change based on a version never saved with a 400 at basedOn, storing nothing', async () => {
    await expectBaseRefused(1, 'names no saved version (none is saved yet: base it on null, the defaults)');
    expect(await (await get('/api/settings/versions')).json()).toEqual({ items: [], hasMore: false });
  });

  it('stores version 1 with who saved it, when and why', async () => {
    const answer = await save({ basedOn: null, reason: 'Owners for the SOC 2 audit.', settings: first });
    expect(answer.status).toBe(200);
    const expected = {
      version: 1,
      savedAt: clock.toISOString(),
      savedBy: ada,
      reason: 'Owners for the SOC 2 audit.',
      settings: first,
    };
    expect(await answer.json()).toEqual(expected);
    expect(await (await get('/api/settings')).json()).toEqual(expected);
    expect(await (await get('/api/settings/versions/1')).json()).toEqual(expected);
  });

  it('refuses a save made from a version that is no longer the newest, storing nothing', async () => {
    const answer = await save({ basedOn: null, reason: 'A late edit of the defaults.', settings: defaults });
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'settings_changed',
        'This change was made from version none (the defaults), but ada@example.com saved version 1 at ' +
          '2026-11-24T10:00:00.000Z. Nothing was stored: load version 1, make the change again and save it.',
        '/api/settings',
        answer.headers.get('x-request-id')!,
      ),
    );
    expect(((await (await get('/api/settings')).json()) as SettingsVersion).version).toBe(1);
  });

  it('of two people saving from the same version at once, stores one and refuses the other', async () => {
    clock = new Date('2026-11-24T11:00:00Z');
    const change = (days: number) => ({
      basedOn: 1,
      reason: `Critical controls due in ${days} days.`,
      settings: { ...first, dueDays: { ...first.dueDays, critical: days } },
    });
    const answers = await Promise.all([save(change(5)), save(change(6))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = (await answers.find((answer) => answer.status === 200)!.json()) as SettingsVersion;
    expect(winner.version).toBe(2);
    const list = (await (await get('/api/settings/versions')).json()) as SettingsVersionList;
    expect(list).toEqual({
      items: [
        { version: 2, savedAt: '2026-11-24T11:00:00.000Z', savedBy: ada, reason: winner.reason },
        { version: 1, savedAt: '2026-11-24T10:00:00.000Z', savedBy: ada, reason: 'Owners for the SOC 2 audit.' },
      ],
      hasMore: false,
    });
  });

  it('refuses a change based on a version past the newest, storing nothing', async () => {
    await expectBaseRefused(7, 'names no saved version (the newest is 2)');
    expect(((await (await get('/api/settings')).json()) as SettingsVersion).version).toBe(2);
  });

  it('pages the versions newest first', async () => {
    const page = (await (await get('/api/settings/versions?limit=1')).json()) as SettingsVersionList;
    expect(page.items.map((item) => item.version)).toEqual([2]);
    expect(page.hasMore).toBe(true);
    const next = (await (await get(`/api/settings/versions?limit=1&cursor=${page.nextCursor}`)).json()) as SettingsVersionList;
    expect(next).toEqual({ items: [expect.objectContaining({ version: 1 })], hasMore: false });
  });

  it('answers 404 for a version never saved', async () => {
    const answer = await get('/api/settings/versions/3');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'settings_version_not_found',
        'No saved version of the settings is numbered 3.',
        '/api/settings/versions/3',
        answer.headers.get('x-request-id')!,
      ),
    );
  });
});

describe('a mistaken change', () => {
  const withSettings = (settings: Record<string, unknown>) => ({
    basedOn: 2,
    reason: 'Trying a mistake.',
    settings: { ...first, ...settings },
  });

  it.each([
    [
      'an owner of a control the catalog lacks',
      { owners: { controls: { 'ZZZ-99': [{ email: 'a@example.com', role: 'Lead' }] }, families: {} } },
      '/settings/owners/controls/ZZZ-99',
      'names no control in the catalog',
    ],
    [
      'an owner of an unknown family',
      { owners: { controls: {}, families: { cooking: [{ email: 'a@example.com', role: 'Chef' }] } } },
      '/settings/owners/families/cooking',
      'names no control family in the catalog',
    ],
    [
      'a freshness override of a control the catalog lacks',
      { freshness: { controls: { 'ZZZ-99': 30 }, kinds: {} } },
      '/settings/freshness/controls/ZZZ-99',
      'names no control in the catalog',
    ],
    [
      'an ISO exclusion that is no Annex A control',
      { scope: { ...first.scope, iso27001: { excluded: [{ requirement: 'A.99.1', reason: 'Not ours.' }] } } },
      '/settings/scope/iso27001/excluded/0/requirement',
      'is not a requirement of ISO/IEC 27001:2022 Annex A',
    ],
    [
      'an ISO control excluded twice',
      {
        scope: {
          ...first.scope,
          iso27001: {
            excluded: [
              { requirement: 'A.7.4', reason: 'Remote.' },
              { requirement: 'A.7.4', reason: 'Again.' },
            ],
          },
        },
      },
      '/settings/scope/iso27001/excluded/1/requirement',
      'is excluded more than once',
    ],
    [
      'a connector setting named like a secret',
      { connectors: { github: { apiToken: 'ghp_x' } } },
      '/settings/connectors/github/apiToken',
      'is named like a secret; secrets go in Secret Manager, never in the settings',
    ],
  ])('refuses %s with a 400 at its place', async (_what, settings, pointer, message) => {
    const answer = await save(withSettings(settings));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The body ${pointer} ${message}.`,
        '/api/settings',
        answer.headers.get('x-request-id')!,
        {
          errors: [{ in: 'body', pointer, message }],
        },
      ),
    );
  });

  it.each([
    [
      'an owner that is not an e-mail address',
      { owners: { controls: { 'IAM-01': [{ email: 'IT lead', role: 'Lead' }] }, families: {} } },
      '/settings/owners/controls/IAM-01/0/email',
    ],
    [
      'a freshness override of zero days',
      { freshness: { controls: { 'IAM-01': 0 }, kinds: {} } },
      '/settings/freshness/controls/IAM-01',
    ],
    [
      'a freshness override of ten years',
      { freshness: { controls: {}, kinds: { 'idp.user': 3650 } } },
      '/settings/freshness/kinds/idp.user',
    ],
    ['a scope naming an unknown framework', { scope: { ...first.scope, hipaa: { excluded: [] } } }, '/settings/scope/hipaa'],
    [
      'a SOC 2 scope without Security',
      { scope: { ...first.scope, soc2: { categories: ['privacy'], excluded: [] } } },
      '/settings/scope/soc2/categories',
    ],
  ])('refuses %s with a 400 naming it', async (_what, settings, pointer) => {
    const answer = await save(withSettings(settings));
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { code: string; errors: { in: string; pointer: string }[] };
    expect(body.code).toBe('invalid_request');
    expect(body.errors.map((error) => [error.in, error.pointer])).toContainEqual(['body', pointer]);
    // Nothing was stored.
    expect(((await (await get('/api/settings')).json()) as SettingsVersion).version).toBe(2);
  });
});

describe('reports and the settings they were made with', () => {
  it("makes the next report with the newest version, and leaves the last one's alone", async () => {
    const before = await produceDailyReport({ store, catalog: compiled, timeZone, now: clock, trigger: 'test' });
    expect(before.created).toBe(false);
    expect(before.stored.report.settingsVersion).toBeNull();

    const next = await produceDailyReport({
      store,
      catalog: compiled,
      timeZone,
      now: new Date('2026-11-25T10:00:00Z'),
      trigger: 'test',
    });
    const { report } = next.stored;
    expect(report.settingsVersion).toBe(2);
    // A control's own owners win over its family's; the family's stand for the rest of it.
    expect(report.controls.find((result) => result.id === 'IAM-01')).toMatchObject({
      owner: 'grace@example.com',
      owners: [{ email: 'grace@example.com', role: 'IT lead' }],
    });
    expect(report.controls.find((result) => result.id === 'IAM-02')).toMatchObject({
      owner: 'alan@example.com',
      owners: [{ email: 'alan@example.com', role: 'Identity owner' }],
    });
    const soc2 = report.frameworks!.find((framework) => framework.framework === 'soc2')!;
    expect(soc2.scope).toBe('Security, Availability');
    const iso = report.frameworks!.find((framework) => framework.framework === 'iso27001')!;
    expect(iso.outOfScope).toEqual([{ id: 'A.7.4', reason: 'No premises: every employee works remotely.' }]);
    expect(iso.requirements.some((requirement) => requirement.id === 'A.7.4')).toBe(false);

    // The first day's report is read back exactly as it was made.
    const reread = await produceDailyReport({ store, catalog: compiled, timeZone, now: clock, trigger: 'test' });
    expect(reread.stored.bytes.equals(before.stored.bytes)).toBe(true);
  });
});

describe("a control's page after a freshness override", () => {
  it('shows the evidence it needs as the newest settings have it', async () => {
    const controls = await serve(
      createControlsFamily({
        store: async () => store,
        catalog: () => catalog,
        now: () => clock,
        timeZone: () => timeZone,
        verifyToken: fakeVerifier(),
        loadTable: tableOf('controls'),
      }),
    );
    try {
      const answer = await fetch(`${controls.url}/api/controls/IAM-01`, { headers });
      const detail = (await answer.json()) as { evidence: { kind: string; freshnessDays: number }[] };
      const inCatalog = catalog.controls.find((control) => control.id === 'IAM-01')!.evidence;
      expect(inCatalog.find((requirement) => requirement.kind === 'idp.user')!.freshnessDays).not.toBe(2);
      expect(detail.evidence).toEqual(
        inCatalog.map((requirement) => (requirement.kind === 'idp.user' ? { ...requirement, freshnessDays: 2 } : requirement)),
      );
    } finally {
      await controls.close();
    }
  });
});
