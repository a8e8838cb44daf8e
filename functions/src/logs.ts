/**
 * Named log events, written as structured entries through the firebase-functions logger (which
 * adds the request's trace so Cloud Logging groups them).
 *
 * Each event says what happened in its name; callers pass facts, never messages. No event takes
 * a token, and every string in every entry passes through `redact`, in case one slips in
 * through an error message.
 */
import { write, type LogEntry } from 'firebase-functions/logger';

/**
 * A token run holding `eyJ`, then two dots: tried from where a run starts only, and the whole run
 * redacted (what came before `eyJ` in it too). Tried from every `eyJ`, it rescanned the rest of the
 * run each time, quadratic in a string of repeated `eyJ` with no dots after.
 */
const jwtLike = /(?<![\w-])(?=[\w-]*?eyJ)[\w-]*\.[\w-]*\.[\w-]*/g;
const bearerValue = /(bearer\s+)[^\s"',]+/gi;

/** Removes anything shaped like a JWT or a bearer credential. */
export function redact(text: string): string {
  return text.replace(jwtLike, '[redacted-jwt]').replace(bearerValue, '$1[redacted]');
}

function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item)]));
  return value;
}

function describe(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: `${error.name}: ${error.message}`, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}

function entry(severity: LogEntry['severity'], message: string, fields: Record<string, unknown>): LogEntry {
  return redactDeep({ severity, message, ...fields }) as LogEntry;
}

export interface RequestFacts {
  requestId: string;
  method: string;
  path: string;
  operationId?: string;
}

