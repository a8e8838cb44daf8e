/**
 * A sample of the days a control was tested, for the `controls` family: `GET
 * /api/controls/{id}/sample` and its CSV (reports/control-sample.ts reads it; docs/sampling.md
 * publishes the method). The period answers as a control's history does (period.ts).
 */
import { suggestedSampleSize } from '../assessment/control-frequency.js';
import { dayIn } from '../assessment/dates.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { OperationInput, OperationResult } from '../http/operation-types.js';
import { ApiProblem } from '../http/problem.js';
import { readDayPopulation, readDaySample, type SampleRequest } from '../reports/control-sample.js';
import { populationCsv, sampleCsv } from '../reports/control-sample-csv.js';
import { periodOf } from './period.js';
import type { Services } from './services.js';

/** `defaultDays`: the period when none is asked for, as the history's. */
export function controlSampleOperations(services: () => MaybePromise<Services>, defaultDays: number) {
  /**
   * The sample a request asks for: a control of the catalog, a period it can read, its size (the
   * suggestion's upper end by default) and its seed (the period itself by default, so a link
   * without one is stable; docs/sampling.md says why an auditor should choose their own).
   */
  async function sampleAsked(id: string, query: { from?: string; to?: string; size?: number; seed?: string }) {
    const s = await services();
    const control = s.catalog.controls.find((candidate) => candidate.id === id);
    if (!control) throw new ApiProblem('control_not_found', `No control in the catalog has the id "${id}".`);
    const today = dayIn(s.timeZone(), s.now());
    const { from, to } = periodOf(query, today, s.timeZone(), defaultDays);
    const suggestion = suggestedSampleSize(control);
    const seed = query.seed ?? `${from}..${to}`;
    const request: SampleRequest = { controlId: control.id, from, to, seed, size: query.size ?? suggestion.size, today };
    return { s, request, suggestion, seedChosen: query.seed !== undefined };
  }

  async function getControlSample({
    path,
    query,
  }: OperationInput<'getControlSample'>): Promise<OperationResult<'getControlSample'>> {
    const { s, request, suggestion, seedChosen } = await sampleAsked(path.id, query);
    const { population, sample } = await readDaySample(s.reports, request);
    const { controlId, from, to, seed, size } = request;
    const { frequency, range } = suggestion;
    return {
      status: 200,
      body: { controlId, from, to, seed, seedChosen, size, suggestion: { frequency, ...range }, population, sample },
    };
  }

  async function exportControlSample({
    path,
    query,
  }: OperationInput<'exportControlSample'>): Promise<OperationResult<'exportControlSample'>> {
    const { s, request } = await sampleAsked(path.id, query);
    const csv =
      query.rows === 'population'
        ? populationCsv(await readDayPopulation(s.reports, request))
        : sampleCsv((await readDaySample(s.reports, request)).sample);
    const name = `${request.controlId}-${request.from}-to-${request.to}-${query.rows}.csv`;
    return {
      status: 200,
      body: Buffer.from(csv),
      contentType: 'text/csv; charset=utf-8; header=present',
      headers: { 'Content-Disposition': `attachment; filename="${name}"` },
    };
  }

  return { getControlSample, exportControlSample };
}
