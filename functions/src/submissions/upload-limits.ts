/**
 * Limits on submission uploads, declared once: the handler enforces them and the OpenAPI
 * description documents them. Import-free, so the spec build can load it from source.
 */
export const uploadLimits = {
  maxFiles: 5,
  maxFileBytes: 10 * 1024 * 1024,
  mediaTypes: ['application/pdf', 'image/png', 'image/jpeg', 'text/plain', 'text/csv', 'text/markdown', 'application/json'],
} as const;
