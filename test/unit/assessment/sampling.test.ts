/**
 * The published sampling method: the documented test vector re-derived here and in a separate
 * Node process that uses only `node:crypto` (so the order does not hang on this module or this
 * process), samples as prefixes of one order, the population fingerprint `sort | sha256sum`
 * gives, and the frequency each kind of control is sampled as.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { suggestedSampleSizes } from '@evident/contract';
import { controlFrequency, suggestedSampleSize } from '../../../functions/src/assessment/control-frequency.ts';
import {
  populationFingerprint,
  rankAll,
  rankDigest,
  sampleOf,
  samplingTestVector as vector,
} from '../../../functions/src/assessment/sampling.ts';

describe('the sampling method', () => {
  it('ranks the test vector as documented', () => {
    expect(rankAll(vector.seed, vector.ids)).toEqual(vector.ranked);
    expect(sampleOf(vector.seed, vector.ids, vector.size).map((day) => day.id)).toEqual(vector.sample);
  });

  it('gives the test vector in another process that only has node:crypto', () => {
    const script = `
      const { createHash } = require('node:crypto');
      const [seed, ...ids] = JSON.parse(process.argv[1]);
      const ranked = ids
        .map((id) => ({ id, digest: createHash('sha256').update(seed + '\\n' + id).digest('hex') }))
        .sort((a, b) => (a.digest < b.digest ? -1 : 1));
      process.stdout.write(JSON.stringify(ranked));
    `;
    const output = execFileSync(process.execPath, ['-e', script, JSON.stringify([vector.seed, ...vector.ids])], {
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual(vector.ranked.map(({ id, digest }) => ({ id, digest })));
  });

  it('is written out in docs/sampling.md, digest for digest', () => {
    const docs = readFileSync(new URL('../../../docs/sampling.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`${vector.seed}\``);
    // A row of its table, however the formatter pads the cells.
    for (const { rank, id, digest } of vector.ranked)
      expect(docs).toMatch(new RegExp(`\\| ${rank} +\\| ${id} \\| \`${digest}\` \\|`));
  });

  it('hashes the seed, a line feed and the id as UTF-8', () => {
    expect(rankDigest('ü', 'x')).toBe('62d43cb6be61bd43251e1c7f9b3fcfc881a8326c0bda297bd226b76a5c9eff83');
  });

  it('takes every id once and a smaller sample as a prefix of a larger one', () => {
    const ids = Array.from({ length: 50 }, (_, index) => `day-${index}`);
    const all = rankAll('seed', [...ids, ...ids]);
    expect(all).toHaveLength(50);
    expect(all.map((ranked) => ranked.rank)).toEqual(ids.map((_, index) => index + 1));
    expect(sampleOf('seed', ids, 7)).toEqual(all.slice(0, 7));
    expect(sampleOf('seed', ids, 60)).toEqual(all);
    expect(sampleOf('another seed', ids, 7)).not.toEqual(all.slice(0, 7));
  });

  it('fingerprints a population as LC_ALL=C sort -u | sha256sum does', () => {
    // printf 'b\na\nä\n' | LC_ALL=C sort -u | sha256sum
    expect(populationFingerprint(['b', 'ä', 'a', 'b'])).toEqual({
      count: 3,
      sha256: 'e99cdc3a7d17049ff10777752171e1cfd360390f8ba7a09ad149a86c4a622343',
    });
    expect(populationFingerprint([])).toEqual({
      count: 0,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
  });
});

describe('how often a control operates', () => {
  const control = (freshness: number[], checks = 0, scannerChecks = 0) => ({
    checks: Array.from({ length: checks }, () => ({}) as never),
    scanner: { frameworks: [], checks: Array.from({ length: scannerChecks }, () => ({}) as never), freshnessDays: 7 },
    evidence: freshness.map((freshnessDays) => ({ kind: 'attestation' as const, freshnessDays })),
  });

  it.each([
    [control([30], 1), 'daily'],
    [control([], 0, 2), 'daily'],
    [control([1]), 'daily'],
    [control([7]), 'weekly'],
    [control([31, 365]), 'monthly'],
    [control([90]), 'quarterly'],
    [control([180]), 'quarterly'],
    [control([365]), 'annual'],
    [control([]), 'annual'],
  ] as const)('derives it from checks and freshness windows (%#)', (given, frequency) => {
    expect(controlFrequency(given)).toBe(frequency);
  });

  it('suggests the upper end of its range', () => {
    expect(suggestedSampleSize(control([30], 1))).toEqual({ frequency: 'daily', range: suggestedSampleSizes.daily, size: 40 });
    expect(suggestedSampleSize(control([365])).size).toBe(1);
  });
});
