/**
 * The evaluation benchmark: the real engine (compiled `functions/lib`) evaluating a catalog of
 * 500 controls — the starter catalog’s 63 controls repeated with their own ids, so 500 sets of
 * CEL programs are planned — over synthetic evidence of every kind.
 *
 * Evidence is a realistic history: each subject reports once a day for 30 days, so 100,000
 * items are about 3,300 subjects of which the newest item counts. The smaller run keeps the
 * same history depth and has a tenth of the subjects, so it measures how cost grows with data.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { Catalog, Control, EvidenceItem } from '../../functions/src/assessment/model.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { paths } from '../lib/paths.ts';
import { median } from './median.ts';

const historyDays = 30;
const asOf = new Date('2026-11-21T06:00:00Z');

/** A deterministic pseudo-random sequence, so every run evaluates the same evidence. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The kind's example with one in ten booleans flipped and numbers jittered, so checks fail sometimes. */
function vary(example: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(example)) {
    if (typeof value === 'boolean') data[key] = next() < 0.1 ? !value : value;
    else if (typeof value === 'number') data[key] = Math.round(value * (0.5 + next()));
    else data[key] = value;
  }
  return data;
}

export function syntheticEvidence(count: number): EvidenceItem[] {
  const kinds = Object.entries(evidenceKinds).filter(([kind]) => kind !== 'attestation');
  const subjectsPerKind = Math.ceil(count / historyDays / kinds.length);
  const next = random(count);
  const items: EvidenceItem[] = [];
  for (let day = 0; day < historyDays && items.length < count; day++) {
    const collectedAt = new Date(asOf.getTime() - (historyDays - day) * 86_400_000).toISOString();
    for (const [kind, { example }] of kinds) {
      for (let subject = 0; subject < subjectsPerKind && items.length < count; subject++) {
        items.push({
          id: `b-${kind}-${subject}-${day}`,
          kind: kind as EvidenceItem['kind'],
          source: 'bench',
          subject: `${kind}-subject-${subject}`,
          collectedAt,
          receivedAt: collectedAt,
          data: vary(example, next),
          attachments: [],
        });
      }
    }
  }
  return items;
}

export async function benchCatalog(size: number): Promise<Catalog> {
  const real = JSON.parse(await readFile(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog;
  const controls: Control[] = Array.from({ length: size }, (_, n) => {
    const source = real.controls[n % real.controls.length]!;
    return { ...source, id: `BEN-${String(n + 1).padStart(3, '0')}` };
  });
  return { version: `bench-${size}`, controls, frameworks: real.frameworks, dueDays: real.dueDays };
}

/** Median milliseconds of evaluating the catalog over the evidence, compiling the catalog each run as a run does. */
export async function timeEvaluation(catalog: Catalog, evidence: EvidenceItem[], runs: number): Promise<number> {
  const { compileCatalog, evaluate } = (await import(
    pathToFileURL(join(paths.functionsLib, 'assessment', 'evaluate.js')).href
  )) as typeof EvaluateModule;
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    evaluate(compileCatalog(catalog), {
      date: '2026-11-21',
      timeZone: 'UTC',
      asOf,
      generatedAt: asOf,
      runId: 'bench',
      evidence,
      previous: null,
    });
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The baseline: parsing the same evidence from JSON, the least any evaluation of it must do first. */
export function timeParse(evidence: EvidenceItem[]): number {
  const text = JSON.stringify(evidence);
  const started = performance.now();
  JSON.parse(text);
  return performance.now() - started;
}
