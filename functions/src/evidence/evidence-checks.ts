/**
 * What ingest refuses before it touches storage: an item whose `data` breaks the size or depth
 * limits (evidence-limits.ts), and a request that names one id twice. Each refusal names every
 * item at fault by its JSON pointer in the request.
 */
import type { EvidenceInput, EvidenceItem } from '../assessment/model.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { checkDataLimits, maxDataBytes, maxDataDepth } from './evidence-limits.js';

export function checkDistinctIds(items: readonly EvidenceItem[], pointer: (index: number) => string): void {
  const errors: RequestError[] = [];
  const firstIndex = new Map<string, number>();
  items.forEach((item, index) => {
    const earlier = firstIndex.get(item.id);
    if (earlier === undefined) firstIndex.set(item.id, index);
    else errors.push({ in: 'body', pointer: `${pointer(index)}/id`, message: `repeats the id of ${pointer(earlier)}` });
  });
  if (errors.length > 0) throw invalidRequest(errors);
}

/** Refuses items whose `data` is too deep (400) or too large (413), naming each. */
export function checkLimits(inputs: readonly EvidenceInput[], pointer: (index: number) => string): void {
  const deep: RequestError[] = [];
  const large: string[] = [];
  inputs.forEach((input, index) => {
    const breach = checkDataLimits(input.data);
    if (breach?.limit === 'depth') {
      deep.push({ in: 'body', pointer: `${pointer(index)}/data`, message: `nests deeper than ${maxDataDepth} levels` });
    } else if (breach?.limit === 'size') {
      large.push(`${pointer(index)}/data is ${breach.bytes} bytes`);
    }
  });
  if (deep.length > 0) throw invalidRequest(deep);
  if (large.length > 0) {
    throw new ApiProblem(
      'evidence_too_large',
      `An evidence item's data may be at most ${maxDataBytes} bytes as JSON: ${large.slice(0, 5).join('; ')}` +
        `${large.length > 5 ? ` and ${large.length - 5} more` : ''}. Split it into several items or store the bulk as an attachment.`,
    );
  }
}
