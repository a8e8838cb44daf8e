// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.

/** The API version this server implements: the OpenAPI description's `info.version`. */
export const apiVersion = '1.22.0';
