/**
 * The names of the files an audit package holds to re-derive its reports (package-inputs.ts
 * writes them, verify-package.ts reads them), and how a day's populations file reads back.
 * Free of storage, so the single-file verifier bundles only what it runs.
 */
import type { EvidenceItem, SourcePopulation } from '../assessment/model.js';

export const catalogPath = 'catalog/catalog.json';
export const previousReportPath = (date: string) => `inputs/previous/${date}.json`;
export const exceptionsPath = (date: string) => `inputs/exceptions/${date}.json`;
export const populationsInputPath = (date: string) => `inputs/populations/${date}.json`;
/** Every submission's review, by submission id: what a report evaluated with `SUBMISSION_REVIEW=required` counted. */
export const submissionReviewsPath = 'inputs/submission-reviews.json';
export const populationSubjectsPath = (runId: string, kind: string) =>
  `inputs/populations/runs/${slugOf(runId, 'run')}/${slugOf(kind, 'kind')}.json`;

/** A name segment a person can read and any unzip tool accepts: letters, digits and `._@+-`, at most 60 characters. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .replace(/[^A-Za-z0-9._@+-]+/g, '-')
    .slice(0, 60)
    .replace(/^[-.]+/, '')
    // The trailing run is tried from its first character only (not again from each of them).
    .replace(/(?<![-.])[-.]+$/, '');
  return slug === '' ? fallback : slug;
}

/**
 * Whether the verifier reads the file to re-derive the reports (or to check the signature): the
 * others (OSCAL, the readable pages, samples, history...) it only hashes.
 */
export const rederivationReads = (path: string) =>
  /^(manifest\.json|manifest\.sig|catalog\/|settings\/|inputs\/|reports\/|evidence\/)/.test(path);

/** `:` is allowed in evidence ids and not in Windows file names. */
const idSegment = (id: string) => id.replaceAll(':', '%3A');

/** Where an item goes: by kind, subject and the UTC day it was collected, then its id (which keeps names unique). */
export const evidenceItemPath = (item: Pick<EvidenceItem, 'id' | 'kind' | 'subject' | 'collectedAt'>) =>
  `evidence/${slugOf(item.kind, 'kind')}/${slugOf(item.subject, 'subject')}/${item.collectedAt.slice(0, 10)}-${idSegment(item.id)}.json`;

/** The id an evidence path names, or undefined for a path that is not one. */
export function idOfEvidencePath(path: string): string | undefined {
  const match = /^evidence\/[^/]+\/[^/]+\/\d{4}-\d{2}-\d{2}-([^/]+)\.json$/.exec(path);
  return match ? match[1]!.replaceAll('%3A', ':') : undefined;
}

/** A day's collection-run populations as a file: complete populations name their subjects' file. */
export type PopulationInput = Omit<SourcePopulation, 'complete'> & {
  complete?: Omit<NonNullable<SourcePopulation['complete']>, 'subjects'> & { subjects: string };
};

/** A day's populations file read back, its subjects from their files: what evaluation takes. */
export function populationsFromFiles(
  inputs: readonly PopulationInput[],
  subjectsOf: (path: string) => readonly string[],
): SourcePopulation[] {
  return inputs.map(({ complete, ...rest }) =>
    complete ? { ...rest, complete: { ...complete, subjects: new Set(subjectsOf(complete.subjects)) } } : rest,
  );
}
