/**
 * Limits on submission uploads, declared once: the handler enforces them and the OpenAPI
 * description documents them. Import-free, so the spec build can load it from source.
 */
export const uploadLimits = {
  maxFiles: 5,
  maxFileBytes: 10 * 1024 * 1024,
  mediaTypes: ['application/pdf', 'image/png', 'image/jpeg', 'text/plain', 'text/csv', 'text/markdown', 'application/json'],
} as const;

/**
 * How much of a submission form is read at all (`x-form-limits`): text fields, files, parts of
 * any kind (those naming no field included) and the bytes of one text field. The form is
 * refused as soon as it passes one, before anything is validated, so 60,000 repeated fields
 * cost what the first 64 do. Each is above what a valid form holds (50 controls and five other
 * fields, five files; the build checks it), so a form just past a schema limit still gets the
 * answer that names that limit: a 51st control a 400, a sixth file 413 `attachment_too_large`.
 */
export const formLimits = {
  fields: 64,
  files: 8,
  parts: 72,
  /** The 4,000-character statement, at up to four bytes a character. */
  fieldBytes: 16 * 1024,
} as const;
