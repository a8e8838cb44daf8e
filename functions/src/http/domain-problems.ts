/**
 * The one place where the domain's errors become problems of the catalog: status, code, the
 * wording of `detail` and, for faults in the request body, the JSON pointer of each.
 *
 * Stores and engines throw errors that carry facts (which item, which limit, which run); they
 * know nothing of HTTP. `createFamily` maps whatever a handler throws through `problemFor`, so a
 * family only steps in when it knows where in its body the items an error counts are
 * (`{ items: '/items' }`). A failed analysis run's problem is worded here too
 * (`describeRunFailure`): the worker is handed it, and its events carry catalog entries.
 */
import { AnalysisEnded, AnalysisKeyReused, type AnalysisProblem, type RunFailure } from '../analyses/analysis-model.js';
import { webhookManualSends, type RunFailureCode } from '@evident/contract';
import {
  EvidenceConflict,
  EvidenceInFlight,
  EvidenceKeyReused,
  EvidenceRejected,
  EvidenceTooLarge,
  ScanTooLarge,
  ScanUnreadable,
  type EvidenceIssue,
} from '../evidence/evidence-errors.js';
import { ExceptionLimitReached } from '../exceptions/exception-index.js';
import {
  DropAcknowledged,
  DropNotFound,
  RunCountsRefused,
  RunEnded,
  RunFull,
  RunMismatch,
  RunNotFound,
} from '../runs/run-errors.js';
import { RequestLimitReached, RequestStatusRefused } from '../requests/request-model.js';
import { RequestChanged } from '../requests/request-store.js';
import { AttachmentRejected, type AttachmentFault } from '../submissions/attachment-checks.js';
import { ManualSendsLimited, WebhookCapReached } from '../webhooks/webhook-limits.js';
import { problemCatalog } from '@evident/contract/problems';
import { ApiProblem, invalidRequest, type RequestError } from './problem.js';

/** Where the request body holds the entries an error's indexes count. */
export interface ProblemPlace {
  /**
   * The JSON pointer of the array of items or files (`/items`); without it the body itself is
   * the one item, so an item's fields are pointed at from the root.
   */
  items?: string;
}

/** Seconds a client waits before sending again a request whose items another request holds. */
const inFlightRetryAfterSeconds = 5;

/**
 * The problem for an error a handler threw: itself if it is one already, the catalog's entry for
 * a domain error, and undefined for anything else — a bug, which the core logs and answers 500.
 */
export function problemFor(error: unknown, place: ProblemPlace = {}): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  const itemAt = (index: number) => (place.items === undefined ? '' : `${place.items}/${index}`);
  if (error instanceof EvidenceRejected) return invalidRequest(error.issues.map((issue) => evidenceIssue(issue, itemAt)));
  if (error instanceof EvidenceTooLarge) return evidenceTooLarge(error, itemAt);
  if (error instanceof EvidenceConflict) {
    const what =
      error.how === 'exists'
        ? 'already exists with different content'
        : 'was just stored by another request with different content';
    return new ApiProblem(
      'evidence_conflict',
      `An evidence item with id "${error.id}" ${what}; evidence is append-only, so send the correction under a new id.`,
    );
  }
  if (error instanceof EvidenceInFlight) {
    const detail =
      error.why === 'too_slow'
        ? 'This request took too long to store its items and stored none of them; send it again.'
        : 'Some of these items are being stored by another request that has not finished; send this request again ' +
          'shortly and they will be reported as existing.';
    return new ApiProblem('evidence_in_flight', detail, { headers: { 'Retry-After': String(inFlightRetryAfterSeconds) } });
  }
  if (error instanceof EvidenceKeyReused) {
    return new ApiProblem(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request body; use a new key for a new request.',
    );
  }
  if (error instanceof AttachmentRejected) return attachmentProblem(error.reason, itemAt);
  if (error instanceof WebhookCapReached || error instanceof ManualSendsLimited) return webhookProblem(error);
  if (error instanceof ScanUnreadable) return scanProblem(error);
  if (error instanceof RequestChanged || error instanceof RequestStatusRefused || error instanceof RequestLimitReached)
    return auditRequestProblem(error);
  if (error instanceof ScanTooLarge) return scanTooLarge(error);
  if (error instanceof AnalysisKeyReused) {
    return new ApiProblem(
      'idempotency_key_reused',
      'This Idempotency-Key already started an analysis with a different request; use a new key for a new run.',
    );
  }
  if (error instanceof AnalysisEnded) {
    const state = error.finishing
      ? 'has evaluated every control and is finishing'
      : `already ended (${error.lastEvent ?? 'no event'})`;
    return new ApiProblem('analysis_ended', `The analysis ${error.runId} ${state}; it can no longer be cancelled.`);
  }
  const run = collectionRunProblem(error, itemAt);
  if (run) return run;
  if (error instanceof ExceptionLimitReached) {
    const what = error.subject === null ? 'the whole control' : `"${error.subject}"`;
    return new ApiProblem(
      'too_many_exceptions',
      `${error.controlId} already has ${error.limit} exceptions requested or active for ${what}, the most it may have; ` +
        'revoke one (a request too), or wait until one is refused or expires.',
    );
  }
  return undefined;
}

