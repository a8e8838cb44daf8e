/**
 * The values the API's contract is made of, each written once: the shapes of ids, the limits of
 * an evidence batch, what a severity weighs, which statuses a control can have, which events end
 * a run. The API description (`openapi/`), the server, the web app and the scripts all import
 * them from this package (`@evident/contract`), so the spec, the checks and the pages cannot
 * drift apart. Its other modules: `problems` (the problem codes), `request-limits`,
 * `upload-limits` and `evidence-kinds`.
 *
 * Import-free on purpose, and written in TypeScript that only needs its types erased: the
 * scripts load it from source with plain Node, the web app bundles it without pulling anything
 * else in, and the functions build compiles a copy into `functions/lib` (scripts/build.ts).
 */

/** The header every answer of the API carries its version in (the description's `info.version`). */
export const apiVersionHeader = 'Evident-Api-Version';

/** A catalog control id, `IAM-01`. */
export const controlIdPattern = '^[A-Z]{2,5}-\\d{2,3}$';
/** Evidence ids name objects in storage, so they are plain: no slashes, dots at the start, spaces or `..`. */
export const evidenceIdPattern = '^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$';
/** Analysis run ids sort by creation time: `an-<UTC yyyyMMddHHmmssSSS>-<8 hex>`. */
export const analysisIdPattern = '^an-[0-9]{17}-[0-9a-f]{8}$';
export const submissionIdPattern = '^sub-[0-9a-z]{10,40}$';
export const chatMessageIdPattern = '^msg-[0-9a-z]{10,40}$';
/** Collection run ids sort by opening time: `run-<base36 milliseconds, 9>-<12 hex>`. */
export const collectionRunIdPattern = '^run-[0-9a-z]{9}-[0-9a-f]{12}$';
/** A built-in connector's id: `github`, `google-cloud`. */
export const connectorIdPattern = '^[a-z][a-z0-9-]{1,39}$';
/** Where a connector run is: waiting for the worker, collecting, or ended one of three ways. */
/** An audit package built in the background: `pkg-<from>-<to>-<12 hex of its reports' fingerprint>-<6 random hex>`. */
export const auditPackageIdPattern = '^pkg-\\d{8}-\\d{8}-[0-9a-f]{12}-[0-9a-f]{6}$';
/** `queued` until the job starts, `building` while it writes, then `ready` to download or `failed`. */
export const auditPackageStates = ['queued', 'building', 'ready', 'failed'] as const;
/** Days a built package is kept before it lapses, when `AUDIT_PACKAGE_DAYS` does not say. */
export const defaultAuditPackageDays = 14;

export const connectorRunStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/**
 * Why a connector run failed: a setting or secret missing, the vendor refusing the credential or a
 * permission, what the settings name not found, the vendor failing, the worker lost, or a fault of ours.
 */
export const connectorFailureReasons = [
  'not_configured',
  'credential_rejected',
  'permission_missing',
  'not_found',
  'vendor_unavailable',
  'worker_lost',
  'internal',
] as const;
/** One lowercase word or several joined by single hyphens; nothing that could name a path. */
export const slugPattern = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const slugMaxLength = 100;
/** `YYYY-MM-DD`; the handlers also refuse impossible dates such as 2026-02-30. */
export const datePattern = '^\\d{4}-\\d{2}-\\d{2}$';
/**
 * A name or label given by a client (an evidence item's source and subject): no control
 * characters (tabs and line breaks included) and no lone half of a surrogate pair, which no
 * storage key, metadata header or file name can carry. (`*`: an empty one is `minLength`'s to refuse.)
 */
export const printableTextPattern = '^[^\\p{Cc}\\p{Cs}]*$';

/** A pattern without its `^…$` anchors, to embed in a larger one (a page's path). */
export const unanchored = (pattern: string): string => pattern.replace(/^\^/, '').replace(/\$$/, '');

/**
 * How large one evidence item's `data` may be: at most 64 KiB as JSON, nesting at most 32
 * levels. An item is read by every listing page that shows it and held by every evaluation
 * while it is the newest for its subject, so one request must not make those reads heavy.
 */
export const maxDataBytes = 64 * 1024;
export const maxDataDepth = 32;

/** The most items one `POST /api/evidence` may carry. */
export const maxBatchItems = 500;
/** The largest body one `POST /api/evidence` may send. */
export const maxBatchBytes = 4 * 1024 * 1024;

/**
 * The largest scanner output one `POST /api/evidence/imports/ocsf` may send (Cloud Functions take 32 MiB
 * at most). Larger scans go through the collector, which streams them in batches.
 */
