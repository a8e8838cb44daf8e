/**
 * How deeply a parsed JSON value nests, measured without recursion: the request core and the
 * evidence limits both measure before anything that recurses (validation, serialising, hashing)
 * touches the value, so a deeply nested body cannot overflow the stack.
 */

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
