/**
 * The published sampling method (docs/sampling.md), so an auditor can re-derive a sample
 * without Evident: each candidate id is ranked by the SHA-256 of the seed, a line feed and the
 * id (UTF-8), written as lowercase hex; the ids are taken in ascending order of that digest,
 * and the first n are the sample. Distinct ids have distinct digests (a SHA-256 collision is
 * not known to exist), so the order never depends on anything but the seed and the ids.
 *
 * Also a population's fingerprint: its size and the SHA-256 of its sorted ids, one a line.
 */
import { createHash } from 'node:crypto';

/** One ranked candidate: its place in the order (1 first), its id and the digest that placed it. */
export interface Ranked {
  rank: number;
  id: string;
  digest: string;
}

export const sha256Of = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The digest that ranks `id` under `seed`: SHA-256 of `<seed>\n<id>`, lowercase hex. */
export const rankDigest = (seed: string, id: string): string => sha256Of(`${seed}\n${id}`);

/** Every distinct id in rank order: the sample of any size is a prefix of it. */
export function rankAll(seed: string, ids: Iterable<string>): Ranked[] {
  return [...new Set(ids)]
    .map((id) => ({ id, digest: rankDigest(seed, id) }))
    .sort((a, b) => (a.digest < b.digest ? -1 : 1))
    .map((candidate, index) => ({ rank: index + 1, ...candidate }));
}

/** The first `size` ids in rank order (all of them when there are fewer), with their digests. */
export const sampleOf = (seed: string, ids: Iterable<string>, size: number): Ranked[] => rankAll(seed, ids).slice(0, size);

/**
 * A population's size and fingerprint: the SHA-256 of its distinct ids sorted by their UTF-8
 * bytes, each followed by a line feed, as `LC_ALL=C sort -u ids.txt | sha256sum` gives it.
 */
export function populationFingerprint(ids: Iterable<string>): { count: number; sha256: string } {
  const sorted = [...new Set(ids)].map((id) => Buffer.from(id, 'utf8')).sort(Buffer.compare);
  const hash = createHash('sha256');
  for (const id of sorted) hash.update(id).update('\n');
  return { count: sorted.length, sha256: hash.digest('hex') };
}

/**
 * The worked example docs/sampling.md gives; a unit test re-derives it in this process and in
 * another that uses only `node:crypto`. Digests made with `printf 'audit-fy2026\n2026-01-0N' | sha256sum`.
 */
export const samplingTestVector = {
  seed: 'audit-fy2026',
  ids: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06'],
  size: 3,
  ranked: [
    { rank: 1, id: '2026-01-06', digest: '09dc051ed1e5be35e294d7b0bcb5276cf466df72f9416c70430c5853d4dcf9a6' },
    { rank: 2, id: '2026-01-02', digest: '7edb49f2305fc40be9fea9c8bdb0e4527ff81436681c5132e5913446678a568f' },
    { rank: 3, id: '2026-01-01', digest: '873c6643fbb2c085cb2118376c5a9f1300ea5c0e250bf5be40575375b0406434' },
    { rank: 4, id: '2026-01-05', digest: 'a8b66a9acc99d261b3c2e7cc40e6db455f1e2d158a572fa5038877784e15e9f9' },
    { rank: 5, id: '2026-01-04', digest: 'abcad63bbed981e56303dd57a0981a90019cb01a3ccfe7f21ca906a0763dc53e' },
    { rank: 6, id: '2026-01-03', digest: 'f20fc79d76b56248e5ddf28f55cbb448b9f64391da20b986ee8bfab230f22aaf' },
  ],
  sample: ['2026-01-06', '2026-01-02', '2026-01-01'],
} as const;
