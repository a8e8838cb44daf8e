/**
 * Whether one evidence item's `data` keeps to its limits (`@evident/contract`: `maxDataBytes`,
 * `maxDataDepth`, published in the API description).
 */
import { depthOf } from '../common/json-depth.js';
import { maxDataBytes, maxDataDepth } from '@evident/contract';

export type LimitBreach = { limit: 'depth'; depth: number } | { limit: 'size'; bytes: number };

/**
 * Whether a value breaks a limit. Depth is measured without recursion, before anything that
 * recurses (serialising, hashing) touches the value, so a deeply nested body cannot overflow
 * the stack.
 */
export function checkDataLimits(data: unknown): LimitBreach | undefined {
  const depth = depthOf(data, maxDataDepth);
  if (depth > maxDataDepth) return { limit: 'depth', depth };
  const bytes = Buffer.byteLength(JSON.stringify(data) ?? '');
  if (bytes > maxDataBytes) return { limit: 'size', bytes };
  return undefined;
}