export const maxOcsfImportBytes = 16 * 1024 * 1024;

/**
 * What one `POST /api/evidence/imports/ocsf` may make of its file, each checked while the file is
 * read, before anything grows past it (413 `scan_too_large`): findings read, evidence items made
 * (one per finding and resource), and the bytes those items take as stored JSON — no more than
 * the request itself may send. Storing 5,000 items takes about 20 s, well inside the 60 s
 * Hosting gives a request. Larger scans go through the collector. (How many resources one
 * finding may name is the converter's rule, the same for both: common/ocsf-findings.ts.)
 */
export const maxOcsfImportFindings = 5_000;
export const maxOcsfImportItems = 5_000;
export const maxOcsfImportStoredBytes = maxOcsfImportBytes;

/**
 * What one scanner finding may hold, the same for the import and the collector
 * (common/ocsf-findings.ts): the most resources it may name (more is refused at its line), the
 * code points kept of its title, message and remediation, the most requirements it may name in
 * one framework, and the code points kept of each short field (the resource's uid is refused
 * beyond its limit instead: it names the subject).
 */
export const maxFindingResources = 1_000;
export const maxFindingTextLength = 4_000;
export const maxFindingRequirements = 100;
export const findingFieldLengths = {
  check: 200,
  severity: 50,
  product: 100,
  provider: 50,
  account: 100,
  region: 100,
  resourceType: 200,
  findingUid: 500,
  subject: 300,
  source: 200,
} as const;

/** What a control can be in a report, in the order a report's counts list them. */
export const controlStatuses = ['passing', 'failing', 'stale', 'missing', 'not_applicable'] as const;
export type ControlStatus = (typeof controlStatuses)[number];
/**
 * The statuses that need someone to act, in the order they are shown (riskiest first): a control
 * is open while it is failing, stale or missing evidence, and its due date counts from then.
 */
export const openStatuses = ['failing', 'stale', 'missing'] as const satisfies readonly ControlStatus[];
export const isOpenStatus = (status: ControlStatus): boolean => (openStatuses as readonly ControlStatus[]).includes(status);
/** Every status, riskiest first: how lists of controls and filters order them. */
export const controlStatusesByRisk = [...openStatuses, 'passing', 'not_applicable'] as const satisfies readonly ControlStatus[];

/**
 * The kinds of evidence Evident understands, in the order the catalog groups them. What each
 * one's `data` holds is in `@evident/contract/evidence-kinds`, which the web app need not load.
 */
export const evidenceKindNames = [
  'idp.user',
  'idp.settings',
  'access.review',
  'repo.branch_protection',
  'repo.member',
  'ci.pipeline',
  'backup.job',
  'backup.restore_test',
  'vuln.scan',
  'endpoint.device',
  'logging.sink',
  'monitoring.alert_policy',
  'crypto.key',
  'storage.bucket',
  'tls.endpoint',
  'training.completion',
  'people.screening',
  'vendor.assessment',
  'incident.exercise',
  'scanner.finding',
  'attestation',
] as const;
export type EvidenceKindName = (typeof evidenceKindNames)[number];

/** Most severe first: a control's rank is its place in this list. */
export const severities = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof severities)[number];

/** What a control of each severity counts for in the score. */
export const severityWeights: Readonly<Record<Severity, number>> = { critical: 10, high: 5, medium: 3, low: 1 };

/** 0 for the most severe; sorting by it puts the riskiest first. */
export const severityRank = Object.fromEntries(severities.map((severity, rank) => [severity, rank])) as Readonly<
  Record<Severity, number>
>;

/** The frameworks the catalog maps its controls to, in the order they are shown. */
export const frameworkIds = ['soc2', 'iso27001', 'nist80053'] as const;
export type FrameworkId = (typeof frameworkIds)[number];
/** How `GET /api/frameworks/{framework}` takes a framework's id; the API names the ones it knows. */
export const frameworkIdPattern = '^[a-z0-9]{1,20}$';
/** Each framework's name and edition, wherever one is shown. */
export const frameworkNames: Readonly<Record<FrameworkId, string>> = {
  soc2: 'SOC 2 Trust Services Criteria (2017)',
  iso27001: 'ISO/IEC 27001:2022 Annex A',
  nist80053: 'NIST SP 800-53 rev5, moderate baseline',
};
/** Each framework's name where the edition goes without saying (before a requirement id, in a sentence). */
export const frameworkShortNames: Readonly<Record<FrameworkId, string>> = {
  soc2: 'SOC 2',
  iso27001: 'ISO 27001',
  nist80053: 'NIST SP 800-53',
};

