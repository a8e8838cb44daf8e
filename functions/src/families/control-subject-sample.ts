/**
 * A sample of the subjects a control was tested on, for the `controls` family: `GET
 * /api/controls/{id}/population/sample` and its CSV. The population is the one
 * `GET /api/controls/{id}/population` pages (families/control-population.ts finds it); the
 * subjects are ranked by the published method (assessment/sampling.ts, docs/sampling.md), so an
 * auditor re-derives the sample from the population's CSV without Evident.
 */
import { suggestedSampleSize } from '../assessment/control-frequency.js';
import { rankDigest } from '../assessment/sampling.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { OperationInput, OperationResult } from '../http/operation-types.js';
import type { SubjectOutcome } from '../populations/control-population.js';
import { ControlPopulationStore } from '../populations/control-population-store.js';
import { csvOf } from '../reports/control-history-csv.js';
import { populationAsked } from './control-population.js';
import type { Services } from './services.js';

type SampleQuery = { date?: string; kind: string; size?: number; seed?: string };

/** A sampled subject: where it ranks, the digest that placed it, and what its checks made of it. */
type SampledSubject = SubjectOutcome & { rank: number; digest: string };

export const subjectSampleCsvColumns = ['rank', 'subject', 'sha256', 'outcome', 'evidence_id'] as const;

/**
 * The first `size` subjects in rank order. Reads the population a chunk at a time and keeps only
 * the best `size` so far, so memory stays at the sample's size whatever the population's.
 */
async function sampleOfPopulation(s: Services, id: string, query: SampleQuery) {
  const { control, at, population } = await populationAsked(s, id, query);
  const store = new ControlPopulationStore(s.store);
  const suggestion = suggestedSampleSize(control);
  const seed = query.seed ?? `${at.date}/${at.kind}`;
  const size = query.size ?? suggestion.size;
  let best: (SubjectOutcome & { digest: string })[] = [];
  for await (const chunk of store.chunks(at, population)) {
    const ranked = chunk.map((subject) => ({ ...subject, digest: rankDigest(seed, subject.subject) }));
    best = [...best, ...ranked].sort((a, b) => (a.digest < b.digest ? -1 : 1)).slice(0, size);
  }
  const sample: SampledSubject[] = best.map((subject, index) => ({ rank: index + 1, ...subject }));
  return { at, population, suggestion, seed, seedChosen: query.seed !== undefined, size, sample };
}

export function controlSubjectSampleOperations(services: () => MaybePromise<Services>) {
  async function getControlSubjectSample({
    path,
    query,
  }: OperationInput<'getControlSubjectSample'>): Promise<OperationResult<'getControlSubjectSample'>> {
    const { at, population, suggestion, seed, seedChosen, size, sample } = await sampleOfPopulation(
      await services(),
      path.id,
      query,
    );
    return {
      status: 200,
      body: {
        ...{ controlId: at.controlId, date: at.date, kind: query.kind, runId: at.runId },
        ...{ count: population.count, sha256: population.sha256, seed, seedChosen, size },
        suggestion: { frequency: suggestion.frequency, ...suggestion.range },
        sample: sample.map(({ rank, subject, digest, outcome, evidenceId }) => ({ rank, subject, digest, outcome, evidenceId })),
      },
    };
  }

  async function exportControlSubjectSample({
    path,
    query,
  }: OperationInput<'exportControlSubjectSample'>): Promise<OperationResult<'exportControlSubjectSample'>> {
    const { at, sample } = await sampleOfPopulation(await services(), path.id, query);
    const rows = sample.map(({ rank, subject, digest, outcome, evidenceId }) => [
      String(rank),
      subject,
      digest,
      outcome,
      evidenceId,
    ]);
    return {
      status: 200,
      body: Buffer.from(csvOf([[...subjectSampleCsvColumns], ...rows])),
      contentType: 'text/csv; charset=utf-8; header=present',
      headers: { 'Content-Disposition': `attachment; filename="${at.controlId}-${at.date}-${at.kind}-sample.csv"` },
    };
  }

  return { getControlSubjectSample, exportControlSubjectSample };
}
