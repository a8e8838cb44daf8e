/**
 * The catalog build: the real catalog compiles into a complete catalog, and a control file with a
 * mistake is refused with the file, the line of the mistake and what is wrong.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogError, compileCatalogSources, controlFamilies } from '../../../scripts/lib/catalog-bundle.ts';
import type { Catalog } from '../../../functions/src/assessment/model.ts';
import { coverageLines, coverageOf } from '../../../scripts/lib/catalog-coverage.ts';

const catalogDir = join(import.meta.dirname, '../../../functions/catalog');

describe('the real catalog', () => {
  const catalog: Catalog = compileCatalogSources(catalogDir);

  it('has at least 30 controls, in id order, with unique ids that follow their family', () => {
    expect(catalog.controls.length).toBeGreaterThanOrEqual(30);
    const ids = catalog.controls.map((control) => control.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const control of catalog.controls) {
      const prefix = (controlFamilies as Record<string, string>)[control.family];
      expect([control.id, prefix && control.id.startsWith(`${prefix}-`)]).toEqual([control.id, true]);
    }
  });

  it('has every family at least three times', () => {
    const counts = new Map<string, number>();
    for (const control of catalog.controls) counts.set(control.family, (counts.get(control.family) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(Object.keys(controlFamilies).sort());
    for (const family of Object.keys(controlFamilies)) {
      expect([family, (counts.get(family) ?? 0) >= 3]).toEqual([family, true]);
    }
  });

  it('has checks on more than half of its controls, and the others rest on attestations', () => {
    const withChecks = catalog.controls.filter((control) => control.checks.length > 0);
    expect(withChecks.length * 2).toBeGreaterThan(catalog.controls.length);
    for (const control of catalog.controls.filter((c) => c.checks.length === 0)) {
      expect([control.id, control.evidence.map((requirement) => requirement.kind)]).toContainEqual(['attestation']);
    }
  });

  it('maps every control to SOC 2, and to ISO 27001 and NIST SP 800-53 wherever their requirements hold', () => {
    for (const control of catalog.controls) {
      expect([control.id, control.frameworks.soc2.length > 0]).toEqual([control.id, true]);
      for (const id of control.frameworks.nist80053) expect(id).toMatch(/^[a-z]{2}-\d+(\.\d+)?$/);
    }
    // Board oversight and control selection sit in ISO 27001's clauses and NIST's PM family, not in
    // Annex A or the moderate baseline; each such control says so in its guidance.
    const without = (framework: 'iso27001' | 'nist80053') =>
      catalog.controls.filter((control) => control.frameworks[framework].length === 0).map((control) => control.id);
    expect(without('iso27001')).toEqual(['GOV-01', 'GOV-04']);
    expect(without('nist80053')).toEqual(['GOV-01']);
    for (const id of without('iso27001')) expect(guidanceOf(id)).toMatch(/ISO\/IEC 27001:2022 asks for this in .*clauses? /s);
    for (const id of without('nist80053'))
      expect(guidanceOf(id)).toMatch(/NIST SP 800-53 in its program management \(PM\) family/);
  });

  it('covers every SOC 2 common criterion (CC1–CC9) with at least one control', () => {
    const soc2 = coverageOf(catalog).find((row) => row.name.startsWith('SOC 2 common criteria'))!;
    expect(soc2.total).toBe(33);
    expect(soc2.uncovered).toEqual([]);
  });

  it('has the coverage that functions/catalog/README.md states', () => {
    const readme = readFileSync(join(catalogDir, 'README.md'), 'utf8');
    const stated = readme.split('\n').filter((line) => /^- .+: \d+ of \d+ \(\d+\.\d %\)$/.test(line));
    expect(stated).toEqual(coverageLines(coverageOf(catalog)));
  });

  it('has a 12-hex-digit version that is the same on every build', () => {
    expect(catalog.version).toMatch(/^[0-9a-f]{12}$/);
    expect(compileCatalogSources(catalogDir).version).toBe(catalog.version);
  });

  const guidanceOf = (id: string) => catalog.controls.find((control) => control.id === id)!.guidanceMarkdown;

  it('renders objective and guidance from the Markdown body', () => {
    const iam01 = catalog.controls.find((control) => control.id === 'IAM-01')!;
    expect(iam01.objectiveMarkdown).toMatch(/^Every person who can sign in/);
    expect(iam01.objective).toMatch(/^<p>Every person who can sign in/);
    expect(iam01.guidanceMarkdown).toMatch(/^- Require MFA tenant-wide/);
    expect(iam01.guidance).toMatch(/^<ul>\s*<li>Require MFA tenant-wide/);
    expect(iam01.checks).toEqual([
      {
        id: 'mfa-enrolled',
        kind: 'idp.user',
        mode: 'each',
        expression: 'item.data.mfaEnabled',
        where: 'item.data.active',
        pass: '{{subject}} signs in with a second factor.',
        fail: '{{subject}} is active but has no second factor enrolled.',
      },
      {
        id: 'mfa-enforced',
        kind: 'idp.settings',
        mode: 'each',
        expression: 'item.data.mfaRequired',
        pass: '{{subject}} requires a second factor at sign-in.',
        fail: '{{subject}} lets people sign in with a password alone.',
      },
    ]);
  });
});

/**
 * A valid control, one line per entry so that line numbers in the expected errors can be read off:
 * line N of the file is `good[N - 1]`.
 */