/**
 * How a framework requirement stands in a report, from the statuses of the controls mapped to it
 * (assessment/readiness.ts): `met` when every applicable one passes, `not_met` when one fails,
 * `unproven` when none fails but one has stale or missing evidence, `not_applicable` when all are
 * scoped out.
 */
export const requirementStatuses = ['met', 'not_met', 'unproven', 'not_applicable'] as const;
export type RequirementStatus = (typeof requirementStatuses)[number];

/**
 * The SOC 2 trust services categories and the prefix of their criteria ids. Security (the
 * common criteria) is always in an audit's scope; the others are in it when the organisation
 * says so (its settings' scope).
 */
export const soc2Categories = ['security', 'availability', 'confidentiality', 'processing_integrity', 'privacy'] as const;
export type Soc2Category = (typeof soc2Categories)[number];
export const soc2CategoryPrefixes: Readonly<Record<Soc2Category, string>> = {
  security: 'CC',
  availability: 'A',
  confidentiality: 'C',
  processing_integrity: 'PI',
  privacy: 'P',
};
export const soc2CategoryNames: Readonly<Record<Soc2Category, string>> = {
  security: 'Security',
  availability: 'Availability',
  confidentiality: 'Confidentiality',
  processing_integrity: 'Processing Integrity',
  privacy: 'Privacy',
};
/** The NIST SP 800-53 baselines Evident bundles a reference list of (functions/catalog/reference/). */
export const nistBaselines = ['moderate'] as const;

/**
 * Bounds of the organisation's settings (`PUT /api/settings`), checked before anything is stored:
 * a freshness override of zero days proves nothing and one of years hides stale evidence; a due
 * date further off than a year is no policy.
 */
export const settingsLimits = {
  freshnessDays: { minimum: 1, maximum: 730 },
  dueDays: { minimum: 1, maximum: 365 },
  ownersPerEntry: 10,
  ownerEntries: 500,
  freshnessEntries: 500,
  excludedRequirements: 400,
  connectors: 20,
  connectorSettings: 50,
  connectorValueLength: 2000,
  reason: { minLength: 3, maxLength: 1000 },
} as const;

/** The problem codes a failed analysis run can carry (http/domain-problems.ts words each). */
export const runFailureCodes = ['worker_lost', 'internal', 'control_not_found', 'report_immutable'] as const;
export type RunFailureCode = (typeof runFailureCodes)[number];

/**
 * Days a control of each severity may stay failing, stale or missing evidence before it is
 * overdue, unless the deployment's settings say otherwise (assessment/due-dates.ts).
 */
export const defaultDueDays: Readonly<Record<Severity, number>> = { critical: 7, high: 30, medium: 90, low: 180 };

/** Exception ids name the day they expire, so the store finds one without a search: `exc-20270301-<10 hex>`. */
export const exceptionIdPattern = '^exc-[0-9]{8}-[0-9a-f]{10}$';
/** The longest period a request reads (a control's history, an audit package), in days: a year, leap day included. */
export const maxPeriodDays = 366;

/**
 * How often a control operates, which sets how many of its operations an auditor tests
 * (docs/sampling.md): the catalog gives a checked control `daily` and an attested one the
 * cadence its attestation's freshness window implies (assessment/control-frequency.ts).
 */
export const controlFrequencies = ['annual', 'quarterly', 'monthly', 'weekly', 'daily', 'many-times-a-day'] as const;
export type ControlFrequency = (typeof controlFrequencies)[number];
/**
 * The sample sizes commonly suggested for tests of controls by how often the control operates,
 * after the AICPA Audit Guide *Audit Sampling* (tests of controls): guidance an auditor's judgment
 * may depart from, not a rule. A sample of days suggests the upper end (docs/sampling.md).
 */
export const suggestedSampleSizes: Readonly<Record<ControlFrequency, { minimum: number; maximum: number }>> = {
  annual: { minimum: 1, maximum: 1 },
  quarterly: { minimum: 2, maximum: 2 },
  monthly: { minimum: 2, maximum: 5 },
  weekly: { minimum: 5, maximum: 15 },
  daily: { minimum: 20, maximum: 40 },
  'many-times-a-day': { minimum: 25, maximum: 60 },
};
/** What a sample request may ask: a size up to the largest suggestion, a seed of printable characters. */
export const sampleLimits = { size: { minimum: 1, maximum: 60 }, seed: { minLength: 1, maxLength: 200 } } as const;