/** The entry of each event; pure, so tests can read exactly what would be written. */
export const logEntries = {
  /** A handler or the core threw something that is not an `ApiProblem`: a bug, answered with 500. */
  requestFailed: (facts: RequestFacts, error: unknown) =>
    entry('ERROR', 'request failed', { event: 'request_failed', ...facts, ...describe(error) }),

  /** A bearer token was refused; `reason` is the verifier's explanation, which never holds the token. */
  tokenRejected: (facts: RequestFacts, code: string, reason: string) =>
    entry('INFO', 'token rejected', { event: 'token_rejected', ...facts, code, reason }),

  /**
   * The token verifier could not judge a token for now (Google's keys or backend out of reach):
   * answered 503 `auth_unavailable` where a token is needed. Many in a row mean an outage.
   */
  verifierTrouble: (facts: RequestFacts, error: unknown) =>
    entry('WARNING', 'token verifier trouble', { event: 'verifier_trouble', ...facts, ...describe(error) }),

  /**
   * The token verifier cannot judge any token as the server is set up (no identity project, no
   * credentials): answered 500 where a token is needed, until someone fixes the configuration.
   */
  verifierMisconfigured: (facts: RequestFacts, error: unknown) =>
    entry('ERROR', 'token verifier misconfigured', { event: 'verifier_misconfigured', ...facts, ...describe(error) }),

  /**
   * A streamed download (the audit package) failed after its status was sent: the client gets a
   * cut-off body, which no archive reader takes for complete. A bug or the store's trouble.
   */
  downloadFailed: (facts: RequestFacts, error: unknown) =>
    entry('ERROR', 'download failed', { event: 'download_failed', ...facts, ...describe(error) }),

  /**
   * An audit package stopped before its last file (its download went away or failed); no more
   * of the store is read for it. How far it got, for whoever wonders why a download was partial.
   */
  auditPackageStopped: (period: { from: string; to: string }, made: { reports: number; evidence: number; attachments: number }) =>
    entry('INFO', 'audit package stopped', { event: 'audit_package_stopped', ...period, ...made }),

  /** The client went away during a streamed download; the rest of it was not produced. */
  downloadAbandoned: (facts: RequestFacts) => entry('INFO', 'download abandoned', { event: 'download_abandoned', ...facts }),

  /** The functions runtime rejected a request before any handler ran (e.g. malformed JSON). */
  frameworkRejected: (facts: RequestFacts, status: number, type: string) =>
    entry('INFO', 'request rejected by the runtime', { event: 'framework_rejected', ...facts, status, type }),

  /** A family's code or generated route table could not be loaded. */
  familyLoadFailed: (family: string, error: unknown) =>
    entry('ERROR', 'route family failed to load', { event: 'family_load_failed', family, ...describe(error) }),

  /** A report was evaluated and stored for its day; `trigger` says what asked for it. */
  reportPublished: (date: string, runId: string, trigger: string, score: number, milliseconds: number) =>
    entry('INFO', 'report published', { event: 'report_published', date, runId, trigger, score, milliseconds }),

  /** A run evaluated a day that already had a report; the stored one stands. */
  reportAlreadyExists: (date: string, runId: string, trigger: string) =>
    entry('INFO', 'report already exists', { event: 'report_already_exists', date, runId, trigger }),

  /**
   * A stored report is not a report (empty, or cut short by a crash of an earlier version): it
   * is served as if missing, and the next run for its day replaces it.
   */
  reportUnreadable: (date: string, generation: string, size: number, reason: string) =>
    entry('ERROR', 'stored report is unreadable', { event: 'report_unreadable', date, generation, size, reason }),

  /** A publishing run reached its write after its day had ended; the past day's report was left as it was. */
  pastReportKept: (date: string, runId: string, today: string) =>
    entry('INFO', 'past report kept', { event: 'past_report_kept', date, runId, today }),

  /** Evidence was stored through the API. */
  evidenceIngested: (requestId: string, created: number, existing: number) =>
    entry('INFO', 'evidence ingested', { event: 'evidence_ingested', requestId, created, existing }),

  /** A collection run was completed or cancelled; `status` is how it ended. */
  collectionRunEnded: (runId: string, source: string, status: string, reason: string | undefined) =>
    entry('INFO', 'collection run ended', { event: 'collection_run_ended', runId, source, status, reason: reason ?? null }),

  /**
   * A run that ended incomplete could not be announced to webhooks (the task queue refused): the
   * run stands as ended, so its answer is not failed for it; the run shows incomplete all the same.
   */
  collectionRunAnnounceFailed: (runId: string, error: unknown) =>
    entry('WARNING', 'collection run not announced', { event: 'collection_run_announce_failed', runId, ...describe(error) }),

  /** Events were announced to the webhook subscriptions that want them. */
  webhooksAnnounced: (trigger: string, events: number, deliveries: number) =>
    entry('INFO', 'webhooks announced', { event: 'webhooks_announced', trigger, events, deliveries }),

  /** A webhook delivery attempt, delivered or not; a failed one is retried unless it was the last. */
  webhookAttempted: (
    deliveryId: string,
    webhookId: string,
    attempt: number,
    outcome: 'delivered' | 'failed',
    status: number | null,
    durationMs: number,
  ) =>
    entry(outcome === 'delivered' ? 'INFO' : 'WARNING', 'webhook attempted', {
      event: 'webhook_attempted',
      deliveryId,
      webhookId,
      attempt,
      outcome,
      status,
      durationMs,
    }),

  /**
   * A webhook target refused for what its name resolves to, when subscribing or at an attempt:
   * `detail` names the addresses, which only the logs say (the subscriber is told it is not allowed).
   */
  webhookTargetRefused: (when: 'subscribe' | 'attempt', host: string, detail: string) =>
    entry('WARNING', 'webhook target refused', { event: 'webhook_target_refused', when, host, detail }),

  /** A delivery task with nothing to send: its subscription was deleted, or the task names no delivery. */
  webhookSkipped: (deliveryId: string, reason: string) =>
    entry('INFO', 'webhook skipped', { event: 'webhook_skipped', deliveryId, reason }),

  /** A batch stored by a writer that stopped before indexing it was indexed by the daily job. */
  evidenceIndexRepaired: (batch: string, items: number) =>
    entry('WARNING', 'evidence index repaired', { event: 'evidence_index_repaired', batch, items }),

  /** The evidence an evaluation read: where it started from and what it read since. */
  evidenceSnapshotLoaded: (date: string, trigger: string, facts: Record<string, unknown>) =>
    entry('INFO', 'evidence snapshot loaded', { event: 'evidence_snapshot_loaded', date, trigger, ...facts }),

  /**
   * An evaluation's evidence did not fit its budget of bytes (assessment/evidence-state.ts): the
   * items left out make the controls that read them fail, and no checkpoint was saved.
   */
  evidenceSetAside: (date: string, items: number, bytes: number, budgetBytes: number) =>
    entry('ERROR', 'evidence set aside: over the budget of the evaluation', {
      event: 'evidence_set_aside',
      date,
      items,
      bytes,
      budgetBytes,
    }),

  /** A stored attachment no longer matched its recorded hash and was not served. */
  submissionReviewed: (submissionId: string, decision: string, independent: boolean) =>
    entry('INFO', 'submission reviewed', { event: 'submission_reviewed', submissionId, decision, independent }),
  attachmentTampered: (submissionId: string, index: number, expected: string, actual: string) =>
    entry('ERROR', 'attachment failed its integrity check', {
      event: 'attachment_tampered',
      submissionId,
      index,
      expected,
      actual,
    }),

  /** A stream failed after its status line was sent; the client resumes from `lastEventId`. */
  streamFailed: (stream: string, lastEventId: number, error: unknown) =>
    entry('ERROR', 'event stream failed', { event: 'stream_failed', stream, lastEventId, ...describe(error) }),

  /** An analysis run was recorded and handed to the task queue. */
  analysisQueued: (requestId: string, runId: string, scope: number | 'all', publish: boolean) =>
    entry('INFO', 'analysis queued', { event: 'analysis_queued', requestId, runId, scope, publish }),

  /** The task queue refused a run; the caller was told to retry. */
  analysisQueueFailed: (runId: string, error: unknown) =>
    entry('ERROR', 'analysis could not be queued', { event: 'analysis_queue_failed', runId, ...describe(error) }),

  /** A worker attempt ended; `outcome` is the run's terminal event, or why the attempt stopped. */
  analysisAttemptEnded: (runId: string, attempt: number, outcome: string, milliseconds: number) =>
    entry('INFO', 'analysis attempt ended', { event: 'analysis_attempt_ended', runId, attempt, outcome, milliseconds }),

  /** A connector run ended: `outcome` is its terminal event's type, `failure` why it failed. */
  connectorRunEnded: (connector: string, runId: string, outcome: string, failure?: string) =>
    entry(outcome === 'run.failed' ? 'WARNING' : 'INFO', 'connector run ended', {
      event: 'connector_run_ended',
      connector,
      runId,
      outcome,
      ...(failure !== undefined ? { failure } : {}),
    }),

  /** A connector stopped on an error of ours or an SDK's; `error` has every secret of the run taken out. */
  connectorRunError: (connector: string, runId: string, error: string) =>
    entry('ERROR', 'connector run error', { event: 'connector_run_error', connector, runId, error }),

  /** An audit package's build failed; the package says so (`run.failed`) and the cause is here. */
  auditPackageFailed: (packageId: string, error: unknown) =>
    entry('ERROR', 'audit package build failed', { event: 'audit_package_failed', packageId, ...describe(error) }),

  /** An audit package could not be queued; it is marked failed. */
  auditPackageQueueFailed: (packageId: string, error: unknown) =>
    entry('ERROR', 'audit package could not be queued', { event: 'audit_package_queue_failed', packageId, ...describe(error) }),

  /** The lapsed audit packages a build deleted. */
  auditPackagesSwept: (count: number) => entry('INFO', 'lapsed audit packages deleted', { event: 'audit_packages_swept', count }),

  /** A connector run could not be queued; it stays open until it is abandoned. */
  connectorQueueFailed: (connector: string, runId: string, error: unknown) =>
    entry('ERROR', 'connector run could not be queued', {
      event: 'connector_queue_failed',
      connector,
      runId,
      ...describe(error),
    }),

  /** A worker attempt failed and the queue will retry it (or the run was marked failed on the last one). */
  analysisAttemptFailed: (runId: string, attempt: number, final: boolean, error: unknown) =>
    entry(final ? 'ERROR' : 'WARNING', 'analysis attempt failed', {
      event: 'analysis_attempt_failed',
      runId,
      attempt,
      final,
      ...describe(error),
    }),

  /** The configured chat model failed; the offline composer answered instead. */
  /** The model reader failed or ran out of time, and the offline reader read the question; `reason` is one word, never a message. */
  chatReaderFellBack: (requestId: string, reader: string, reason: string) =>
    entry('WARNING', 'chat model reader fell back to the offline reader', {
      event: 'chat_reader_fell_back',
      requestId,
      reader,
      reason,
    }),

  /**
   * The sign-in policy kept an account from being created or from getting a token. Only the
   * address's domain is logged: it says why, and the rest of the address is the person's.
   */
  signInRefused: (
    trigger: 'beforeCreate' | 'beforeSignIn',
    reason: string,
    provider: string | undefined,
    emailDomain: string | undefined,
  ) =>
    entry('WARNING', 'sign-in refused', {
      event: 'sign_in_refused',
      trigger,
      reason,
      provider: provider ?? 'unknown',
      emailDomain: emailDomain ?? null,
    }),
};

type Events = typeof logEntries;

/** Writes each event's entry. */
export const logs = Object.fromEntries(
  Object.entries(logEntries).map(([name, build]) => [
    name,
    (...args: never[]) => write((build as (...a: never[]) => LogEntry)(...args)),
  ]),
) as { [K in keyof Events]: (...args: Parameters<Events[K]>) => void };