const good = [
  /*  1 */ '---',
  /*  2 */ 'id: IAM-09',
  /*  3 */ 'title: Administrators use phishing-resistant factors',
  /*  4 */ 'family: identity-and-access',
  /*  5 */ 'severity: high',
  /*  6 */ 'frameworks:',
  /*  7 */ '  soc2: [CC6.1]',
  /*  8 */ '  iso27001: [A.5.17, A.8.5]',
  /*  9 */ '  nist80053: [ia-2, ia-2.1]',
  /* 10 */ 'evidence:',
  /* 11 */ '  - kind: idp.user',
  /* 12 */ '    freshnessDays: 7',
  /* 13 */ 'checks:',
  /* 14 */ '  - id: mfa-enrolled',
  /* 15 */ '    kind: idp.user',
  /* 16 */ '    where: item.data.active',
  /* 17 */ '    each: item.data.mfaEnabled',
  /* 18 */ "    pass: '{{subject}} signs in with a second factor.'",
  /* 19 */ "    fail: '{{subject}} has no second factor.'",
  /* 20 */ '  - id: admins-phishing-resistant',
  /* 21 */ '    kind: idp.user',
  /* 22 */ '    where: item.data.admin',
  /* 23 */ '    each: item.data.phishingResistantMfa',
  /* 24 */ "    pass: '{{subject}} uses a security key.'",
  /* 25 */ "    fail: '{{subject}} administers the tenant without a security key.'",
  /* 26 */ 'owner: Identity team',
  /* 27 */ '---',
  /* 28 */ '',
  /* 29 */ '## Objective',
  /* 30 */ '',
  /* 31 */ 'A stolen password is not enough to take over an administrator.',
  /* 32 */ '',
  /* 33 */ '## Guidance',
  /* 34 */ '',
  /* 35 */ '- Enrol security keys for every administrator.',
];

/** `good` with line `line` (1-based) replaced by `replacement` (no lines: removed; several: inserted). */
function withLine(line: number, ...replacement: string[]): string[] {
  return [...good.slice(0, line - 1), ...replacement, ...good.slice(line)];
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A catalog directory with the real reference lists, the given control files and settings (text). */
function catalogWith(files: Record<string, string[]>, settings?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evident-catalog-'));
  dirs.push(dir);
  cpSync(join(catalogDir, 'reference'), join(dir, 'reference'), { recursive: true });
  cpSync(join(catalogDir, 'scanners'), join(dir, 'scanners'), { recursive: true });
  mkdirSync(join(dir, 'controls'));
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, 'controls', name), `${lines.join('\n')}\n`);
  if (settings !== undefined) writeFileSync(join(dir, 'settings.json'), settings);
  return dir;
}

