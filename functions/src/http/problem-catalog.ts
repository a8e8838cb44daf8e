/**
 * The catalog of stable problem codes every Evident endpoint may answer with.
 *
 * It is the single place a code, its HTTP status and its title are declared: the HTTP core
 * reads it to build RFC 9457 bodies, and the OpenAPI build reads it to document the `code`
 * enum and the generated errors reference page. This file has no imports on purpose, so the
 * spec build (plain Node with type stripping) can load it straight from source.
 */

export interface ProblemDefinition {
  readonly status: number;
  readonly title: string;
  /** What the code means and what a client should do about it; shown in the reference docs. */
  readonly description: string;
}

export const problemCatalog = {
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    description:
      'A path, query or header parameter, or the request body, does not match the API description. ' +
      '`errors` lists every mismatch with where it was found. Fix the request; retrying it unchanged will fail again.',
  },
  malformed_json: {
    status: 400,
    title: 'Malformed JSON',
    description: 'The request body was declared as JSON but could not be parsed.',
  },
  unauthenticated: {
    status: 401,
    title: 'Authentication required',
    description:
      'The server runs in protected mode and this operation needs `Authorization: Bearer <ID token>`. ' +
      'Sign in and send the ID token.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid token',
    description:
      'The bearer token could not be verified: it is malformed, its signature does not check out, or it was ' +
      'issued for another project (audience or issuer). Obtain a fresh ID token from the configured project.',
  },
  token_expired: {
    status: 401,
    title: 'Token expired',
    description: 'The ID token has expired. Refresh it with the client SDK and retry.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'No operation exists at this path. See `/api/openapi.json` for the paths that do.',
  },
  doc_not_found: {
    status: 404,
    title: 'Documentation page not found',
    description: 'No documentation page has this slug. `GET /api/docs/index` lists the pages.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not with this method. The `Allow` header lists the methods it accepts.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'The request body is larger than this operation accepts; the limit is given in `detail`.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body has a `Content-Type` this operation does not accept; `detail` names the ones it does.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    description: 'Something failed on the server. Nothing about the cause is disclosed; quote `requestId` when reporting it.',
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof problemCatalog;

/** Where a problem's `type` points: the generated errors page, one anchor per code. */
export const problemTypeBase = '/docs/reference-errors#';
