/**
 * Shared pieces of the API description: the security scheme, the problem schema built from
 * the problem catalog, and helpers that give every operation the same response conventions.
 */
import type { HeaderObject, ReferenceObject, ResponseObject, SchemaObject, SecurityRequirementObject } from 'openapi3-ts/oas31';
import { problemCatalog, problemTypeBase, type ProblemCode } from '@evident/contract/problems';

export const bearerAuth = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'A Firebase ID token from the configured identity project (`IDP_PROJECT_ID`). Only checked when the ' +
    'server runs in protected mode (`AUTH_REQUIRED=true`); in public mode a valid token still identifies ' +
    'the caller and an invalid one is ignored.',
} as const;

/** Every code of the catalog: what a problem body, or a failed run's problem, may carry. */
export const problemCodes = Object.keys(problemCatalog) as ProblemCode[];

export const schemas: Record<string, SchemaObject> = {
  Problem: {
    type: 'object',
    description: 'An RFC 9457 problem detail. `code` is stable and safe to branch on; `title` and `detail` are for people.',
    required: ['type', 'title', 'status', 'code', 'requestId'],
    properties: {
      type: {
        type: 'string',
        format: 'uri-reference',
        description: 'Reference to the documentation of this problem code.',
        examples: [`${problemTypeBase}invalid_request`],
      },
      title: { type: 'string', description: 'Short summary of the problem code.' },
      status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code.' },
      detail: { type: 'string', description: 'What went wrong with this request.' },
      instance: { type: 'string', format: 'uri-reference', description: 'The path of the request.' },
      code: { type: 'string', enum: problemCodes, description: 'Stable machine-readable problem code.' },
      requestId: { type: 'string', description: 'Identifies the request in the server logs.' },
      errors: {
        type: 'array',
        description: 'For `invalid_request`: each way the request failed validation.',
        items: { $ref: '#/components/schemas/RequestError' },
      },
    },
  },
  Actor: {
    type: 'object',
    required: ['uid'],
    additionalProperties: false,
    description: 'Who did it, from their ID token; `uid` is `anonymous` in public mode without one.',
    properties: { uid: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
  },
  RequestError: {
    type: 'object',
    required: ['in', 'message'],
    additionalProperties: false,
    properties: {
      in: { type: 'string', enum: ['path', 'query', 'header', 'body'] },
      name: { type: 'string', description: 'The parameter, for path, query and header errors.' },
      pointer: { type: 'string', description: 'JSON Pointer into the body, for body errors.' },
      line: {
        type: 'integer',
        minimum: 1,
        description: 'For a body that is a file (an OCSF import): the line the value at fault starts on.',
      },
      message: { type: 'string' },
    },
  },
};

export const headers: Record<string, HeaderObject> = {
  ApiVersion: {
    description:
      "The version of the API that answered: `MAJOR.MINOR.PATCH`, this description's `info.version`. " +
      'A client pins the major version it was generated from (see /docs/api-versions).',
    schema: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
  },
  RequestId: {
    description: 'Identifies the request in the server logs; also in every problem body.',
    schema: { type: 'string' },
  },
  WwwAuthenticate: {
    description: 'The `Bearer` challenge (RFC 6750), with `error="invalid_token"` when a token was sent but rejected.',
    schema: { type: 'string' },
  },
};

/** The headers of a deprecated operation's answers; the description has them only while one is. */
export const deprecationHeaders: Record<string, HeaderObject> = {
  Deprecation: {
    description: 'On every answer of a deprecated operation (RFC 9745): `@` and the Unix time it was deprecated at.',
    schema: { type: 'string' },
  },
  Sunset: {
    description: 'On every answer of a deprecated operation once its removal is dated (RFC 8594): the day it may be gone.',
    schema: { type: 'string' },
  },
};

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

/** The codes each problem response can carry, kept beside the text that lists them. */
const codesOf = new WeakMap<ResponseObject, readonly ProblemCode[]>();

function problemResponse(description: string, codes: ProblemCode[], extraHeaders = {}): ResponseObject {
  const response = {
    description: `${description} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers: { ...requestIdHeader, ...extraHeaders },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  codesOf.set(response, codes);
  return response;
}

/** The problem codes the response component `name` lists; none for a name that is not one. */
export function problemCodesOf(name: string): readonly ProblemCode[] {
  const response = responses[name];
  return response ? (codesOf.get(response) ?? []) : [];
}

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };

export const responses: Record<string, ResponseObject> = {
  BadRequest: problemResponse('The request does not match the API description.', ['invalid_request', 'malformed_json']),
  Unauthorized: problemResponse(
    'Protected mode only: the bearer token is missing, invalid or expired.',
    ['unauthenticated', 'invalid_token', 'token_expired'],
    { 'WWW-Authenticate': { $ref: '#/components/headers/WwwAuthenticate' } },
  ),
  DocNotFound: problemResponse('No documentation page has this slug.', ['doc_not_found']),
  Conflict: problemResponse('The request conflicts with what is stored.', ['evidence_conflict', 'idempotency_key_reused']),
  PayloadTooLarge: problemResponse('The body or one of its files is too large.', ['payload_too_large', 'attachment_too_large']),
  FormTooLarge: problemResponse('The body, one of its files, or its count of fields, files or parts is too large.', [
    'payload_too_large',
    'attachment_too_large',
    'too_many_form_parts',
  ]),
  EvidenceTooLarge: problemResponse('The body, or the data of one of its items, is too large.', [
    'payload_too_large',
    'evidence_too_large',
  ]),
  ScanTooLarge: problemResponse('The body is too large, or the file makes more evidence than one import stores.', [
    'payload_too_large',
    'scan_too_large',
  ]),
  UnsupportedMediaType: problemResponse('The body or one of its files has a type that is not accepted.', [
    'unsupported_media_type',
    'attachment_type_not_allowed',
  ]),
  EvidenceNotFound: problemResponse('No evidence item has this id.', ['evidence_not_found']),
  ControlNotFound: problemResponse('No control has this id.', ['control_not_found']),
  ExceptionNotFound: problemResponse('No exception has this id.', ['exception_not_found']),
  ExceptionRevoked: problemResponse('The exception is already revoked.', ['exception_revoked']),
  ExceptionNotPending: problemResponse('The exception awaits no review.', ['exception_not_pending']),
  SelfReview: problemResponse('The caller requested this exception, or made this submission, and may not review it.', [
    'self_review',
  ]),
  TooManyExceptions: problemResponse('The subject has as many requested or active exceptions of the control as it may have.', [
    'too_many_exceptions',
  ]),
  AuditRequestNotFound: problemResponse('No request of the list has this id.', ['audit_request_not_found']),
  AuditRequestConflict: problemResponse(
    'The request changed meanwhile, is not in a state for this step, or would pass a bound of the list.',
    ['audit_request_changed', 'audit_request_status', 'audit_request_limit'],
  ),
  AuditRequestListFull: problemResponse('The list would pass the requests it holds, or an id was taken meanwhile.', [
    'audit_request_limit',
    'audit_request_changed',
  ]),
  SettingsChanged: problemResponse('A newer version of the settings was saved meanwhile.', ['settings_changed']),
  SettingsVersionNotFound: problemResponse('No saved version of the settings has this number.', ['settings_version_not_found']),
  ReportNotFound: problemResponse('There is no report for this date.', ['report_not_found']),
  NoReportInPeriod: problemResponse('No day of the period has a report.', ['report_not_found']),
  PopulationNotFound: problemResponse('No such control, no report for this date, or no population of this kind in it.', [
    'control_not_found',
    'report_not_found',
    'population_not_found',
  ]),
  FrameworkOrReportNotFound: problemResponse('No such framework, or no report for this date.', [
    'framework_not_found',
    'report_not_found',
  ]),
  AnalysisConflict: problemResponse('The run cannot do what was asked in its current state.', [
    'analysis_ended',
    'report_immutable',
    'idempotency_key_reused',
  ]),
  WebhookNotFound: problemResponse('No webhook subscription has this id.', ['webhook_not_found']),
  WebhookOrDeliveryNotFound: problemResponse('No such webhook subscription, or no such delivery of it.', [
    'webhook_not_found',
    'delivery_not_found',
  ]),
  WebhookRefused: problemResponse('The URL is not one Evident sends to; `detail` says why.', ['webhook_target_refused']),
  TooManyWebhooks: problemResponse('The deployment keeps no more subscriptions.', ['too_many_webhooks']),
  WebhookRateLimited: problemResponse(
    'This subscription had as many pings and redeliveries as the window allows; send the next after `Retry-After` seconds.',
    ['webhook_rate_limited'],
    retryAfter,
  ),
  QueueUnavailable: problemResponse(
    'The task queue could not take the work (a run, a delivery), or (protected mode) ID tokens cannot be verified right now; ' +
      'retry after `Retry-After` seconds, with the same Idempotency-Key.',
    ['queue_unavailable', 'auth_unavailable'],
    retryAfter,
  ),
  EvidenceInFlight: problemResponse(
    'Another request is storing some of the same items, or (protected mode) ID tokens cannot be verified ' +
      'right now; send this one again after `Retry-After` seconds.',
    ['evidence_in_flight', 'auth_unavailable'],
    retryAfter,
  ),
  AuthUnavailable: problemResponse(
    'Protected mode: ID tokens cannot be verified right now (the signing keys are out of reach); the token may ' +
      'well be valid. Retry after `Retry-After` seconds; signing in again cannot help.',
    ['auth_unavailable'],
    retryAfter,
  ),
  ChatMessageNotFound: problemResponse('No answer stream has this id.', ['chat_message_not_found']),
  AnalysisNotFound: problemResponse('No analysis run has this id.', ['analysis_not_found']),
  RunNotFound: problemResponse('No collection run has this id.', ['run_not_found']),
  DropNotFound: problemResponse('No collection run has this id, or it has no population drop of this kind.', [
    'run_not_found',
    'drop_not_found',
  ]),
  DropAcknowledged: problemResponse('The population drop was acknowledged already.', ['drop_acknowledged']),
  AuditPackageNotFound: problemResponse('No audit package has this id (or it lapsed).', ['audit_package_not_found']),
  AuditPackageNotReady: problemResponse('The package is still being built, or its build failed.', ['audit_package_not_ready']),
  RangeNotSatisfiable: problemResponse('The range lies outside the file.', ['range_not_satisfiable'], {
    'Content-Range': { description: '`bytes */<size>`: the file\u2019s size.', schema: { type: 'string' } },
  }),
  ConnectorNotFound: problemResponse('No built-in connector has this id.', ['connector_not_found']),
  ConnectorRunNotFound: problemResponse('No such connector, or no run of it has this id.', [
    'connector_not_found',
    'connector_run_not_found',
  ]),
  ConnectorConflict: problemResponse('The connector cannot start a run now.', ['connector_not_ready', 'connector_busy']),
  RunEnded: problemResponse('The collection run was completed or cancelled, or expired unfinished.', ['run_ended']),
  RunConflict: problemResponse('The request conflicts with what is stored, or its run takes no more batches.', [
    'evidence_conflict',
    'idempotency_key_reused',
    'run_ended',
    'run_full',
  ]),
  SubmissionNotFound: problemResponse('No such submission or attachment.', ['submission_not_found']),
  SubmissionReviewed: problemResponse('The submission was reviewed already.', ['submission_already_reviewed']),
  AttachmentTampered: problemResponse('The stored file fails its integrity check and was not served.', ['attachment_tampered']),
  InternalError: problemResponse('The server failed; nothing about the cause is disclosed.', ['internal']),
};

/** A JSON success response with the usual headers. */
export function jsonResponse(
  description: string,
  schema: SchemaObject | ReferenceObject,
  extraHeaders: Record<string, HeaderObject | ReferenceObject> = {},
): ResponseObject {
  return {
    description,
    headers: { ...requestIdHeader, ...extraHeaders },
    content: { 'application/json': { schema } },
  };
}

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * One event of a resumable stream: its number, its type, and its data; `timed` events also say
 * when they were persisted. Every streaming operation describes its events with this.
 */
export function streamEvent(type: string, description: string, data: SchemaObject | ReferenceObject, { timed = false } = {}) {
  return {
    type: 'object',
    description,
    required: ['id', 'type', ...(timed ? ['time'] : []), 'data'],
    additionalProperties: false,
    properties: {
      id: { type: 'integer', minimum: 1, description: 'The event\u2019s number in its stream: 1, 2, 3\u2026 without gaps.' },
      type: { const: type },
      ...(timed ? { time: { type: 'string', format: 'date-time', description: 'When the event was persisted.' } } : {}),
      data,
    },
  } as const;
}

/** Where a listing continues: every listing pages with the opaque cursor of the page before. */
export const cursorParameter = {
  name: 'cursor',
  in: 'query',
  required: false,
  description:
    'The previous page\u2019s `nextCursor`, exactly as given. Anything else \u2014 made up, altered, or another ' +
    'listing\u2019s \u2014 answers 400 `invalid_request`.',
  schema: { type: 'string', maxLength: 500 },
} as const;

/** Where a resumed stream picks up: every streaming operation takes both, the header winning. */
export const resumeParameters = [
  {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'The id of the last event received; only later events are sent.',
    schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,8})$' },
  },
  {
    name: 'lastEventId',
    in: 'query',
    required: false,
    description: 'The same, for clients that cannot set the header; the header wins when both are sent.',
    schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,8})$' },
  },
] as const;

/**
 * A `text/event-stream` body: text whose `data:` lines each hold one event of the named schema
 * as JSON (OpenAPI 3.1 has no way to say "a stream of these"; `contentSchema` says it of the text).
 */
export const eventStreamOf = (event: string): SchemaObject & { contentSchema: ReferenceObject } => ({
  type: 'string',
  description: `Server-sent events; each \`data:\` line is one \`${event}\` as JSON, and each \`id:\` is its \`id\`.`,
  contentMediaType: 'text/event-stream',
  contentSchema: ref(event),
});
export const responseRef = (name: string): ReferenceObject => ({ $ref: `#/components/responses/${name}` });

/** Security requirements, named for what they mean to a caller. */
export const access: Record<'public' | 'protected' | 'optional', SecurityRequirementObject[]> = {
  /** Never needs a token; any token sent is ignored. */
  public: [],
  /** Needs a valid token in protected mode; in public mode a valid token identifies the caller. */
  protected: [{ bearerAuth: [] }],
  /** Never rejected for its token by the core; the handler decides (a gated docs page). */
  optional: [{}, { bearerAuth: [] }],
};