/**
 * A collection run's refusals: unknown, ended, full, an item outside it, counts that do not name
 * its kinds, or a population drop it does not have or that was acknowledged already.
 */
function collectionRunProblem(error: unknown, itemAt: (index: number) => string): ApiProblem | undefined {
  if (error instanceof RunNotFound) return new ApiProblem('run_not_found', `No collection run has the id "${error.runId}".`);
  if (error instanceof DropNotFound) {
    return new ApiProblem('drop_not_found', `The collection run ${error.runId} has no population drop of ${error.kind}.`);
  }
  if (error instanceof DropAcknowledged) {
    return new ApiProblem(
      'drop_acknowledged',
      `The population drop of ${error.kind} in the collection run ${error.runId} was acknowledged at ${error.at}.`,
    );
  }
  if (error instanceof RunEnded) {
    const how =
      error.how === 'complete'
        ? `was completed at ${error.at}`
        : error.how === 'abandoned'
          ? `was not completed by ${error.at}, when it expired; it reads as abandoned`
          : error.how === 'cancelled'
            ? `was cancelled at ${error.at}`
            : error.how === 'failed'
              ? `was ended at ${error.at} because its collector failed`
              : `was completed at ${error.at} with counts that disagree`;
    return new ApiProblem('run_ended', `The collection run ${error.runId} ${how}, and takes nothing more; open a new run.`);
  }
  if (error instanceof RunFull) {
    return new ApiProblem(
      'run_full',
      `This batch would take the collection run ${error.runId} past ${error.max.toLocaleString('en')} ${error.limit}, ` +
        'the most one run receives. Nothing was stored.',
    );
  }
  if (error instanceof RunMismatch) {
    const errors: RequestError[] = error.issues.map((issue) => ({
      in: 'body',
      pointer: `${itemAt(issue.item)}/${issue.field}`,
      message:
        issue.field === 'kind'
          ? `is not a kind the run opened (${(issue.expected as readonly string[]).join(', ')})`
          : `is not the run's source ("${String(issue.expected)}")`,
    }));
    return invalidRequest(errors);
  }
  if (error instanceof RunCountsRefused) {
    return invalidRequest([
      ...error.missing.map((kind) => ({
        in: 'body' as const,
        pointer: `/counts/${kind}`,
        message: 'is missing: the run opened this kind',
      })),
      ...error.extra.map((kind) => ({
        in: 'body' as const,
        pointer: `/counts/${kind}`,
        message: 'names a kind the run did not open',
      })),
    ]);
  }
  return undefined;
}

/** The webhook limits: the cap on subscriptions, and on one subscription's pings and redeliveries. */
function auditRequestProblem(error: RequestChanged | RequestStatusRefused | RequestLimitReached): ApiProblem {
  if (error instanceof RequestStatusRefused) return new ApiProblem('audit_request_status', error.message);
  if (error instanceof RequestLimitReached) return new ApiProblem('audit_request_limit', error.message);
  const now = error.version !== undefined ? ` (it is at version ${error.version})` : '';
  return new ApiProblem(
    'audit_request_changed',
    `The request ${error.id} was changed or made by someone else meanwhile${now}; nothing was stored. Read it again and apply the change to its current version.`,
  );
}

function webhookProblem(error: WebhookCapReached | ManualSendsLimited): ApiProblem {
  if (error instanceof WebhookCapReached) {
    return new ApiProblem('too_many_webhooks', `There are ${error.max} subscriptions already, the most kept; delete one first.`);
  }
  const { limit, windowSeconds } = webhookManualSends;
  return new ApiProblem(
    'webhook_rate_limited',
    `This webhook had ${limit} pings and redeliveries in the last ${windowSeconds / 60} minutes, the most allowed; ` +
      `send the next in ${error.retryAfterSeconds} s.`,
    { headers: { 'Retry-After': String(error.retryAfterSeconds) } },
  );
}

