/**
 * A control's population on a day, for the `controls` family: `GET
 * /api/controls/{id}/population`, a page of the subjects of one kind its checks ran on with their
 * outcomes, and its CSV (populations/control-population-store.ts stores them; docs/sampling.md
 * says what an auditor does with them). The day's current report names the version whose
 * population is read, by its run id; a cursor keeps to that version, so the pages of one walk
 * never mix two versions of a day's report.
 */
import { Readable } from 'node:stream';
import { dayIn, isCalendarDate } from '../assessment/dates.js';
import type { Control } from '../assessment/model.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { OperationInput, OperationResult } from '../http/operation-types.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { ControlPopulationStore, type PopulationAt, type PopulationHeader } from '../populations/control-population-store.js';
import { populationCsvHeader, populationCsvRows } from '../populations/control-population-csv.js';
import { reportObjectName } from '../reports/report-store.js';
import { parseVersionName, versionsPrefixOf } from '../reports/report-versions.js';
import { listAll, ObjectNotFound } from '../storage/object-store.js';
import { encodeCursor, placeOf } from './paging.js';
import type { Services } from './services.js';

type PopulationQuery = { date?: string; kind: string; cursor?: string };

/** The place a page's cursor names: the population (day, report version, control, kind) and the next subject's index. */
const placeOfPage = (at: PopulationAt, next: number) => `${at.date}/${at.runId}/${at.controlId}/${at.kind}/${next}`;

const noReport = (date: string) =>
  new ApiProblem('report_not_found', `There is no report for ${date}. GET /api/report lists the days that have one.`);

/**
 * The run id of the day's current report, from its object's metadata (one `stat`); a report
 * stored before its metadata named it is read.
 */
async function currentRunId(s: Services, date: string): Promise<string> {
  try {
    const { metadata } = await s.store.stat(reportObjectName(date));
    if (metadata['runid']) return metadata['runid'];
  } catch (error) {
    if (!(error instanceof ObjectNotFound)) throw error;
    throw noReport(date);
  }
  const stored = await s.reports.find(date, { immutable: date < dayIn(s.timeZone(), s.now()) });
  if (!stored) throw noReport(date);
  return stored.report.runId;
}

/** A population a request names, found: the control, where it is, its header, and where the page starts. */
export interface FoundPopulation {
  control: Control;
  at: PopulationAt;
  population: PopulationHeader;
  start: number;
}

/**
 * The population a request names: a control of the catalog and a calendar day (today by
 * default). Without a cursor, the day's current report's — or, when that version did not
 * evaluate the control, the version that did; with one, the version and place the cursor given
 * out for this control, day and kind holds. `population_not_found` when none recorded it.
 */
export async function populationAsked(s: Services, id: string, query: PopulationQuery): Promise<FoundPopulation> {
  const control = s.catalog.controls.find((candidate) => candidate.id === id);
  if (!control) throw new ApiProblem('control_not_found', `No control in the catalog has the id "${id}".`);
  const date = query.date ?? dayIn(s.timeZone(), s.now());
  if (!isCalendarDate(date))
    throw invalidRequest([{ in: 'query', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }]);
  const place = placeOf('population', query.cursor, (text) => {
    const [day, , controlId, kind] = text.split('/');
    return day === date && controlId === control.id && kind === query.kind;
  });
  const store = new ControlPopulationStore(s.store);
  if (place !== undefined) {
    const [, runId, , , next] = place.split('/');
    const at = { date, runId: runId!, controlId: control.id, kind: query.kind };
    const population = await store.header(at);
    if (!population) throw notRecorded(at);
    return { control, at, population, start: Number(next) };
  }
  const at = { date, runId: await currentRunId(s, date), controlId: control.id, kind: query.kind };
  const population = await store.header(at);
  const found = population ? { at, population } : await versionThatEvaluated(s, store, at);
  if (!found) throw notRecorded(at);
  return { control, ...found, start: 0 };
}

/**
 * When the current version of the day's report recorded no population of the control: the
 * newest earlier version that did, with its header — an analysis of other controls republished
 * the day and carried this control's result over from it. One `list` of the day's kept versions
 * and a header read per version tried, newest first; a day has a handful.
 */
async function versionThatEvaluated(
  s: Services,
  store: ControlPopulationStore,
  current: PopulationAt,
): Promise<{ at: PopulationAt; population: PopulationHeader } | undefined> {
  const kept = await listAll(s.store, versionsPrefixOf(current.date));
  const older = kept
    .flatMap((info) => {
      const named = parseVersionName(info.name);
      const runId = info.metadata['runid'];
      return named && runId && runId !== current.runId ? [{ version: named.version, runId }] : [];
    })
    .sort((a, b) => b.version - a.version);
  for (const { runId } of older) {
    const at = { ...current, runId };
    const population = await store.header(at);
    if (population) return { at, population };
  }
  return undefined;
}

const notRecorded = ({ controlId, kind, date }: PopulationAt) =>
  new ApiProblem('population_not_found', `The report of ${date} records no population of ${kind} for ${controlId}.`);

export function controlPopulationOperations(services: () => MaybePromise<Services>) {
  async function getControlPopulation({
    path,
    query,
  }: OperationInput<'getControlPopulation'>): Promise<OperationResult<'getControlPopulation'>> {
    const s = await services();
    const { at, population, start } = await populationAsked(s, path.id, query);
    if (start >= population.count && start > 0)
      throw invalidRequest([{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }]);
    const page = await new ControlPopulationStore(s.store).pageOf(at, population, { start, limit: query.limit });
    const { count, sha256 } = page.population;
    const more = page.next !== undefined;
    return {
      status: 200,
      body: {
        ...{ controlId: at.controlId, date: at.date, kind: query.kind, runId: at.runId },
        ...{ count, sha256, subjects: page.subjects, hasMore: more },
        ...(more ? { nextCursor: encodeCursor('population', placeOfPage(at, page.next!)) } : {}),
      },
    };
  }

  async function exportControlPopulation({
    path,
    query,
  }: OperationInput<'exportControlPopulation'>): Promise<OperationResult<'exportControlPopulation'>> {
    const s = await services();
    const { at, population } = await populationAsked(s, path.id, query);
    const store = new ControlPopulationStore(s.store);
    async function* csv() {
      yield populationCsvHeader();
      for await (const chunk of store.chunks(at, population)) yield populationCsvRows(chunk);
    }
    return {
      status: 200,
      body: Readable.from(csv()),
      contentType: 'text/csv; charset=utf-8; header=present',
      headers: {
        'Content-Disposition': `attachment; filename="${at.controlId}-${at.date}-${at.kind}-population.csv"`,
        'Evident-Population-Count': String(population.count),
        'Evident-Population-Sha256': population.sha256,
        'Evident-Report-Run-Id': at.runId,
      },
    };
  }

  return { getControlPopulation, exportControlPopulation };
}
