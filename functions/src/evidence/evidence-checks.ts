/**
 * What ingest refuses before it touches storage: an item whose `data` breaks the size or depth
 * limits (evidence-limits.ts), and a request that names one id twice. Each refusal names every
 * item at fault by its index in the request (evidence-errors.ts).
 */
import type { EvidenceInput, EvidenceItem } from '../assessment/model.js';
import { EvidenceRejected, EvidenceTooLarge, type EvidenceIssue } from './evidence-errors.js';
import { maxDataBytes, maxDataDepth } from '@evident/contract';
import { checkDataLimits } from './evidence-limits.js';

export function checkDistinctIds(items: readonly EvidenceItem[]): void {
  const issues: EvidenceIssue[] = [];
  const firstIndex = new Map<string, number>();
  items.forEach((item, index) => {
    const earlier = firstIndex.get(item.id);
    if (earlier === undefined) firstIndex.set(item.id, index);
    else issues.push({ item: index, field: 'id', repeats: earlier });
  });
  if (issues.length > 0) throw new EvidenceRejected(issues);
}

/** Refuses items whose `data` is too deep (rejected) or too large, naming each. */
export function checkLimits(inputs: readonly EvidenceInput[]): void {
  const deep: EvidenceIssue[] = [];
  const large: { item: number; bytes: number }[] = [];
  inputs.forEach((input, index) => {
    const breach = checkDataLimits(input.data);
    if (breach?.limit === 'depth') deep.push({ item: index, field: 'data', maxDepth: maxDataDepth });
    else if (breach?.limit === 'size') large.push({ item: index, bytes: breach.bytes });
  });
  if (deep.length > 0) throw new EvidenceRejected(deep);
  if (large.length > 0) throw new EvidenceTooLarge(large, maxDataBytes);
}