/** A scanner's file with findings that cannot be read: each at its line (and, in an array, its index). */
function scanProblem(error: ScanUnreadable): ApiProblem {
  const errors: RequestError[] = error.problems.map((problem) => ({
    in: 'body',
    pointer: problem.index === undefined ? '' : `/${problem.index}`,
    line: problem.line,
    message: problem.message,
  }));
  const first = error.problems[0]!;
  const count = error.problems.length + error.more;
  const detail =
    count === 1
      ? `Line ${first.line} of the file cannot be imported: ${first.message}. Nothing was stored.`
      : `${count} findings of the file cannot be imported${error.more > 0 ? ` (the first ${error.problems.length} are listed)` : ''}; ` +
        'see errors. Nothing was stored.';
  return new ApiProblem('invalid_request', detail, { errors });
}

/** A scanner's file that makes more evidence than one import stores: the limit, and where reading stopped. */
function scanTooLarge(error: ScanTooLarge): ApiProblem {
  const max = error.max.toLocaleString('en');
  const what =
    error.limit === 'findings'
      ? `more than ${max} findings`
      : error.limit === 'items'
        ? `more than ${max} evidence items (one per finding and resource)`
        : `more than ${max} bytes of evidence items`;
  return new ApiProblem(
    'scan_too_large',
    `The file makes ${what}, the most one import stores; reading stopped at the finding on line ${error.line}. ` +
      'Nothing was stored. Split the file, or send it with `npm run collect -- --format ocsf`.',
  );
}

/** Rethrows an error as its problem, placed in the body as the caller knows it; other errors unchanged. */
export function rethrowAsProblem(place: ProblemPlace): (error: unknown) => never {
  return (error) => {
    throw problemFor(error, place) ?? error;
  };
}

/** The problem a failed analysis run carries in its `run.failed` event. */
export function describeRunFailure(failure: RunFailure): AnalysisProblem {
  switch (failure.failure) {
    case 'worker_lost':
      return runProblem(
        'worker_lost',
        failure.started ? 'The run\u2019s worker stopped without finishing it.' : 'The run never started: no worker took it.',
      );
    case 'attempts_failed':
      return runProblem(
        'internal',
        `The run failed on each of its ${failure.attempts} attempts; the server logs have the cause.`,
      );
    case 'controls_gone':
      return runProblem('control_not_found', `The catalog no longer has ${failure.controls.join(', ')}.`);
    case 'past_day':
      return runProblem(
        'report_immutable',
        `The run was to publish ${failure.date}, which is no longer today (${failure.today}); past reports never change.`,
      );
  }
}

/** An entry of the problem catalog as a run's problem: its code and title, and what befell this run. */
function runProblem(code: RunFailureCode, detail: string): AnalysisProblem {
  return { code, title: problemCatalog[code].title, detail };
}

function evidenceIssue(issue: EvidenceIssue, itemAt: (index: number) => string): RequestError {
  return issue.field === 'id'
    ? { in: 'body', pointer: `${itemAt(issue.item)}/id`, message: `repeats the id of ${itemAt(issue.repeats)}` }
    : { in: 'body', pointer: `${itemAt(issue.item)}/data`, message: `nests deeper than ${issue.maxDepth} levels` };
}

function evidenceTooLarge(error: EvidenceTooLarge, itemAt: (index: number) => string): ApiProblem {
  const large = error.items.map(({ item, bytes }) => `${itemAt(item)}/data is ${bytes} bytes`);
  return new ApiProblem(
    'evidence_too_large',
    `An evidence item's data may be at most ${error.maxBytes} bytes as JSON: ${large.slice(0, 5).join('; ')}` +
      `${large.length > 5 ? ` and ${large.length - 5} more` : ''}. Split it into several items or store the bulk as an attachment.`,
  );
}

function attachmentProblem(fault: AttachmentFault, itemAt: (index: number) => string): ApiProblem {
  if (fault.fault === 'too_many') {
    return new ApiProblem('attachment_too_large', `${fault.count} files were attached; at most ${fault.maxFiles} are accepted.`);
  }
  const label = `attachments[${fault.index}] ("${fault.name}")`;
  switch (fault.fault) {
    case 'too_large':
      return new ApiProblem(
        'attachment_too_large',
        `${label} is ${fault.bytes} bytes; each file may be at most ${fault.maxFileBytes} bytes.`,
      );
    case 'type_not_allowed':
      return new ApiProblem(
        'attachment_type_not_allowed',
        `${label} is "${fault.mediaType}"; accepted types are ${fault.allowed.join(', ')}.`,
      );
    case 'empty':
      return new ApiProblem('invalid_request', `${label} is empty.`, {
        errors: [{ in: 'body', pointer: itemAt(fault.index), message: 'is empty' }],
      });
    case 'content_mismatch':
      return new ApiProblem('attachment_type_not_allowed', `${label} claims to be "${fault.mediaType}" but its content is not.`);
  }
}
