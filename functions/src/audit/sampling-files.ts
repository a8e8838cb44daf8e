/**
 * The audit package's `sampling/` files (docs/sampling.md): the published sampling method with
 * its suggestion table, each control's derived frequency and the test vector; and, per day, each
 * control's population then, its size and fingerprint: per kind of subjects its checks read, the
 * population its result names (`populations`, with the collection runs behind it); for a control
 * that reads none (attestations), the subjects its findings name.
 */
import { suggestedSampleSizes } from '@evident/contract';
import { controlFrequency } from '../assessment/control-frequency.js';
import type { Catalog, Report } from '../assessment/model.js';
import { populationFingerprint, samplingTestVector } from '../assessment/sampling.js';
import { csvOf } from '../reports/control-history-csv.js';

export const samplingMethodPath = 'sampling/method.json';
export const populationsPath = (date: string) => `sampling/populations/${date}.csv`;

/** The method as an auditor reads it, with the worked example to check a re-derivation against. */
export function samplingMethod(catalog: Catalog) {
  return {
    method: 'sha256-rank/1',
    description:
      'Rank each candidate id by the SHA-256 of the seed, a line feed and the id (UTF-8), as lowercase hex, ' +
      'ascending; the sample of size n is the first n. For a control tested daily the ids are the days with a ' +
      'report, YYYY-MM-DD.',
    population:
      'A control on a day, per kind of subjects its checks read: the subjects they ran on (the report\u2019s ' +
      '"populations"); for a control that reads no such kind, the distinct subjects its findings name. sha256 is ' +
      'the SHA-256 of those ids sorted by their UTF-8 bytes, each followed by a line feed (LC_ALL=C sort -u | sha256sum).',
    suggestedSampleSizes,
    suggestedSizesSource:
      'The frequency table for tests of controls after the AICPA Audit Guide "Audit Sampling": guidance, not a rule.',
    frequencies: Object.fromEntries(catalog.controls.map((control) => [control.id, controlFrequency(control)])),
    testVector: samplingTestVector,
  };
}

/**
 * Each control of one day's report, a row per kind of its population: how many subjects, their
 * fingerprint, and the complete collection runs behind it (`source run-id` pairs, `;`-separated).
 */
export function populationsCsv(report: Report): string {
  const rows = report.controls.flatMap((result) => {
    if (result.populations && result.populations.length > 0) {
      return result.populations.map((used) => [
        result.id,
        used.kind,
        String(used.count),
        used.sha256,
        used.runs.map((run) => `${run.source} ${run.runId}`).join('; '),
      ]);
    }
    const subjects = result.findings.flatMap((finding) => (finding.subject === undefined ? [] : [finding.subject]));
    const { count, sha256 } = populationFingerprint(subjects);
    return [[result.id, '', String(count), sha256, '']];
  });
  return csvOf([['control', 'kind', 'population', 'sha256', 'runs'], ...rows]);
}
