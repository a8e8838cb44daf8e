/**
 * The audit package's `sampling/` files (docs/sampling.md): the published sampling method with
 * its suggestion table, each control's derived frequency and the test vector; and, per day, each
 * control's population then, its size and fingerprint. Until collection runs define populations,
 * a control's population on a day is the subjects its findings name; a finding over all items at
 * once names none, and reading the evidence behind each would multiply the package's reads.
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
      'A control on a day: the distinct subjects its findings that day name; sha256 is the SHA-256 of those ids ' +
      'sorted by their UTF-8 bytes, each followed by a line feed (LC_ALL=C sort -u | sha256sum).',
    suggestedSampleSizes,
    suggestedSizesSource:
      'The frequency table for tests of controls after the AICPA Audit Guide "Audit Sampling": guidance, not a rule.',
    frequencies: Object.fromEntries(catalog.controls.map((control) => [control.id, controlFrequency(control)])),
    testVector: samplingTestVector,
  };
}

/** Each control of one day's report: how many subjects its findings name, and their fingerprint. */
export function populationsCsv(report: Report): string {
  const rows = report.controls.map((result) => {
    const subjects = result.findings.flatMap((finding) => (finding.subject === undefined ? [] : [finding.subject]));
    const { count, sha256 } = populationFingerprint(subjects);
    return [result.id, String(count), sha256];
  });
  return csvOf([['control', 'population', 'sha256'], ...rows]);
}