function errorOf(files: Record<string, string[]>, settings?: string): string {
  const dir = catalogWith(files, settings);
  try {
    compileCatalogSources(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return (error as Error).message;
  }
  throw new Error('the catalog compiled');
}

describe('a control file', () => {
  it('compiles when it is valid', () => {
    const catalog = compileCatalogSources(catalogWith({ 'IAM-09.md': good }));
    expect(catalog.version).toMatch(/^[0-9a-f]{12}$/);
    expect(catalog.controls).toEqual([
      {
        id: 'IAM-09',
        title: 'Administrators use phishing-resistant factors',
        family: 'identity-and-access',
        severity: 'high',
        owner: 'Identity team',
        frameworks: { soc2: ['CC6.1'], iso27001: ['A.5.17', 'A.8.5'], nist80053: ['ia-2', 'ia-2.1'] },
        evidence: [{ kind: 'idp.user', freshnessDays: 7 }],
        checks: [
          {
            id: 'mfa-enrolled',
            kind: 'idp.user',
            mode: 'each',
            expression: 'item.data.mfaEnabled',
            where: 'item.data.active',
            pass: '{{subject}} signs in with a second factor.',
            fail: '{{subject}} has no second factor.',
          },
          {
            id: 'admins-phishing-resistant',
            kind: 'idp.user',
            mode: 'each',
            expression: 'item.data.phishingResistantMfa',
            where: 'item.data.admin',
            pass: '{{subject}} uses a security key.',
            fail: '{{subject}} administers the tenant without a security key.',
          },
        ],
        scanner: { frameworks: [], checks: [], freshnessDays: 7 },
        objective: '<p>A stolen password is not enough to take over an administrator.</p>\n',
        guidance: '<ul>\n<li>Enrol security keys for every administrator.</li>\n</ul>\n',
        objectiveMarkdown: 'A stolen password is not enough to take over an administrator.',
        guidanceMarkdown: '- Enrol security keys for every administrator.',
      },
    ]);
  });

  it('changes the catalog version when its text changes', () => {
    const before = compileCatalogSources(catalogWith({ 'IAM-09.md': good })).version;
    expect(compileCatalogSources(catalogWith({ 'IAM-09.md': good })).version).toBe(before);
    expect(compileCatalogSources(catalogWith({ 'IAM-09.md': withLine(35, '- Enrol two security keys.') })).version).not.toBe(
      before,
    );
  });

  it('is refused with a CEL syntax error, at the line of the expression', () => {
    expect(errorOf({ 'IAM-09.md': withLine(17, '    each: item.data.(') })).toBe(
      'functions/catalog/controls/IAM-09.md:17: check "mfa-enrolled": each does not compile as CEL: <input>:1:10: found . but expecting end of input',
    );
  });

  it('is refused when a check reads a field absent from the example of its kind', () => {
    expect(errorOf({ 'IAM-09.md': withLine(23, '    each: item.data.nope') })).toBe(
      'functions/catalog/controls/IAM-09.md:23: check "admins-phishing-resistant": each fails on the idp.user example evidence: field not found: nope',
    );
  });

  it('is refused when a where reads a field absent from the example of its kind', () => {
    expect(errorOf({ 'IAM-09.md': withLine(22, '    where: data.nope') })).toBe(
      'functions/catalog/controls/IAM-09.md:22: check "admins-phishing-resistant": where fails on the idp.user example evidence: field not found: nope',
    );
  });

  it('is refused when a check does not give a boolean', () => {
    expect(errorOf({ 'IAM-09.md': withLine(17, '    each: item.data.email') })).toBe(
      'functions/catalog/controls/IAM-09.md:17: check "mfa-enrolled": each must give a boolean, not string',
    );
  });

  it('is refused with an unknown NIST id', () => {
    expect(errorOf({ 'IAM-09.md': withLine(9, '  nist80053: [ia-2, zz-99]') })).toBe(
      'functions/catalog/controls/IAM-09.md:9: frameworks.nist80053: "zz-99" is not a known id of NIST SP 800-53 rev5 (see functions/catalog/reference/)',
    );
  });

  it('is refused with an unknown SOC 2 criterion', () => {
    expect(errorOf({ 'IAM-09.md': withLine(7, '  soc2: [CC6.1, CC99.9]') })).toBe(
      'functions/catalog/controls/IAM-09.md:7: frameworks.soc2: "CC99.9" is not a known id',
    );
  });

  it('compiles with no ids for a framework none of whose requirements holds', () => {
    const [control] = compileCatalogSources(catalogWith({ 'IAM-09.md': withLine(8, '  iso27001: []') })).controls;
    expect(control!.frameworks).toEqual({ soc2: ['CC6.1'], iso27001: [], nist80053: ['ia-2', 'ia-2.1'] });
  });

  it('is refused without a list for a framework', () => {
    expect(errorOf({ 'IAM-09.md': withLine(8, '  iso27001: A.5.17') })).toBe(
      'functions/catalog/controls/IAM-09.md:8: frameworks.iso27001 must list the ids that hold, or be [] when none does',
    );
    expect(errorOf({ 'IAM-09.md': withLine(8) })).toBe(
      'functions/catalog/controls/IAM-09.md:6: frameworks.iso27001 must list the ids that hold, or be [] when none does',
    );
  });

  it('is refused without ids for any framework', () => {
    const unmapped = [...good.slice(0, 6), '  soc2: []', '  iso27001: []', '  nist80053: []', ...good.slice(9)];
    expect(errorOf({ 'IAM-09.md': unmapped })).toBe(
      'functions/catalog/controls/IAM-09.md:6: frameworks must list at least one id',
    );
  });

  /** `good` with a reconciliation after its checks (lines 26 on), `fields` its lines after `id:`. */
  const withReconciliation = (...fields: string[]) =>
    withLine(26, 'reconciliations:', '  - id: every-account-has-a-device', ...fields.map((field) => `    ${field}`), good[25]!);
  const reconciled = [
    'description: every active account has a device',
    'population: { kind: idp.user, where: item.data.active }',
    'coveredBy: { kind: endpoint.device, key: data.owner }',
    'freshnessDays: 7',
  ];

  it('compiles a reconciliation, its expected key defaulting to the subject', () => {
    const control = compileCatalogSources(catalogWith({ 'IAM-09.md': withReconciliation(...reconciled) })).controls[0]!;
    expect(control.reconciliations).toEqual([
      {
        id: 'every-account-has-a-device',
        description: 'every active account has a device',
        population: { kind: 'idp.user', where: 'item.data.active' },
        coveredBy: { kind: 'endpoint.device', key: 'data.owner' },
        expect: '{{subject}}',
        freshnessDays: 7,
      },
    ]);
  });

  it.each([
    [['unknown: 1', ...reconciled], 'reconciliations[0]: unknown key "unknown"'],
    [reconciled.slice(1), 'reconciliations[0].description must be a non-empty string'],
    [
      [...reconciled.slice(0, 3), 'freshnessDays: 0'],
      'reconciliations[0].freshnessDays must be a whole number of days from 1 to 730',
    ],
    [
      [reconciled[0]!, 'population: { kind: attestation }', ...reconciled.slice(2)],
      'reconciliations[0].population.kind "attestation" must be an evidence kind read per subject (not attestation or scanner.finding)',
    ],
    [
      [reconciled[0]!, 'population: { kind: idp.user, where: item.data.email }', ...reconciled.slice(2)],
      'reconciliations[0].population.where must give a boolean on the idp.user example evidence',
    ],
    [
      [...reconciled.slice(0, 2), 'coveredBy: { kind: endpoint.device, key: owner }', reconciled[3]!],
      'reconciliations[0].coveredBy.key must be "subject" or "data.<field>"',
    ],
    [
      [reconciled[0]!, 'population: { kind: idp.user, key: subject }', ...reconciled.slice(2)],
      'reconciliations[0].population.key belongs on coveredBy: the population is matched through "expect"',
    ],
  ])('is refused with a malformed reconciliation, at its line: %j', (fields, message) => {
    expect(errorOf({ 'IAM-09.md': withReconciliation(...fields) })).toBe(`functions/catalog/controls/IAM-09.md:27: ${message}`);
  });

  it('is refused with an unknown frontmatter key', () => {
    expect(errorOf({ 'IAM-09.md': withLine(6, 'reviewer: grace@example.com', good[5]!) })).toBe(
      'functions/catalog/controls/IAM-09.md:6: unknown key "reviewer"',
    );
  });

  it('compiles its aliases, trimmed, for the chat to find it by', () => {
    const catalog = compileCatalogSources(
      catalogWith({ 'IAM-09.md': withLine(26, 'owner: Identity team', "aliases: [' MFA', 2FA, security key]") }),
    );
    expect(catalog.controls[0]!.aliases).toEqual(['MFA', '2FA', 'security key']);
  });

  it.each([
    ['aliases: MFA', '"aliases" must list at most 20 words or short phrases'],
    [
      `aliases: [${Array.from({ length: 21 }, (_, at) => `a${at}`).join(', ')}]`,
      '"aliases" must list at most 20 words or short phrases',
    ],
    [`aliases: [${'x'.repeat(41)}]`, 'each alias must be a non-empty string of at most 40 characters'],
    ["aliases: ['']", 'each alias must be a non-empty string of at most 40 characters'],
    ['aliases: [1]', 'each alias must be a non-empty string of at most 40 characters'],
  ])('is refused with malformed aliases, at their line: %s', (line, message) => {
    expect(errorOf({ 'IAM-09.md': withLine(26, 'owner: Identity team', line) })).toBe(
      `functions/catalog/controls/IAM-09.md:27: ${message}`,
    );
  });

  it('is refused with an unknown check key', () => {
    expect(errorOf({ 'IAM-09.md': withLine(24, '    reviewer: grace@example.com', good[23]!) })).toBe(
      'functions/catalog/controls/IAM-09.md:24: unknown check key "reviewer"',
    );
  });

  it('is refused when its file name is not its id', () => {
    expect(errorOf({ 'IAM-10.md': good })).toBe('functions/catalog/controls/IAM-10.md:2: the file must be named IAM-09.md');
  });

  it('is refused when its id does not start with the prefix of its family', () => {
    expect(errorOf({ 'IAM-09.md': withLine(4, 'family: change-management') })).toBe(
      'functions/catalog/controls/IAM-09.md:2: a change-management control id starts with CHG-',
    );
  });

  it('is refused when a check reads a kind the control does not require', () => {
    expect(errorOf({ 'IAM-09.md': withLine(21, '    kind: idp.settings') })).toBe(
      'functions/catalog/controls/IAM-09.md:21: check "admins-phishing-resistant" reads "idp.settings", which is not evidence this control requires',
    );
  });

  it('is refused when a check reads attestations, even when the control requires them', () => {
    const lines = withLine(12, '    freshnessDays: 7', '  - kind: attestation', '    freshnessDays: 365');
    // The second check's kind line moved from 21 to 23.
    lines[22] = '    kind: attestation';
    expect(errorOf({ 'IAM-09.md': lines })).toBe(
      'functions/catalog/controls/IAM-09.md:23: check "admins-phishing-resistant" reads "attestation", which is not evidence this control requires',
    );
  });

  it('is refused with a bad severity', () => {
    expect(errorOf({ 'IAM-09.md': withLine(5, 'severity: urgent') })).toBe(
      'functions/catalog/controls/IAM-09.md:5: severity must be one of critical, high, medium, low',
    );
  });

  it('is refused with a freshness that is not a whole number of days', () => {
    expect(errorOf({ 'IAM-09.md': withLine(12, '    freshnessDays: 0.5') })).toBe(
      'functions/catalog/controls/IAM-09.md:11: evidence[0].freshnessDays must be a whole number of days, at least 1',
    );
  });

  it('is refused with an evidence kind that does not exist', () => {
    expect(errorOf({ 'IAM-09.md': withLine(11, '  - kind: idp.group') })).toBe(
      'functions/catalog/controls/IAM-09.md:11: evidence[0].kind "idp.group" is not an evidence kind',
    );
  });

  it('is refused when a where is put on an all check', () => {
    expect(errorOf({ 'IAM-09.md': withLine(23, '    all: items.size() > 0') })).toBe(
      'functions/catalog/controls/IAM-09.md:22: "where" only applies to "each" checks',
    );
  });

  it('is refused with frontmatter that is not YAML, at the line the YAML parser names', () => {
    expect(errorOf({ 'IAM-09.md': withLine(3, 'title: a: b') })).toBe(
      'functions/catalog/controls/IAM-09.md:3: frontmatter is not valid YAML: incomplete explicit mapping pair; ' +
        'a key node is missed; or followed by a non-tabulated empty line at line 3, column 9:',
    );
  });

  it('is refused without a Guidance section, pointing at the end of the file', () => {
    // 32 lines and a final newline: line 33 is the empty line an editor shows after it.
    expect(errorOf({ 'IAM-09.md': good.slice(0, 32) })).toBe(
      'functions/catalog/controls/IAM-09.md:33: the body needs a "## Guidance" section',
    );
  });

  it('is refused when the catalog has no controls', () => {
    const dir = catalogWith({});
    expect(() => compileCatalogSources(dir)).toThrow(new CatalogError(`${join(dir, 'controls')}: the catalog has no controls`));
  });

  it("names the line of the check's own expression when its id is a prefix of an earlier check's id", () => {
    const lines = withLine(20, '  - id: mfa');
    lines[22] = '    each: item.data.nope';
    expect(errorOf({ 'IAM-09.md': lines })).toBe(
      'functions/catalog/controls/IAM-09.md:23: check "mfa": each fails on the idp.user example evidence: field not found: nope',
    );
  });
});

describe("the deployment's settings", () => {
  const compiled = (settings?: unknown) =>
    compileCatalogSources(catalogWith({ 'IAM-09.md': good }, settings === undefined ? undefined : JSON.stringify(settings)));

  it("default to the control's own owner and 7, 30, 90 and 180 days without a file", () => {
    const catalog = compiled();
    expect(catalog.controls[0]!.owner).toBe('Identity team');
    expect(catalog.dueDays).toEqual({ critical: 7, high: 30, medium: 90, low: 180 });
  });

  it('give a control another owner and a severity other days, keeping the defaults of the rest', () => {
    const catalog = compiled({ owners: { 'IAM-09': 'grace@example.com' }, dueDays: { high: 14 } });
    expect(catalog.controls[0]!.owner).toBe('grace@example.com');
    expect(catalog.dueDays).toEqual({ critical: 7, high: 14, medium: 90, low: 180 });
  });

  it('are part of the catalog version', () => {
    expect(compiled({ dueDays: { high: 14 } }).version).not.toBe(compiled().version);
  });

  it.each([
    ['{ "owners": ', 'is not valid JSON'],
    ['[]', 'must be a JSON object'],
    ['{ "reviewers": {} }', '/reviewers is not a setting (owners, dueDays)'],
    ['{ "owners": { "ZZZ-99": "ana" } }', '/owners/ZZZ-99 names no control in the catalog'],
    ['{ "owners": { "IAM-09": " " } }', '/owners/IAM-09 must be a non-empty string of at most 200 characters'],
    ['{ "dueDays": { "urgent": 3 } }', '/dueDays/urgent is not a severity (critical, high, medium, low)'],
    ['{ "dueDays": { "high": 0 } }', '/dueDays/high must be a whole number of days from 1 to 3650'],
    ['{ "dueDays": { "high": 1.5 } }', '/dueDays/high must be a whole number of days from 1 to 3650'],
  ])('refuse %s, saying where', (settings, message) => {
    expect(errorOf({ 'IAM-09.md': good }, settings)).toMatch(`functions/catalog/settings.json: ${message}`);
  });

  it('leave a control without an owner refused, at its frontmatter', () => {
    expect(errorOf({ 'IAM-09.md': withLine(26) })).toBe(
      'functions/catalog/controls/IAM-09.md:1: "owner" must be a non-empty string',
    );
  });
});

describe('scanner checks', () => {
  /** `good` with a `scanner` block before the closing `---`. */
  const withScanner = (...lines: string[]) => withLine(27, ...lines, '---');

  it('feed a control by name and through the frameworks it follows, each with the requirements that bring it in', () => {
    const dir = catalogWith({
      'IAM-09.md': withScanner('scanner:', '  frameworks: [nist80053]', '  checks: [entra_privileged_user_has_mfa]'),
    });
    const [control] = compileCatalogSources(dir).controls;
    // Prowler maps these four AWS checks under ia-2 and ia-2.1 (its `ia_2`, `ia_2_1`).
    expect(control!.scanner).toEqual({
      frameworks: ['nist80053'],
      freshnessDays: 7,
      checks: [
        { id: 'entra_privileged_user_has_mfa', named: true, requirements: [] },
        { id: 'iam_no_root_access_key', named: false, requirements: [{ framework: 'nist80053', id: 'ia-2' }] },
        {
          id: 'iam_root_hardware_mfa_enabled',
          named: false,
          requirements: [
            { framework: 'nist80053', id: 'ia-2' },
            { framework: 'nist80053', id: 'ia-2.1' },
          ],
        },
        {
          id: 'iam_root_mfa_enabled',
          named: false,
          requirements: [
            { framework: 'nist80053', id: 'ia-2' },
            { framework: 'nist80053', id: 'ia-2.1' },
          ],
        },
        {
          id: 'iam_user_mfa_enabled_console_access',
          named: false,
          requirements: [
            { framework: 'nist80053', id: 'ia-2' },
            { framework: 'nist80053', id: 'ia-2.1' },
          ],
        },
      ],
    });
  });

  it("read Prowler's SOC 2 ids in the catalog's notation, trusting a requirement's name over its id", () => {
    const lines = [...good];
    lines.splice(6, 1, '  soc2: [A1.2]');
    lines.splice(26, 1, 'scanner:', '  frameworks: [soc2]', '---');
    const checks = compileCatalogSources(catalogWith({ 'IAM-09.md': lines })).controls[0]!.scanner.checks;
    // Prowler's soc2_*.json files A1.2's checks under the id `cc_a_1_1` and the name "A1.2 …".
    expect(checks.map((check) => check.id)).toEqual(
      expect.arrayContaining(['dynamodb_tables_pitr_enabled', 'keyvault_logging_enabled']),
    );
    expect(new Set(checks.flatMap((check) => check.requirements.map((requirement) => requirement.id)))).toEqual(
      new Set(['A1.2']),
    );
  });

  it('are refused with a framework the catalog does not know', () => {
    expect(errorOf({ 'IAM-09.md': withScanner('scanner:', '  frameworks: [cis]') })).toBe(
      'functions/catalog/controls/IAM-09.md:28: scanner.frameworks lists frameworks: soc2, iso27001, nist80053',
    );
  });

  it('are refused with an unknown key, and when they name nothing', () => {
    expect(errorOf({ 'IAM-09.md': withScanner('scanner:', '  checks: [a_check]', '  via: soc2') })).toBe(
      'functions/catalog/controls/IAM-09.md:29: unknown scanner key "via"',
    );
    expect(errorOf({ 'IAM-09.md': withScanner('scanner: {}') })).toBe(
      'functions/catalog/controls/IAM-09.md:27: scanner needs "frameworks" or "checks"',
    );
  });

  it('are needed by a control that requires scanner findings, and not judged by a CEL check', () => {
    const requiring = [...good];
    requiring.splice(12, 0, '  - kind: scanner.finding', '    freshnessDays: 3');
    expect(errorOf({ 'IAM-09.md': requiring })).toBe(
      'functions/catalog/controls/IAM-09.md:13: a control that requires scanner.finding evidence needs "scanner"',
    );
    const celOnFindings = [...requiring];
    celOnFindings.splice(16, 1, '    kind: scanner.finding');
    celOnFindings.splice(28, 1, 'scanner:', '  checks: [a_check]', '---');
    expect(errorOf({ 'IAM-09.md': celOnFindings })).toBe(
      'functions/catalog/controls/IAM-09.md:17: check "mfa-enrolled": scanner findings are judged by their status; ' +
        'name the scanner\'s checks under "scanner"',
    );
  });

  it('take the freshness of a scanner.finding requirement', () => {
    const lines = [...good];
    lines.splice(12, 0, '  - kind: scanner.finding', '    freshnessDays: 3');
    lines.splice(28, 1, 'scanner:', '  checks: [a_check]', '---');
    const dir = catalogWith({ 'IAM-09.md': lines });
    expect(compileCatalogSources(dir).controls[0]!.scanner).toEqual({
      frameworks: [],
      checks: [{ id: 'a_check', named: true, requirements: [] }],
      freshnessDays: 3,
    });
  });
});
