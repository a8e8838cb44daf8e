// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.

/** The operation ids of each route family (one Cloud Function each). */
export interface FamilyOperations {
  auth: 'getAuthConfig' | 'getCaller';
  docs: 'listDocs' | 'getDocPage';
  fallback: never;
}

export const families = ['auth', 'docs', 'fallback'] as const;
