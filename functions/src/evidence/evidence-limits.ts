/**
 * How large one evidence item's `data` may be. An item is read by every listing page that shows
 * it and held by every evaluation while it is the newest for its subject, so one request must
 * not be able to make those reads heavy: `data` is at most 64 KiB as JSON and nests at most 32
 * levels. The limits are published in the API description (openapi/paths/evidence.ts).
 */
export const maxDataBytes = 64 * 1024;
export const maxDataDepth = 32;

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

/** Nesting depth of objects and arrays (a flat object is 1); stops counting once past `limit`. */
export function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
