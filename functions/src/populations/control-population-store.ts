/**
 * Each report's control populations in the object store, written once by the daily job (or a
 * publishing analysis) before the report that names them, and paged by auditors. One version of a day's report has its own run id, so each
 * version keeps the populations it was made with:
 *
 *   control-populations/day=<D>/<runId>/<control>/<kind>/header.json
 *       The population's control, kind, count and SHA-256, and how many subjects a chunk holds.
 *   control-populations/day=<D>/<runId>/<control>/<kind>/<000000>.json
 *       The subjects from `n × chunkSize` on, in subject order, as `[subject, outcome, evidenceId]`.
 *
 * Everything is written create-only and never changes, so a subject's place in its population is
 * fixed: a page is a place and a length, read as the header and the one or two chunks it spans,
 * whatever the population's size. Writing costs one object per chunk and one per population,
 * never one per subject. A header is written after its chunks, so a population whose header
 * exists is whole; a daily job that stopped halfway leaves populations without one, which read as
 * absent, and writing again with the same run id fills in what is missing.
 */
import type { ControlPopulation, SubjectOutcome } from './control-population.js';
import { inBatches, inBatchesAhead, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

/** Subjects a chunk holds: a chunk of 300-character subjects stays under a megabyte. */
export const chunkSize = 2000;
/** Objects written at once. */
const writesAtOnce = 32;

/** Where a report's populations are: its day and the run id of its version. */
export interface ReportRun {
  date: string;
  runId: string;
}

/** One population of a report. */
export interface PopulationAt extends ReportRun {
  controlId: string;
  kind: string;
}

/** A population without its subjects, as its header holds it. */
export type PopulationHeader = Omit<ControlPopulation, 'subjects'> & { chunkSize: number };

export interface PopulationPage {
  population: PopulationHeader;
  /** The subjects from the page's start, at most its limit. */
  subjects: SubjectOutcome[];
  /** Where the next page starts; absent on the last. */
  next?: number;
}

type StoredSubject = [subject: string, outcome: SubjectOutcome['outcome'], evidenceId: string];

const segment = (value: string) => encodeURIComponent(value);
const populationPrefix = (at: PopulationAt) =>
  `control-populations/day=${at.date}/${segment(at.runId)}/${segment(at.controlId)}/${segment(at.kind)}/`;
export const headerObjectName = (at: PopulationAt) => `${populationPrefix(at)}header.json`;
export const chunkObjectName = (at: PopulationAt, index: number) =>
  `${populationPrefix(at)}${String(index).padStart(6, '0')}.json`;

/** The objects one population is written as: its chunks, then its header. */
function objectsOf(run: ReportRun, population: ControlPopulation): { chunks: [string, string][]; header: [string, string] } {
  checkPopulation(population);
  const at = { ...run, controlId: population.controlId, kind: population.kind };
  const chunks: [string, string][] = [];
  for (let start = 0; start < population.subjects.length; start += chunkSize) {
    const rows = population.subjects
      .slice(start, start + chunkSize)
      .map(({ subject, outcome, evidenceId }): StoredSubject => [subject, outcome, evidenceId]);
    chunks.push([chunkObjectName(at, start / chunkSize), JSON.stringify(rows)]);
  }
  const { controlId, kind, count, sha256 } = population;
  const header: PopulationHeader = { controlId, kind, count, sha256, chunkSize };
  return { chunks, header: [headerObjectName(at), JSON.stringify(header)] };
}

/** Pages rely on the subjects' order and count, so a population without them is a caller's mistake. */
function checkPopulation({ controlId, kind, count, subjects }: ControlPopulation): void {
  if (count !== subjects.length) throw new RangeError(`${controlId} ${kind}: count ${count} but ${subjects.length} subjects`);
  for (let index = 1; index < subjects.length; index++) {
    if (!(subjects[index - 1]!.subject < subjects[index]!.subject))
      throw new RangeError(`${controlId} ${kind}: subjects not in strictly ascending order at ${index}`);
  }
}

export class ControlPopulationStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /** Writes a report's populations: every chunk, then every header. Objects written already are left as they are. */
  async write(run: ReportRun, populations: readonly ControlPopulation[]): Promise<void> {
    const objects = populations.map((population) => objectsOf(run, population));
    await this.#createAll(objects.flatMap(({ chunks }) => chunks));
    await this.#createAll(objects.map(({ header }) => header));
  }

  async #createAll(objects: readonly [name: string, data: string][]): Promise<void> {
    await inBatches(objects, writesAtOnce, async ([name, data]) => {
      try {
        await this.#store.create(name, data, { contentType: 'application/json' });
      } catch (error) {
        if (!(error instanceof PreconditionFailed)) throw error;
      }
    });
  }

  /** The population's header, or undefined when the report recorded none of that control and kind. */
  async header(at: PopulationAt): Promise<PopulationHeader | undefined> {
    try {
      return JSON.parse((await this.#store.read(headerObjectName(at))).data.toString('utf8')) as PopulationHeader;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Up to `limit` subjects from the `start`th (0 first): the header, then the chunks the page
   * spans, read together. Undefined when there is no such population.
   */
  async page(query: PopulationAt & { start: number; limit: number }): Promise<PopulationPage | undefined> {
    const population = await this.header(query);
    return population && this.pageOf(query, population, query);
  }

  /** The same page of a population whose header was read: only the chunks it spans. */
  async pageOf(
    at: PopulationAt,
    population: PopulationHeader,
    { start, limit }: { start: number; limit: number },
  ): Promise<PopulationPage> {
    const end = Math.min(start + limit, population.count);
    const first = Math.floor(start / population.chunkSize);
    const last = end > start ? Math.floor((end - 1) / population.chunkSize) : first - 1;
    const chunks = await Promise.all(Array.from({ length: last - first + 1 }, (_, offset) => this.#chunk(at, first + offset)));
    const subjects = chunks.flat().slice(start - first * population.chunkSize, end - first * population.chunkSize);
    return { population, subjects, ...(end < population.count ? { next: end } : {}) };
  }

  /** Every subject of a population whose header was read, a chunk at a time, the next one read while this one is used. */
  async *chunks(at: PopulationAt, population: PopulationHeader): AsyncGenerator<SubjectOutcome[]> {
    const indices = Array.from({ length: Math.ceil(population.count / population.chunkSize) }, (_, index) => index);
    yield* inBatchesAhead(indices, 1, (index) => this.#chunk(at, index));
  }

  async #chunk(at: PopulationAt, index: number): Promise<SubjectOutcome[]> {
    const rows = JSON.parse((await this.#store.read(chunkObjectName(at, index))).data.toString('utf8')) as StoredSubject[];
    return rows.map(([subject, outcome, evidenceId]) => ({ subject, outcome, evidenceId }));
  }
}

/**
 * Stores a report's control populations under its day and run id, for the daily job and a
 * publishing analysis to call before they store the report. Create-only: calling it again for the
 * same run writes only what is missing.
 */
export function writeControlPopulations(
  store: ObjectStore,
  run: ReportRun,
  populations: readonly ControlPopulation[],
): Promise<void> {
  return new ControlPopulationStore(store).write(run, populations);
}
