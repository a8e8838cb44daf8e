/** The words of the framework pages: statuses, shares, coverage, the gaps' groups, the trend's points and the pages' addresses. */
import { describe, expect, it } from 'vitest';
import { frameworkIds, requirementStatuses } from '@evident/contract';
import { apiPath } from '../../../hosting/src/lib/api-client.ts';
import {
  coverageText,
  frameworkNames,
  frameworkPath,
  frameworkQueryFrom,
  frameworksPath,
  gapGroups,
  groupOf,
  inScopeText,
  queryOf,
  readinessOfReport,
  reportQueryOf,
  requirementStatusLabel,
  requirementStatusMeaning,
  requirementStatusOrder,
  scopeText,
  shareText,
  sharesIn,
  shownText,
  statusTone,
  trendPoints,
  withScope,
} from '../../../hosting/src/lib/frameworks.ts';

/** The paths the framework pages ask the API at, as the API client writes them. */
const frameworksApiPath = (date?: string) => apiPath('/api/frameworks', { query: reportQueryOf(date) });
const frameworkApiPath = (framework: string, date?: string) =>
  apiPath('/api/frameworks/{framework}', { path: { framework }, query: reportQueryOf(date) });

describe('requirement statuses', () => {
  it('lists every status of the contract once, riskiest first, each with a label, a meaning and a control status to look like', () => {
    expect([...requirementStatusOrder].sort()).toEqual([...requirementStatuses].sort());
    expect(requirementStatusOrder).toEqual(['not_met', 'unproven', 'met', 'not_applicable']);
    expect(requirementStatusOrder.map((status) => requirementStatusLabel[status])).toEqual([
      'Not met',
      'Unproven',
      'Met',
      'Not applicable',
    ]);
    expect(statusTone).toEqual({ met: 'passing', not_met: 'failing', unproven: 'stale', not_applicable: 'not_applicable' });
    expect(requirementStatusMeaning.unproven).toBe(
      'none fails, but one has stale or missing evidence; it counts against the share.',
    );
    expect(Object.keys(frameworkNames)).toEqual([...frameworkIds]);
  });
});

describe('shares and counts', () => {
  it('gives a share with one decimal and a percent sign, and a dash when no requirement applies', () => {
    expect(shareText(72.5)).toBe('72.5%');
    expect(shareText(100)).toBe('100.0%');
    expect(shareText(0)).toBe('0.0%');
    expect(shareText(null)).toBe('—');
  });

  it('counts met requirements of those in scope, saying when some are left out of the share', () => {
    expect(inScopeText({ counts: { met: 8, not_met: 20, unproven: 5, not_applicable: 0 }, inScope: 33 })).toBe(
      '8 met of 33 in scope',
    );
    expect(inScopeText({ counts: { met: 12, not_met: 5, unproven: 3, not_applicable: 4 }, inScope: 24 })).toBe(
      '12 met of 24 in scope; 4 not applicable, left out of the share',
    );
    expect(inScopeText({ counts: { met: 0, not_met: 0, unproven: 0, not_applicable: 2 }, inScope: 2 })).toBe(
      '0 met of 2 in scope; none applies, so there is no share',
    );
    expect(inScopeText({ counts: { met: 0, not_met: 0, unproven: 0, not_applicable: 0 }, inScope: 0 })).toBe(
      'No requirement is in scope, so there is no share',
    );
  });

  it('says the scope in words, as the report kept it', () => {
    expect(scopeText('Security, Availability')).toBe('Scope: Security, Availability.');
  });

  it('says how many requirements the status filter shows, of all those in scope', () => {
    expect(shownText(25, 25, '')).toBe('25 requirements');
    expect(shownText(13, 25, 'not_met')).toBe('13 of 25 requirements');
    expect(shownText(0, 25, 'not_applicable')).toBe('None of its 25 requirements is not applicable.');
    expect(shownText(0, 0, '')).toBe('No requirement of this framework is in scope.');
  });

  it('says how much of the scope controls cover, and how many requirements no control covers', () => {
    expect(coverageText({ covered: 25, inScope: 33, gaps: 8 })).toBe(
      'Controls cover 25 of 33 requirements in scope; 8 uncovered.',
    );
    expect(coverageText({ covered: 1, inScope: 1, gaps: 0 })).toBe('Controls cover 1 of 1 requirement in scope; none uncovered.');
  });
});

describe('gaps', () => {
  it('groups SOC 2 and ISO ids by what comes before their last dot, NIST ids by family', () => {
    expect(['CC6.1', 'PI1.5', 'A1.2'].map((id) => groupOf('soc2', id))).toEqual(['CC6', 'PI1', 'A1']);
    expect(['A.5.17', 'A.8.1'].map((id) => groupOf('iso27001', id))).toEqual(['A.5', 'A.8']);
    expect(['ac-2', 'ac-2.1', 'si-4.23'].map((id) => groupOf('nist80053', id))).toEqual(['ac', 'ac', 'si']);
    expect(groupOf('soc2', 'CC6')).toBe('CC6');
  });

  it("keeps the groups and their members in the framework's order", () => {
    const gaps = [
      { id: 'ac-1', title: 'Policy and Procedures' },
      { id: 'ac-2.1', title: 'Automated System Account Management' },
      { id: 'at-1', title: 'Policy and Procedures' },
      { id: 'ac-20', title: 'Use of External Systems' },
    ];
    expect(gapGroups('nist80053', gaps)).toEqual([
      { group: 'ac', gaps: [gaps[0], gaps[1], gaps[3]] },
      { group: 'at', gaps: [gaps[2]] },
    ]);
    expect(gapGroups('soc2', [])).toEqual([]);
  });
});

