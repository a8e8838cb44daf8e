/**
 * Readiness per framework (assessment/readiness.ts): how controls' statuses roll up into a
 * requirement's, the share met, coverage gaps, and that every report the engine builds carries
 * its readiness and the shares its summary lists.
 */
import { describe, expect, it } from 'vitest';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import type { ControlStatus, FrameworkReference } from '../../../functions/src/assessment/model.ts';
import { readinessOf, requirementStatus, shareMet } from '../../../functions/src/assessment/readiness.ts';
import { frameworkIds } from '@evident/contract';
import { defaultScope, type Scope } from '../../../functions/src/settings/settings-model.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

describe('a requirement rolled up from its controls', () => {
  it.each<[ControlStatus[], string]>([
    [['passing'], 'met'],
    [['passing', 'passing'], 'met'],
    [['passing', 'not_applicable'], 'met'],
    [['passing', 'failing'], 'not_met'],
    // A failure outranks evidence that is merely old or absent.
    [['stale', 'missing', 'failing'], 'not_met'],
    [['passing', 'stale'], 'unproven'],
    [['missing'], 'unproven'],
    [['not_applicable', 'missing'], 'unproven'],
    [['not_applicable'], 'not_applicable'],
    [['not_applicable', 'not_applicable'], 'not_applicable'],
  ])('%j is %s', (statuses, expected) => {
    expect(requirementStatus(statuses)).toBe(expected);
  });
});

describe('the share of requirements met', () => {
  it('counts unproven requirements against it and scoped-out ones not at all', () => {
    expect(shareMet({ met: 2, not_met: 0, unproven: 1, not_applicable: 5 })).toBe(66.7);
    expect(shareMet({ met: 1, not_met: 1, unproven: 0, not_applicable: 0 })).toBe(50);
    expect(shareMet({ met: 3, not_met: 0, unproven: 0, not_applicable: 0 })).toBe(100);
  });

  it('is null when no requirement applies', () => {
    expect(shareMet({ met: 0, not_met: 0, unproven: 0, not_applicable: 2 })).toBeNull();
    expect(shareMet({ met: 0, not_met: 0, unproven: 0, not_applicable: 0 })).toBeNull();
  });
});

describe('readiness from a report', () => {
  const reference: FrameworkReference = {
    id: 'soc2',
    name: 'SOC 2',
    requirements: ['CC1.1', 'CC6.1', 'CC6.2', 'CC7.1', 'CC8.1'].map((id) => ({ id, title: null })),
  };
  const mapping = (soc2: string[]) => ({ soc2, iso27001: [], nist80053: [] });
  const controls = [
    { id: 'IAM-02', frameworks: mapping(['CC6.1', 'CC6.2']) },
    { id: 'IAM-01', frameworks: mapping(['CC6.1']) },
    { id: 'LOG-01', frameworks: mapping(['CC7.1']) },
    // Added to the catalog after the report: it must not count, nor hide CC8.1's gap.
    { id: 'CHG-09', frameworks: mapping(['CC8.1']) },
  ];
  const results = [
    { id: 'IAM-01', status: 'passing' as const },
    { id: 'IAM-02', status: 'failing' as const },
    { id: 'LOG-01', status: 'stale' as const },
  ];

  it('lists every in-scope requirement in the framework order, an uncovered one not met with no controls', () => {
    expect(readinessOf([reference], controls, results, defaultScope)).toEqual([
      {
        framework: 'soc2',
        name: 'SOC 2',
        share: 0,
        counts: { met: 0, not_met: 4, unproven: 1, not_applicable: 0 },
        covered: 3,
        total: 5,
        scope: 'Security',
        inScope: 5,
        outOfScope: [],
        requirements: [
          { id: 'CC1.1', status: 'not_met', controls: [] },
          { id: 'CC6.1', status: 'not_met', controls: ['IAM-01', 'IAM-02'] },
          { id: 'CC6.2', status: 'not_met', controls: ['IAM-02'] },
          { id: 'CC7.1', status: 'unproven', controls: ['LOG-01'] },
          { id: 'CC8.1', status: 'not_met', controls: [] },
        ],
        gaps: ['CC1.1', 'CC8.1'],
      },
    ]);
  });

  it('meets a requirement once every one of its applicable controls passes, and counts gaps against the share', () => {
    const fixed = results.map((result) => (result.id === 'IAM-02' ? { ...result, status: 'passing' as const } : result));
    const [soc2] = readinessOf([reference], controls, fixed, defaultScope);
    expect(soc2!.requirements.map((requirement) => requirement.status)).toEqual(['not_met', 'met', 'met', 'unproven', 'not_met']);
    // 2 met of 5 in scope: the two requirements no control covers count as not met.
    expect(soc2!.share).toBe(40);
  });
});

