/**
 * Readiness per framework through Hosting on the emulators, on the demo's two weeks of reports:
 * each day's frameworks are the readiness its report holds, that readiness is the catalog's
 * mappings rolled up over the report's statuses, a framework's requirements carry the statuses
 * the report gives their controls, its trend is the reports' shares, and what cannot be answered
 * is refused with the exact problem.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../functions/src/assessment/model.ts';
import { readinessOf } from '../../functions/src/assessment/readiness.ts';
import { defaultScope, type Scope, type SettingsVersion } from '../../functions/src/settings/settings-model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { compileCatalogSources } from '../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { api } from '../support/api.ts';
import { mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

type FrameworkList = components['schemas']['FrameworkList'];
type FrameworkDetail = components['schemas']['FrameworkDetail'];
type ControlList = components['schemas']['ControlList'];

const catalog = compileCatalogSources(paths.catalog);

/** The scope a report was made with: the settings version it names, or the defaults. */
async function scopeOf(report: Report): Promise<Scope> {
  if (!report.settingsVersion) return defaultScope;
  return (await api.get<SettingsVersion>(`/api/settings/versions/${report.settingsVersion}`)).settings.scope;
}

describe(`readiness per framework, ${mode} mode`, () => {
  it("gives each day the readiness of that day's report: the served catalog's mappings over its statuses", async () => {
    const list = await api.get<{ reports: { date: string; summary: { readiness?: Record<string, number | null> } }[] }>(
      '/api/report',
    );
    // The mappings as the server serves them, so the roll-up is checked against what users see.
    const { controls } = await api.get<ControlList>('/api/controls');
    for (const { date, summary } of list.reports) {
      const report = await api.get<Report>(`/api/report/${date}`);
      const expected = readinessOf(catalog.frameworks, controls, report.controls, await scopeOf(report));
      expect(report.frameworks, date).toEqual(expected);
      expect(summary.readiness, date).toEqual(
        Object.fromEntries(expected.map((framework) => [framework.framework, framework.share])),
      );
      const served = await api.get<FrameworkList>(`/api/frameworks?date=${date}`);
      expect(served, date).toEqual({
        date,
        frameworks: expected.map(({ requirements: _requirements, gaps, ...rest }) => ({ ...rest, gaps: gaps.length })),
      });
    }
  });

  it("lists a framework's requirements with the statuses the report gives their controls, and its trend", async () => {
    const list = await api.get<{
      today: string;
      reports: { date: string; summary: { readiness: Record<string, number | null> } }[];
    }>('/api/report');
    const report = await api.get<Report>('/api/report/today');
    const detail = await api.get<FrameworkDetail>('/api/frameworks/iso27001');
    expect(detail.date).toBe(list.today);
    const results = new Map(report.controls.map((result) => [result.id, result]));
    const stored = report.frameworks!.find((framework) => framework.framework === 'iso27001')!;
    expect(detail.requirements.map((requirement) => [requirement.id, requirement.status])).toEqual(
      stored.requirements.map((requirement) => [requirement.id, requirement.status]),
    );
    for (const requirement of detail.requirements) {
      expect(requirement.controls).toEqual(
        stored.requirements
          .find((candidate) => candidate.id === requirement.id)!
          .controls.map((id) => ({ id, title: results.get(id)!.title, status: results.get(id)!.status })),
      );
    }
    expect(detail.gaps.map((gap) => gap.id)).toEqual(stored.gaps);
    // The demo has a report every day, each made with readiness.
    expect(detail.trend).toEqual(list.reports.map(({ date, summary }) => ({ date, share: summary.readiness['iso27001'] })));
    expect(detail.trend.length).toBeGreaterThan(7);
  });

  it('answers 404 for a framework Evident does not assess, and 400 for a date that is not a day', async () => {
    const unknown = await api.call('/api/frameworks/hipaa');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    expect(unknown.body).toEqual(
      expectedProblem(
        'framework_not_found',
        'Evident assesses no framework "hipaa"; it assesses soc2, iso27001, nist80053.',
        '/api/frameworks/hipaa',
        unknown.headers.get('x-request-id')!,
      ),
    );
    const badDate = await api.call<{ errors: unknown }>('/api/frameworks/soc2?date=2026-02-30');
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors).toEqual([{ in: 'query', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }]);
  });
});