/**
 * How a control's checks found one subject of its population on a day: passing, failing, not
 * evaluable on its evidence (`error`), or left out of the checks' scope (`out_of_scope`).
 */
export const subjectOutcomes = ['pass', 'fail', 'error', 'out_of_scope'] as const;

/**
 * Whether a submission's attestation counts before someone other than its submitter accepts it
 * (`SUBMISSION_REVIEW`): `optional` counts it at once, as submissions always did; `required`
 * only once accepted.
 */
export const submissionReviewModes = ['optional', 'required'] as const;
export type SubmissionReviewMode = (typeof submissionReviewModes)[number];
/** The decisions a submission's review records, final once made. */
export const submissionReviewDecisions = ['accepted', 'rejected'] as const;
/** The longest reason a reviewer may give, in characters. */
export const maxReviewReasonLength = 2000;
/**
 * The most submissions a report lists as awaiting review; `count` says how many there are. Enough
 * to act on, and a report's size stays bounded however many pile up.
 */
export const maxAwaitingReviewListed = 50;

/** The longest an exception may run: a year from the day it is recorded, leap day included. */
export const maxExceptionDays = 366;
/**
 * The most exceptions one control may have active at once for one subject, the whole control
 * counting as a subject of its own: one in force, one recorded ahead to follow it, and one to
 * correct a mistake before revoking it. More would accept nothing more, and would let the
 * exceptions every report applies grow without bound.
 */
export const maxActiveExceptionsPerSubject = 3;
/**
 * A page of each paged listing: as many as `limit` asks, up to `maximum`, and `default` when it
 * does not ask. The route tables give a handler the default (http/request-input.ts), so no
 * handler restates it; the web app leaves it out of its addresses.
 */
export const pageLimits = {
  evidence: { default: 50, maximum: 200 },
  submissions: { default: 50, maximum: 200 },
  exceptions: { default: 50, maximum: 200 },
  analyses: { default: 20, maximum: 100 },
  webhookDeliveries: { default: 20, maximum: 100 },
  settingsVersions: { default: 20, maximum: 100 },
  reportVersions: { default: 50, maximum: 200 },
  runs: { default: 20, maximum: 100 },
  /** A population's history is one small entry per complete run, so a chart's 90 days fit in a page or two. */
  populations: { default: 100, maximum: 500 },
  /** Subjects of a control's population on a day: at most half a stored chunk, so a page reads at most two. */
  populationSubjects: { default: 200, maximum: 1000 },
} as const;

/**
 * Collection runs (docs/collectors.md): what a run reads as, and why one is incomplete. A run
 * still `running` past its `expiresAt` reads as `incomplete`, `abandoned`.
 */
export const collectionRunStatuses = ['running', 'complete', 'incomplete', 'cancelled'] as const;
/** `failed`: the collector said it could not finish (a built-in connector whose vendor refused or failed it). */
export const collectionRunIncompleteReasons = ['abandoned', 'counts_disagree', 'cancelled', 'failed'] as const;
export type CollectionRunIncompleteReason = (typeof collectionRunIncompleteReasons)[number];
/**
 * The bounds of one run: the items it may receive (a batch past them is refused), the batches
 * they may come in (each leaves a receipt that completing reads), and the count a collector may
 * declare per kind. Completing reads every receipt, so these keep it to a few seconds.
 */
export const collectionRunLimits = { items: 200_000, batches: 5_000, declaredPerKind: 1_000_000 } as const;

/**
 * Why a control cannot pass on the population it has (docs/collectors.md § Completeness), and
 * how many uncovered subjects a failed reconciliation names before it gives only their count.
 */
export const completenessReasons = ['run_incomplete', 'run_outdated', 'population_dropped', 'reconciliation'] as const;
export const maxUncoveredListed = 20;
/** Kinds read per subject, which collection runs define populations of: all but attestations and scanner findings. */
export const isSubjectKind = (kind: string) => kind !== 'attestation' && kind !== 'scanner.finding';
/** How a reconciliation's covering side is matched: by subject, or by one field of its data. */
export const reconciliationKeyPattern = '^(subject|data\\.[A-Za-z][A-Za-z0-9_]{0,63})$';

/**
 * What one `POST /api/chat` may carry: the question's characters, the previous turns, each turn's
 * characters and citations, and the body's bytes.
 */
export const chatLimits = { messageChars: 2000, turns: 20, turnChars: 8000, citations: 100, bodyBytes: 256 * 1024 } as const;