describe('readiness within a scope', () => {
  const soc2: FrameworkReference = {
    id: 'soc2',
    name: 'SOC 2',
    requirements: ['CC6.1', 'A1.1', 'C1.1', 'PI1.1', 'P1.1'].map((id) => ({ id, title: null })),
  };
  const iso: FrameworkReference = {
    id: 'iso27001',
    name: 'ISO',
    requirements: ['A.5.1', 'A.7.4', 'A.8.1'].map((id) => ({ id, title: null })),
  };
  const mapping = (soc: string[], isoIds: string[]) => ({ soc2: soc, iso27001: isoIds, nist80053: [] });
  const controls = [{ id: 'IAM-01', frameworks: mapping(['CC6.1', 'A1.1'], ['A.8.1']) }];
  const results = [{ id: 'IAM-01', status: 'passing' as const }];
  const scope = (categories: Scope['soc2']['categories'], excluded: Scope['iso27001']['excluded'] = []): Scope => ({
    ...defaultScope,
    soc2: { categories, excluded: [] },
    iso27001: { excluded },
  });

  it('counts only the SOC 2 categories in scope, naming why the others are left out', () => {
    const [security] = readinessOf([soc2], controls, results, scope(['security']));
    expect(security).toMatchObject({ scope: 'Security', inScope: 1, share: 100, gaps: [] });
    expect(security!.outOfScope).toEqual([
      { id: 'A1.1', reason: "Availability is not in the audit's trust services categories." },
      { id: 'C1.1', reason: "Confidentiality is not in the audit's trust services categories." },
      { id: 'PI1.1', reason: "Processing Integrity is not in the audit's trust services categories." },
      { id: 'P1.1', reason: "Privacy is not in the audit's trust services categories." },
    ]);
    const [wider] = readinessOf([soc2], controls, results, scope(['security', 'privacy', 'availability']));
    // Security and Availability are met; Privacy is in scope and no control covers it.
    expect(wider).toMatchObject({ scope: 'Security, Availability, Privacy', inScope: 3, share: 66.7, gaps: ['P1.1'] });
    expect(wider!.outOfScope!.map(({ id }) => id)).toEqual(['C1.1', 'PI1.1']);
  });

  it("leaves out the ISO Annex A controls the Statement of Applicability excludes, with the organisation's reason", () => {
    const excluded = [{ requirement: 'A.7.4', reason: 'No premises: the company works remotely.' }];
    const [annexA] = readinessOf([iso], controls, results, scope(['security'], excluded));
    expect(annexA).toMatchObject({
      scope: 'All of Annex A, less 1 control excluded',
      inScope: 2,
      outOfScope: [{ id: 'A.7.4', reason: 'No premises: the company works remotely.' }],
      gaps: ['A.5.1'],
      share: 50,
    });
  });
});

describe('readiness in every report the engine builds', () => {
  const catalog = compileCatalogSources(paths.catalog);
  const report = evaluate(compileCatalog(catalog), {
    date: '2026-11-24',
    timeZone: 'UTC',
    asOf: new Date('2026-11-24T12:00:00Z'),
    generatedAt: new Date('2026-11-24T12:00:00Z'),
    runId: 'test',
    evidence: [],
    previous: null,
  });

  it('covers the three frameworks, each in-scope requirement either covered or a gap', () => {
    expect(report.frameworks!.map((framework) => framework.framework)).toEqual([...frameworkIds]);
    expect(report.settingsVersion).toBeNull();
    for (const framework of report.frameworks!) {
      const reference = catalog.frameworks.find((candidate) => candidate.id === framework.framework)!;
      expect(framework.total).toBe(reference.requirements.length);
      expect(framework.inScope! + framework.outOfScope!.length).toBe(framework.total);
      expect(framework.covered + framework.gaps.length).toBe(framework.inScope);
      const counted = Object.values(framework.counts).reduce((sum, count) => sum + count, 0);
      expect(counted).toBe(framework.inScope);
      // Every mapping of the catalog is one of its requirement's controls.
      const outOfScope = new Set(framework.outOfScope!.map(({ id }) => id));
      const mapped = catalog.controls.flatMap((control) =>
        control.frameworks[framework.framework].filter((id) => !outOfScope.has(id)).map((id) => `${id} ${control.id}`),
      );
      const listed = framework.requirements.flatMap((requirement) => requirement.controls.map((id) => `${requirement.id} ${id}`));
      expect(listed.sort()).toEqual(mapped.sort());
    }
  });

  it('counts every covered requirement unproven without evidence, each gap not met, and lists the shares in the summary', () => {
    // With no evidence at all every control is missing, so nothing can be shown met.
    for (const framework of report.frameworks!) {
      expect(framework.counts).toEqual({
        met: 0,
        not_met: framework.gaps.length,
        unproven: framework.covered,
        not_applicable: 0,
      });
    }
    expect(report.summary.readiness).toEqual({ soc2: 0, iso27001: 0, nist80053: 0 });
  });
});
