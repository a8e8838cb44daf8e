/** The `controls` family: the catalog, each control with its status in the newest stored report. */
import type { Control, ControlResult, Report } from '../assessment/model.js';
import { dayIn } from '../assessment/dates.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type ControlsFamilyOptions = FamilyOptions & ServiceOptions;

function summary(control: Control, report: Report | undefined, result: ControlResult | undefined) {
  return {
    id: control.id,
    title: control.title,
    family: control.family,
    severity: control.severity,
    frameworks: control.frameworks,
    automated: control.checks.length > 0,
    latest: report && result ? { date: report.date, status: result.status } : null,
  };
}

/** Framework ids compare without case, so `cc6.1` finds `CC6.1` and `IA-2` finds `ia-2`. */
function mapsTo(control: Control, requirement: string): boolean {
  const wanted = requirement.toLowerCase();
  return Object.values(control.frameworks).some((ids: string[]) => ids.some((id) => id.toLowerCase() === wanted));
}

export function createControlsFamily(options: ControlsFamilyOptions = {}) {
  const services = servicesFrom(options);

  async function latestReport() {
    const s = await services();
    const stored = await s.reports.latestOnOrBefore(dayIn(s.timeZone(), s.now()));
    const results = new Map((stored?.report.controls ?? []).map((result) => [result.id, result]));
    return { s, report: stored?.report, results };
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
        const control = s.catalog.controls.find((candidate) => candidate.id === path.id);
        if (!control) throw new ApiProblem('control_not_found', `No control in the catalog has the id "${path.id}".`);
        const result = results.get(control.id);
        return {
          status: 200,
          body: {
            ...summary(control, report, result),
            objective: control.objective,
            guidance: control.guidance,
            evidence: control.evidence,
            checks: control.checks,
            result: result ?? null,
          },
        };
      },
    },
    options,
  );
}

export const handler = createControlsFamily();
