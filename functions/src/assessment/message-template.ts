/**
 * A check's pass and fail messages are templates filled from the evidence. Apart from the CEL
 * engine (checks.ts), so what only renders a message (a population's reconciliation, read when a
 * collection run completes) does not load the engine.
 */

/** Fills `{{subject}}`, `{{count}}` and `{{data.field}}` in a message template. */
export function renderMessage(template: string, values: { subject?: string; count?: number; data?: unknown }): string {
  return template.replace(/\{\{\s*([a-zA-Z0-9_.]+)\s*\}\}/g, (whole, path: string) => {
    // Own properties only: `{{constructor}}` must not reach into the prototype chain.
    const own = (value: unknown, key: string): unknown =>
      value && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    let value: unknown = values;
    for (const key of path.split('.')) value = own(value, key);
    return value === undefined || value === null || typeof value === 'object' ? whole : String(value);
  });
}