/**
 * What one `POST /api/mcp` may carry: the body's bytes (a tool call's slots are a few hundred),
 * and the messages of a batch (the 2025-03-26 protocol's batches; later versions send one).
 */
export const mcpLimits = { bodyBytes: 64 * 1024, batchMessages: 20 } as const;

/** The events that end an analysis run; a run has exactly one of them, last. */
export const terminalEventTypes = ['run.completed', 'run.failed', 'run.cancelled'] as const;

export function isTerminal(type: string): boolean {
  return (terminalEventTypes as readonly string[]).includes(type);
}

/** `1 day`, `3 days`; `many` for the irregular plurals. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/**
 * What outbound webhooks announce. `webhook.ping` is sent only when asked (a test of a
 * subscription); the others are subscribed to.
 */
export const webhookEventTypes = [
  'report.published',
  'control.status_changed',
  'evidence.expiring',
  'exception.expiring',
  'analysis.completed',
  'source.run_incomplete',
  'population.dropped',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number] | 'webhook.ping';
/** How a subscription's payloads are written: Evident's JSON, or the text a Slack incoming webhook takes. */
export const webhookFormats = ['json', 'slack'] as const;
/** Webhook subscription ids: `wh-<12 hex>`. */
export const webhookIdPattern = '^wh-[0-9a-f]{12}$';
/** Delivery ids are the `webhook-id` receivers deduplicate by: `msg_<24 hex>`, the same for every attempt. */
export const webhookDeliveryIdPattern = '^msg_[0-9a-f]{24}$';
/** The most subscriptions one deployment keeps: each event fans out to every one of them. */
export const maxWebhooks = 25;
/**
 * Test pings and redeliveries one subscription may ask for in any `windowSeconds`: enough to
 * try an endpoint and to redo an outage's deliveries by hand, not enough to turn Evident into a
 * cannon aimed at someone else's URL (each is up to six signed POSTs).
 */
export const webhookManualSends = { limit: 30, windowSeconds: 600 } as const;
/**
 * A webhook URL as listings show it: its origin, then `/…` and the last four characters of its
 * path and query when they are longer than eight. The path or query may carry a credential (a
 * Slack incoming-webhook URL is one), so the URL in full is shown once, when it is created.
 */
export function shownWebhookUrl(url: string): string {
  const { origin, href } = new URL(url);
  const rest = href.slice(origin.length + 1);
  if (rest === '') return `${origin}/`;
  return `${origin}/…${rest.length > 8 ? rest.slice(-4) : ''}`;
}
/** Days before evidence goes stale, or an exception expires, that a reminder is sent. */
export const defaultReminderDays = [30, 7, 1] as const;

/** How far ahead a report lists the evidence each control relies on that will go stale (`expiring`), and how many items at most. */
export const expiringHorizonDays = 180;
export const maxExpiringPerControl = 100;

/**
 * The auditor's request list (docs/audit-requests.md): each request asks for what shows a
 * control over a period, is answered with what Evident holds, and is accepted or returned by
 * the auditor. Ids are the auditor's own references (`PBC-001`) or made by Evident
 * (`req-<yyyymmdd>-<10 hex>`); each holds a digit, so no id is a word of the family's paths
 * (`import`, `export.csv`).
 */
export const auditRequestIdPattern = '^[A-Za-z]{0,20}[_-]?[0-9][A-Za-z0-9_-]{0,39}$';
export const auditRequestStatuses = ['open', 'answered', 'accepted', 'returned'] as const;
export type AuditRequestStatus = (typeof auditRequestStatuses)[number];
/** What answers a request: an evidence item, a submission, a control's population on a day, or a sample of its days. */
export const auditAnswerKinds = ['evidence', 'submission', 'population', 'sample'] as const;
export type AuditAnswerKind = (typeof auditAnswerKinds)[number];
export const auditRequestActions = ['created', 'edited', 'answered', 'accepted', 'returned', 'reopened'] as const;
/**
 * The bounds of the list: requests in it, answers to one request, steps one request records, the
 * characters of a description, a comment and an answer's note, and what one CSV import reads.
 * A year's SOC 2 request list runs to a few hundred requests.
 */
export const auditRequestLimits = {
  requests: 500,
  answers: 50,
  history: 200,
  descriptionChars: 2000,
  commentChars: 2000,
  noteChars: 500,
  importBytes: 512 * 1024,
  importRows: 500,
} as const;
/** The columns of a request list's CSV, in the order the export writes them; `id` is optional on import. */
export const auditRequestCsvColumns = ['id', 'control', 'from', 'to', 'description'] as const;
