/**
 * The `controls` family: the catalog, each control with its status in the newest stored report,
 * one control over a period (reports/control-history.ts), a sample of its days (control-sample.ts),
 * and the population of subjects its checks ran on in a day's report (control-population.ts).
 */
import type { Control, ControlResult, Report } from '../assessment/model.js';
import { addDays, dayIn } from '../assessment/dates.js';
import { toOscalComponentDefinition } from '../assessment/oscal-component.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { controlHistory } from '../reports/control-history.js';
import { controlHistoryCsv } from '../reports/control-history-csv.js';
import { catalogWithSettings } from '../settings/apply-settings.js';
import { SettingsStore } from '../settings/settings-store.js';
import { inBatches } from '../storage/object-store.js';
import { controlPopulationOperations } from './control-population.js';
import { controlSampleOperations } from './control-sample.js';
import { controlSubjectSampleOperations } from './control-subject-sample.js';
import { periodOf } from './period.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ControlsFamilyOptions = FamilyOptions & ServiceOptions;

function summary(control: Control, report: Report | undefined, result: ControlResult | undefined) {
  return {
    id: control.id,
    title: control.title,
    family: control.family,
    severity: control.severity,
    frameworks: control.frameworks,
    automated: control.checks.length > 0,
    // Owners as the newest report named them: the settings it was made with, like its status.
    owner: result?.owner ?? control.owner,
    ...(result?.owners ? { owners: result.owners } : {}),
    latest: report && result ? latestOf(report.date, result) : null,
  };
}

/** The control in the newest report, with when it is due while it is open. */
function latestOf(date: string, { status, dueDate, overdue }: ControlResult) {
  return { date, status, ...(dueDate === undefined ? {} : { dueDate, overdue: overdue === true }) };
}

/** Framework ids compare without case, so `cc6.1` finds `CC6.1` and `IA-2` finds `ia-2`. */
function mapsTo(control: Control, requirement: string): boolean {
  const wanted = requirement.toLowerCase();
  return Object.values(control.frameworks).some((ids: string[]) => ids.some((id) => id.toLowerCase() === wanted));
}

/** The period when none is asked for: 90 days up to today. */
const defaultHistoryDays = 90;

/**
 * The history of a control over a checked period: one object per day with a report, a few at a
 * time (past days' reports never change, so the cache serves them), and the report before it.
 */
export async function readControlHistory(s: Services, controlId: string, from: string, to: string, today: string) {
  const resultOn = async (date: string) => {
    const stored = await s.reports.find(date, { immutable: date < today });
    return { date, result: stored?.report.controls.find((result) => result.id === controlId) };
  };
  const [reports, before] = await Promise.all([
    s.reports.datesBetween(from, to).then((dates) => inBatches(dates, 16, resultOn)),
    s.reports.latestOnOrBefore(addDays(from, -1)),
  ]);
  const previous = before && { date: before.date, result: before.report.controls.find((result) => result.id === controlId) };
  return controlHistory(controlId, from, to, reports, previous);
}

export function createControlsFamily(options: ControlsFamilyOptions = {}) {
  const services = servicesFrom(options);

  async function latestReport() {
    const s = await services();
    const stored = await s.reports.latestOnOrBefore(dayIn(s.timeZone(), s.now()));
    const results = new Map((stored?.report.controls ?? []).map((result) => [result.id, result]));
    return { s, report: stored?.report, results };
  }

  /** The history a request asks for: a control of the catalog, over a period it can read. */
  async function historyAsked(id: string, query: { from?: string; to?: string }) {
    const s = await services();
    const control = s.catalog.controls.find((candidate) => candidate.id === id);
    if (!control) throw new ApiProblem('control_not_found', `No control in the catalog has the id "${id}".`);
    const today = dayIn(s.timeZone(), s.now());
    const { from, to } = periodOf(query, today, s.timeZone(), defaultHistoryDays);
    return readControlHistory(s, control.id, from, to, today);
  }

  return createFamily(
    'controls',
    {
      listControls: async ({ query }) => {
        const { s, report, results } = await latestReport();
        const controls = s.catalog.controls
          .filter((control) => !query.family || control.family === query.family)
          .filter((control) => !query.framework || mapsTo(control, query.framework))
          .map((control) => summary(control, report, results.get(control.id)))
          .filter((control) => !query.status || control.latest?.status === query.status);
        return { status: 200, body: { catalogVersion: s.catalog.version, controls } };
      },
      getControl: async ({ path }) => {
        const { s, report, results } = await latestReport();
        const inCatalog = s.catalog.controls.find((candidate) => candidate.id === path.id);
        if (!inCatalog) throw new ApiProblem('control_not_found', `No control in the catalog has the id "${path.id}".`);
        // The evidence it needs as the settings now have it: a freshness override applies from the next report.
        const current = await new SettingsStore(s.store).current();
        const control = current ? catalogWithSettings({ ...s.catalog, controls: [inCatalog] }, current).controls[0]! : inCatalog;
        const result = results.get(control.id);
        return {
          status: 200,
          body: {
            ...summary(control, report, result),
            objective: control.objective,
            guidance: control.guidance,
            evidence: control.evidence,
            checks: control.checks,
            scanner: control.scanner,
            reconciliations: control.reconciliations ?? [],
            result: result ?? null,
          },
        };
      },
      getCatalogOscal: async () => {
        const s = await services();
        const document = toOscalComponentDefinition(s.catalog, {
          version: s.catalog.version,
          lastModified: s.now().toISOString(),
        });
        return { status: 200, body: Buffer.from(JSON.stringify(document)), contentType: 'application/json' };
      },
      getControlHistory: async ({ path, query }) => ({ status: 200, body: await historyAsked(path.id, query) }),
      exportControlHistory: async ({ path, query }) => {
        const history = await historyAsked(path.id, query);
        return {
          status: 200,
          body: Buffer.from(controlHistoryCsv(history)),
          contentType: 'text/csv; charset=utf-8; header=present',
          headers: { 'Content-Disposition': `attachment; filename="${history.controlId}-${history.from}-to-${history.to}.csv"` },
        };
      },
      ...controlSampleOperations(services, defaultHistoryDays),
      ...controlPopulationOperations(services),
      ...controlSubjectSampleOperations(services),
    },
    options,
  );
}

export const handler = createControlsFamily();
