/**
 * The catalog of stable problem codes every Evident endpoint may answer with, and that a failed
 * analysis run reports in its `run.failed` event.
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
  evidence_not_found: {
    status: 404,
    title: 'Evidence not found',
    description: 'No evidence item has this id. `GET /api/evidence` lists the items.',
  },
  control_not_found: {
    status: 404,
    title: 'Control not found',
    description: 'No control in the catalog has this id. `GET /api/controls` lists them.',
  },
  framework_not_found: {
    status: 404,
    title: 'Framework not found',
    description: 'Evident assesses no framework with this id. `GET /api/frameworks` lists the ones it does.',
  },
  settings_version_not_found: {
    status: 404,
    title: 'Settings version not found',
    description: 'No saved version of the settings has this number. `GET /api/settings/versions` lists them.',
  },
  exception_not_found: {
    status: 404,
    title: 'Exception not found',
    description: 'No exception has this id. `GET /api/exceptions?state=all` lists them all.',
  },
  report_not_found: {
    status: 404,
    title: 'Report not found',
    description:
      'There is no report for this date: it is in the future, or before the first report, or the daily job did not run ' +
      'that day. `GET /api/report` lists the dates that have one.',
  },
  analysis_not_found: {
    status: 404,
    title: 'Analysis not found',
    description: 'No analysis run has this id. `GET /api/analyses` lists recent runs.',
  },
  chat_message_not_found: {
    status: 404,
    title: 'Chat answer not found',
    description: 'No answer stream has this id. Answers are kept for resuming their stream; ask the question again.',
  },
  submission_not_found: {
    status: 404,
    title: 'Submission not found',
    description: 'No submission (or no attachment at that index) has this id. `GET /api/submissions` lists them.',
  },
  connector_not_found: {
    status: 404,
    title: 'Connector not found',
    description: 'No built-in connector has this id. `GET /api/connectors` lists them.',
  },
  audit_package_not_found: {
    status: 404,
    title: 'Audit package not found',
    description: 'No audit package has this id, or it lapsed and was deleted. `GET /api/audit/packages` lists them.',
  },
  audit_package_not_ready: {
    status: 409,
    title: 'Audit package not ready',
    description: 'The package is still being built, or its build failed; follow its events, or ask for it again.',
  },
  range_not_satisfiable: {
    status: 416,
    title: 'Range not satisfiable',
    description: 'The `Range` asked for does not lie within the file; `Content-Range` gives its size.',
  },
  connector_run_not_found: {
    status: 404,
    title: 'Connector run not found',
    description: 'The connector has no run with this id. `GET /api/runs?source=<its source>` lists its runs.',
  },
  run_not_found: {
    status: 404,
    title: 'Collection run not found',
    description: 'No collection run has this id. `GET /api/runs?source=<source>` lists the runs of a source.',
  },
  drop_not_found: {
    status: 404,
    title: 'Population drop not found',
    description:
      'The collection run has no population drop of this kind: it was not complete, or its population of the kind ' +
      'did not shrink by more than `POPULATION_DROP_PERCENT`. `GET /api/runs/{id}` shows its `drops`.',
  },
  population_not_found: {
    status: 404,
    title: 'Population not found',
    description:
      'The day\u2019s report records no population of this evidence kind for the control: its checks read no such kind, ' +
      'or the report was made before reports recorded populations. `GET /api/controls/{id}` shows the kinds in ' +
      '`result.populations`.',
  },
  audit_request_not_found: {
    status: 404,
    title: 'Audit request not found',
    description: 'No request of the auditor\u2019s request list has this id. `GET /api/requests` lists them.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not with this method. The `Allow` header lists the methods it accepts.',
  },
  exception_revoked: {
    status: 409,
    title: 'Exception already revoked',
    description: 'The exception was revoked before; an exception is revoked once. `revoked` says when and by whom.',
  },
  exception_not_pending: {
    status: 409,
    title: 'Exception not awaiting review',
    description:
      'The exception awaits no approval or refusal: it was approved or refused already (when two people review it ' +
      'at once, one of them wins), revoked, or its expiry day has come. `detail` says which, when and by whom. ' +
      '`GET /api/exceptions/{id}` shows it as it stands.',
  },
  self_review: {
    status: 403,
    title: 'Reviewing one\u2019s own request',
    description:
      'An exception is approved or refused by someone other than the person who requested it, and a submission is ' +
      'accepted or rejected by someone other than its submitter; the caller requested this exception or made this ' +
      'submission. Ask another person to review it.',
  },
  submission_already_reviewed: {
    status: 409,
    title: 'Submission already reviewed',
    description:
      'The submission was accepted or rejected before; a review is final (when two people review it at once, one of ' +
      'them wins). `detail` says which, when and by whom. A rejected submission is made again as a new one.',
  },
  webhook_not_found: {
    status: 404,
    title: 'Webhook not found',
    description: 'No webhook subscription has this id; it may have been deleted. `GET /api/webhooks` lists them.',
  },
  delivery_not_found: {
    status: 404,
    title: 'Delivery not found',
    description: 'The webhook has no delivery with this id. `GET /api/webhooks/{id}/deliveries` lists its deliveries.',
  },
  webhook_target_refused: {
    status: 422,
    title: 'Webhook target refused',
    description:
      'The URL is not one Evident sends to: it must be https, and neither be nor resolve to a private, loopback, ' +
      'link-local or cloud metadata address. `detail` says which rule it broke; of a name refused for what it ' +
      'resolves to, it says only that the target is not allowed.',
  },
  too_many_exceptions: {
    status: 409,
    title: 'Too many active exceptions',
    description:
      'The control already has as many exceptions requested or active for this subject (or for the whole control) as ' +
      'it may have: the limit `POST /api/exceptions` states, given in `detail`. The same request succeeds once one of ' +
      'them is refused, revoked (a request may be) or has expired.',
  },
  too_many_webhooks: {
    status: 409,
    title: 'Too many webhooks',
    description: 'The deployment already has as many webhook subscriptions as it keeps; delete one first.',
  },
  webhook_rate_limited: {
    status: 429,
    title: 'Too many pings and redeliveries',
    description:
      'This subscription had as many test pings and redeliveries as one window allows (30 in 10 minutes, counted ' +
      'together). Send the next after `Retry-After` seconds.',
  },
  evidence_conflict: {
    status: 409,
    title: 'Evidence conflict',
    description:
      'An evidence item with this id already exists with different content. Evidence is append-only: send the ' +
      'correction as a new item with a new id.',
  },
  idempotency_key_reused: {
    status: 409,
    title: 'Idempotency key reused',
    description: 'This `Idempotency-Key` was used before for a different request body. Use a new key for a new request.',
  },
  attachment_tampered: {
    status: 409,
    title: 'Attachment integrity check failed',
    description:
      'The stored file no longer has the SHA-256 recorded when it was uploaded, so it was not served. Report it: the ' +
      'evidence may have been altered in storage.',
  },
  analysis_ended: {
    status: 409,
    title: 'Analysis already ended',
    description:
      'The run finished (or evaluated its last control and is publishing) before it could be cancelled. ' +
      '`GET /api/analyses/{id}` gives its outcome.',
  },
  report_immutable: {
    status: 409,
    title: 'Past reports are immutable',
    description:
      "Only today's report can be republished by an analysis; a past day's report never changes. Run the analysis " +
      'without `publish`, or for today.',
  },
  settings_changed: {
    status: 409,
    title: 'Settings changed meanwhile',
    description:
      'Someone saved a newer version of the settings than the one this change was based on (`basedOn`). Nothing ' +
      'was stored and nothing of theirs was lost: read the settings again (`GET /api/settings`), apply the change to ' +
      'the new version and save it with that version as `basedOn`.',
  },
  connector_not_ready: {
    status: 409,
    title: 'Connector not ready',
    description:
      'The connector cannot run yet: the deployment does not enable it (`CONNECTORS`), or a setting it needs is not ' +
      'saved. `detail` says what is missing, as `needs` in `GET /api/connectors/{connector}` does.',
  },
  connector_busy: {
    status: 409,
    title: 'Connector already running',
    description:
      'A run of this connector is still queued or running; `detail` names it. Follow it, or cancel it and start again.',
  },
  run_ended: {
    status: 409,
    title: 'Collection run ended',
    description:
      'The collection run was completed or cancelled, or was not completed before its `expiresAt` (it reads as ' +
      'abandoned), so it takes no more batches and cannot be completed or cancelled again. `detail` says which; ' +
      '`GET /api/runs/{id}` shows the run. Open a new run.',
  },
  drop_acknowledged: {
    status: 409,
    title: 'Population drop already acknowledged',
    description:
      'Someone acknowledged this population drop already; an acknowledgement is written once and never replaced. ' +
      '`GET /api/runs/{id}` shows who, when and why.',
  },
  run_full: {
    status: 409,
    title: 'Collection run full',
    description:
      'The batch would take the collection run past the items or batches one run may receive (`detail` gives the ' +
      'limit). Nothing was stored. Send fewer, larger batches, or split the collection into runs of its kinds.',
  },
  audit_request_changed: {
    status: 409,
    title: 'Audit request changed meanwhile',
    description:
      'Someone changed the request after the version this change was based on (`basedOn`), or at the same moment. ' +
      'Nothing was stored and nothing of theirs was lost: read the request again (`GET /api/requests/{id}`), and ' +
      'apply the change to its current `version`.',
  },
  audit_request_status: {
    status: 409,
    title: 'Audit request not in a state for this',
    description:
      'Only an answered request is accepted or returned, only an accepted one is reopened, and an accepted one is ' +
      'neither edited nor answered until it is reopened. `detail` says the request\u2019s status.',
  },
  audit_request_limit: {
    status: 409,
    title: 'Audit request list full',
    description:
      'The change would take the request list past the requests it holds, a request past the answers it takes, or ' +
      'the steps it records; `detail` names the limit. Nothing was stored.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'The request body is larger than this operation accepts; the limit is given in `detail`.',
  },
  evidence_too_large: {
    status: 413,
    title: 'Evidence item too large',
    description:
      "An evidence item's `data` is larger than the limit for one item (given in `detail`). Split the observation into " +
      'several items, or submit the bulk as an attachment.',
  },
  scan_too_large: {
    status: 413,
    title: 'Scan too large for one import',
    description:
      "A scanner's file would make more evidence than one import stores: too many findings, too many evidence items " +
      '(one per finding and resource) or too many bytes of them; `detail` names the limit. Nothing was stored. Split ' +
      'the file, or send it with the collector (`npm run collect -- --format ocsf`), which streams it in batches.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body has a `Content-Type` this operation does not accept; `detail` names the ones it does.',
  },
  attachment_too_large: {
    status: 413,
    title: 'Attachments too large or too many',
    description: 'A file is larger than the per-file limit, or there are more files than allowed; `detail` says which.',
  },
  too_many_form_parts: {
    status: 413,
    title: 'Too many form parts',
    description:
      'A `multipart/form-data` body has more text fields, files or parts in all than the operation reads (its ' +
      'description gives the limits, `detail` the one passed). The form was refused as it was read, before any of it ' +
      'was checked. Send each value once, and no more values than the schema allows.',
  },
  attachment_type_not_allowed: {
    status: 415,
    title: 'Attachment type not allowed',
    description:
      "A file's media type is not on the allowed list, or its content does not match the type it claims; `detail` names " +
      'the file and the allowed types.',
  },
  queue_unavailable: {
    status: 503,
    title: 'Task queue unavailable',
    description:
      'The run was recorded but could not be handed to the task queue. Retry the same request with the same ' +
      '`Idempotency-Key` after `Retry-After` seconds; the run is queued again, not duplicated.',
  },
  evidence_in_flight: {
    status: 503,
    title: 'Evidence being stored',
    description:
      'Another request is storing some of the same evidence items right now and has not finished. Send the same ' +
      'request again after `Retry-After` seconds: items already stored are reported as `existing`, nothing twice.',
  },
  auth_unavailable: {
    status: 503,
    title: 'Token verification unavailable',
    description:
      "The server cannot verify ID tokens right now (it cannot reach the identity provider's signing keys); the " +
      'token may well be valid. Send the same request again after `Retry-After` seconds. Do not sign in again: it ' +
      'cannot help.',
  },
  worker_lost: {
    status: 500,
    title: 'Analysis abandoned',
    description:
      'Never an HTTP answer: the `problem` of a `run.failed` event. The run had no new event for 30 minutes, so no ' +
      'worker took it or its worker stopped without finishing; it was ended the next time it was read so its ' +
      'followers stop waiting. Nothing was published. Start a new analysis.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    description:
      'Something failed on the server. Nothing about the cause is disclosed; quote `requestId` when reporting it. As ' +
      'the `problem` of a `run.failed` event: every attempt of the run failed, and the server logs have the cause.',
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof problemCatalog;

/** Where a problem's `type` points: the generated errors page, one anchor per code. */
export const problemTypeBase = '/docs/reference-errors#';