describe('the trend and the dashboard', () => {
  it('draws a point for each day with a share and none for a day on which no requirement applied', () => {
    expect(
      trendPoints([
        { date: '2026-11-01', share: 50 },
        { date: '2026-11-02', share: null },
        { date: '2026-11-03', share: 62.5 },
      ]),
    ).toEqual([
      { date: '2026-11-01', score: 50 },
      { date: '2026-11-03', score: 62.5 },
    ]);
  });

  it("names a report's shares in the frameworks' order, and gives none for a report made before readiness", () => {
    expect(sharesIn({ nist80053: 40, soc2: 72.5, iso27001: null })).toEqual([
      { framework: 'soc2', name: 'SOC 2 Trust Services Criteria (2017)', share: 72.5 },
      { framework: 'iso27001', name: 'ISO/IEC 27001:2022 Annex A', share: null },
      { framework: 'nist80053', name: 'NIST SP 800-53 rev5, moderate baseline', share: 40 },
    ]);
    expect(sharesIn({ soc2: 10 }).map((entry) => entry.framework)).toEqual(['soc2']);
    expect(sharesIn(undefined)).toEqual([]);
  });

  const counts = { met: 8, not_met: 20, unproven: 5, not_applicable: 0 };
  const soc2 = {
    framework: 'soc2' as const,
    name: 'SOC 2',
    share: 24.2,
    counts,
    covered: 25,
    total: 61,
    scope: 'Security',
    inScope: 33,
    outOfScope: [{ id: 'A1.1', reason: 'Availability is not in the audit.' }],
    requirements: [],
    gaps: [],
  };

  it('reads a report made before scope as in scope of the requirements a control covered, as the API serves it', () => {
    const { scope: _scope, inScope: _inScope, outOfScope: _outOfScope, ...old } = soc2;
    const requirements = [{ id: 'CC6.1', status: 'met' as const, controls: ['IAM-01'] }];
    expect(withScope({ ...old, requirements })).toEqual({
      ...old,
      requirements,
      scope: 'The requirements a control covered (the report predates scope)',
      inScope: 1,
      outOfScope: [],
    });
    expect(withScope(soc2)).toEqual(soc2);
  });

  it("lists a report's readiness as met of in scope in the frameworks' order, and the bare shares of a report without frameworks", () => {
    const nist = {
      ...soc2,
      framework: 'nist80053' as const,
      share: null,
      counts: { ...counts, met: 0, not_met: 0, unproven: 0 },
      inScope: 0,
    };
    expect(readinessOfReport({ frameworks: [nist, soc2], summary: {} })).toEqual([
      { framework: 'soc2', name: 'SOC 2 Trust Services Criteria (2017)', share: 24.2, inScope: '8 met of 33 in scope' },
      {
        framework: 'nist80053',
        name: 'NIST SP 800-53 rev5, moderate baseline',
        share: null,
        inScope: 'No requirement is in scope, so there is no share',
      },
    ]);
    expect(readinessOfReport({ summary: { readiness: { soc2: 32 } } })).toEqual([
      { framework: 'soc2', name: 'SOC 2 Trust Services Criteria (2017)', share: 32 },
    ]);
    expect(readinessOfReport({ summary: {} })).toEqual([]);
  });
});

describe('addresses', () => {
  it('reads the day and a known status from the address, ignoring a status that is not one', () => {
    expect(frameworkQueryFrom(new URLSearchParams('date=2026-11-20&status=not_met'))).toEqual({
      date: '2026-11-20',
      status: 'not_met',
    });
    expect(frameworkQueryFrom(new URLSearchParams('status=failing'))).toEqual({ date: '', status: '' });
    expect(queryOf({ date: '', status: 'unproven' }).toString()).toBe('status=unproven');
    expect(queryOf({ date: '2026-11-20', status: '' }).toString()).toBe('date=2026-11-20');
  });

  it("links the pages and asks the API for today's report, or for the day given", () => {
    expect(frameworksPath()).toBe('/frameworks');
    expect(frameworksPath('2026-11-20')).toBe('/frameworks?date=2026-11-20');
    expect(frameworkPath('soc2')).toBe('/frameworks/soc2');
    expect(frameworkPath('soc2', '2026-11-20')).toBe('/frameworks/soc2?date=2026-11-20');
    expect(frameworksApiPath()).toBe('/api/frameworks');
    expect(frameworkApiPath('nist80053', '2026-11-20')).toBe('/api/frameworks/nist80053?date=2026-11-20');
    // Whatever the address held reaches the API encoded; the API says what is wrong with it.
    expect(frameworkApiPath('iso27001', '2026-11-20&x=1')).toBe('/api/frameworks/iso27001?date=2026-11-20%26x%3D1');
  });
});
