/**
 * Every setting Evident reads, declared once with its type, default and meaning.
 *
 * Deploy-time params (firebase-functions `define*`) are prompted for by `firebase deploy` and
 * stored in `functions/.env.<project>`; the demo projects commit theirs. Values are read through
 * the accessors below on first use, never at import, so a restart with new values is all a
 * change needs. A param that is unset at run time reads as its default.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declaredParams, defineBoolean, defineInt, defineSecret, defineString } from 'firebase-functions/params';
import { defaultAuditPackageDays, defaultReminderDays, type SubmissionReviewMode } from '@evident/contract';

/** Forgets every value read so far; see `rereadSettings`. */
const forgetters: (() => void)[] = [];

/**
 * A param's value, read and parsed on first use and then kept. A deployed instance's
 * environment never changes (a new value is a new deploy, hence new instances), and on the
 * request path one lookup of an environment variable cost more than routing a cached request
 * (about 1 µs in a loaded instance: see docs/http-api.md, "Throughput").
 */
function readOnce<T>(param: { value(): T }): () => T {
  let parsed: { value: T } | undefined;
  forgetters.push(() => (parsed = undefined));
  return () => (parsed ??= { value: param.value() }).value;
}

/**
 * The names of the params declared so far that a deploy (and the emulator) asks a value for;
 * secrets come from Secret Manager, or `.secret.local` in the emulator, instead. Each demo
 * project's `.env` file gives every one a value, so `npm start` never stops to ask.
 */
export function askedSettingNames(): string[] {
  // A secret's class says `type = 'secret'` (firebase-functions/params), as its deploy spec does.
  const isSecret = (param: object) => (param.constructor as { type?: string }).type === 'secret';
  return declaredParams.flatMap((param) => (isSecret(param) ? [] : [param.name]));
}

/**
 * Reads every setting again on its next use. Only tests, which change the environment between
 * requests of one process, need it; a deployed instance never does.
 */
export function rereadSettings(): void {
  for (const forget of forgetters) forget();
}

const authRequiredParam = defineBoolean('AUTH_REQUIRED', {
  default: false,
  description: 'Protected mode: protected operations need a valid Firebase ID token. False serves the API publicly.',
});

const idpProjectIdParam = defineString('IDP_PROJECT_ID', {
  default: '',
  description:
    "The Firebase project whose ID tokens are accepted; must equal the web app's IDP_PROJECT_ID. " +
    'Empty means the project the functions run in.',
});

const corsOriginsParam = defineString('CORS_ORIGINS', {
  default: '',
  description:
    'Comma-separated origins (e.g. https://app.example.com) allowed to call the function URLs directly ' +
    'from a browser; * allows any. Empty: none, which is right when the API is only reached through Hosting.',
});

const allowedEmailDomainsParam = defineString('ALLOWED_EMAIL_DOMAINS', {
  default: '',
  description:
    'Comma-separated email domains (e.g. example.com) whose verified addresses the identity project issues tokens to; ' +
    'subdomains must be listed too. With ALLOWED_EMAILS also empty, nobody can sign in.',
});

const allowedEmailsParam = defineString('ALLOWED_EMAILS', {
  default: '',
  description: 'Comma-separated single addresses that may sign in whatever their domain; their email must be verified too.',
});

const reportTimeZoneParam = defineString('REPORT_TIME_ZONE', {
  default: 'UTC',
  description: "The IANA time zone whose calendar days the daily reports follow, e.g. Europe/Paris; also the schedule's zone.",
});

const streamMaxSecondsParam = defineInt('STREAM_MAX_SECONDS', {
  default: 25,
  description:
    'How long one event-stream connection lasts before it ends with a retry hint and the client resumes (5-50). ' +
    "Well under Hosting's 60 s cut-off, so a stream is never cut mid-event by it.",
});

/** Seconds per event-stream connection, kept within 5–50 whatever is configured. */
export function streamMaxSeconds(): number {
  return Math.min(50, Math.max(5, streamMaxSecondsParam.value() || 25));
}

const chatProviderParam = defineString('CHAT_PROVIDER', {
  default: 'retrieval',
  description:
    'Who reads chat questions: `retrieval` (the offline reader, no network) or `vertex-gemini` (Gemini on Vertex AI ' +
    'reads each question as a function call; the answer is still composed offline from the report, with citations).',
});

const chatModelParam = defineString('CHAT_MODEL', {
  default: 'gemini-2.5-flash',
  description: 'The Vertex AI model when CHAT_PROVIDER is vertex-gemini.',
});

const chatModelTimeoutParam = defineInt('CHAT_MODEL_TIMEOUT_MS', {
  default: 4000,
  description: 'Milliseconds the model may take to read a question before the offline reader reads it instead (500-15000).',
});

export function chatProvider(): 'retrieval' | 'vertex-gemini' {
  return chatProviderParam.value() === 'vertex-gemini' ? 'vertex-gemini' : 'retrieval';
}

export function chatModel(): string {
  return chatModelParam.value() || 'gemini-2.5-flash';
}

/** How long the model reader may take, kept within 0.5–15 s; 4 s when unset. */
export function chatModelTimeoutMs(): number {
  const ms = chatModelTimeoutParam.value();
  return Number.isInteger(ms) && ms >= 500 && ms <= 15_000 ? ms : 4000;
}

/**
 * The one region every function runs in, and with them their task queues and the daily
 * schedule; the Hosting rewrites in firebase.json (scripts/lib/hosting-rewrites.ts) name it too.
 * A constant, not a param, because firebase.json is generated from it before a deploy: to move,
 * change it here, `npm run generate`, and deploy (docs/deployment.md, "Choose the region").
 */
export const functionsRegion = 'us-central1';

/** Where the chat model runs: the functions' own region, so a question and its context stay there. */
export const chatModelLocation = functionsRegion;

/** For `onSchedule`, which takes the param itself so the deployed job runs in the same zone. */
export const reportTimeZoneSetting = reportTimeZoneParam;

const reminderDaysParam = defineString('REMINDER_DAYS', {
  default: defaultReminderDays.join(','),
  description:
    'Comma-separated days before evidence goes stale, or an accepted risk expires, that webhooks send a reminder ' +
    '(evidence.expiring, exception.expiring), e.g. 30,7,1.',
});
const reminderDaysValue = readOnce(reminderDaysParam);

/** The reminder days, whole numbers from 1 to 366, largest first; the defaults when none is valid. */
export function reminderDays(): readonly number[] {
  const days = parseCommaList(reminderDaysValue() ?? '')
    .map(Number)
    .filter((day) => Number.isInteger(day) && day >= 1 && day <= 366);
  return days.length > 0 ? [...new Set(days)].sort((a, b) => b - a) : defaultReminderDays;
}

const submissionReviewParam = defineString('SUBMISSION_REVIEW', {
  default: 'optional',
  description:
    'Whether a submission counts before someone other than its submitter accepts it: `optional` (it counts at once; ' +
    'a review is only recorded) or `required` (its attestation counts once accepted, and reports list what awaits review).',
});
const submissionReviewValue = readOnce(submissionReviewParam);

/** `required` only when set so; anything else reads as the default, `optional`. */
export function submissionReview(): SubmissionReviewMode {
  return submissionReviewValue() === 'required' ? 'required' : 'optional';
}

const runAbandonHoursParam = defineInt('RUN_ABANDON_HOURS', {
  default: 6,
  description:
    'Hours a collection run may stay open: one not completed by then reads as incomplete (abandoned) and takes no ' +
    'more batches (1-168).',
});
const runAbandonHoursValue = readOnce(runAbandonHoursParam);

/** Hours a collection run stays open, a whole number from 1 to 168 (a week); 6 when unset or out of range. */
export function runAbandonHours(): number {
  const hours = runAbandonHoursValue();
  return Number.isInteger(hours) && hours >= 1 && hours <= 168 ? hours : 6;
}

const populationDropPercentParam = defineInt('POPULATION_DROP_PERCENT', {
  default: 10,
  description:
    'Percent by which the population of a (source, kind) may shrink between two complete collection runs before ' +
    'it is a drop that someone must acknowledge (1-100).',
});
const populationDropPercentValue = readOnce(populationDropPercentParam);

/** How far a population may shrink before it is a drop, a whole percent from 1 to 100; 10 when unset or out of range. */
export function populationDropPercent(): number {
  const percent = populationDropPercentValue();
  return Number.isInteger(percent) && percent >= 1 && percent <= 100 ? percent : 10;
}

const auditPackageDaysParam = defineInt('AUDIT_PACKAGE_DAYS', {
  default: defaultAuditPackageDays,
  description: 'Days a background-built audit package is kept before it lapses and is deleted (1-365).',
});
const auditPackageDaysValue = readOnce(auditPackageDaysParam);

/** Days a built audit package is kept, a whole number from 1 to 365; 14 when unset or out of range. */
export function auditPackageDays(): number {
  const days = auditPackageDaysValue();
  return Number.isInteger(days) && days >= 1 && days <= 365 ? days : defaultAuditPackageDays;
}

const reportTimeZoneValue = readOnce(reportTimeZoneParam);

export function reportTimeZone(): string {
  return reportTimeZoneValue() || 'UTC';
}

/**
 * When the daily report runs, in cron syntax, in `REPORT_TIME_ZONE`. Read when the functions are
 * deployed (a schedule cannot be a run-time param): set it in `functions/.env.<project>`.
 */
export function reportSchedule(): string {
  return process.env.REPORT_SCHEDULE || '0 6 * * *';
}

/**
 * The service account the functions run as, by email, which also signs their Cloud Tasks and
 * Cloud Scheduler calls; unset, the project's default compute service account. Read when the
 * functions are deployed, like the schedule: set `RUNTIME_SERVICE_ACCOUNT` in
 * `functions/.env.<project>` (docs/deployment.md, "The runtime service account").
 */
export function runtimeServiceAccount(): string | undefined {
  return process.env.RUNTIME_SERVICE_ACCOUNT || undefined;
}

/**
 * The built-in connectors this deployment runs, by id, comma-separated (`github,okta`); none when
 * unset. Read when the functions are deployed, like the schedule, because it decides which
 * connectors' secrets are bound to the worker (a deploy fails on a bound secret that is not set):
 * set `CONNECTORS` in `functions/.env.<project>` (docs/connectors.md).
 */
export function enabledConnectors(): ReadonlySet<string> {
  return new Set(parseCommaList(process.env.CONNECTORS ?? ''));
}

/**
 * Emulators only: stand-ins that speak a vendor's protocol, by connector id, for the connectors
 * whose address is not a setting (`EVIDENT_STAND_INS`, JSON: `{"google-cloud": {"endpoint":
 * "127.0.0.1:7001", "token": "…"}}`). `npm start` and the tests set it; a deployment never has one.
 */
export function connectorStandIns(): Readonly<Record<string, { endpoint: string; token: string }>> {
  if (!inEmulator() || !process.env.EVIDENT_STAND_INS) return {};
  return JSON.parse(process.env.EVIDENT_STAND_INS) as Record<string, { endpoint: string; token: string }>;
}

const authRequiredValue = readOnce(authRequiredParam);
const idpProjectIdValue = readOnce(idpProjectIdParam);
const corsOriginsValue = readOnce({ value: () => parseCommaList(corsOriginsParam.value()) });

export function authRequired(): boolean {
  return authRequiredValue();
}

export function idpProjectId(): string {
  return idpProjectIdValue() || runtimeProjectId();
}

export function corsOrigins(): readonly string[] {
  return corsOriginsValue();
}

/** The sign-in policy's domains (functions/src/sign-in/sign-in-policy.ts), read on each sign-in. */
export function allowedEmailDomains(): readonly string[] {
  return parseCommaList(allowedEmailDomainsParam.value());
}

export function allowedEmails(): readonly string[] {
  return parseCommaList(allowedEmailsParam.value());
}

/**
 * Local only: whether the sign-in policy counts password accounts as verified
 * (`EVIDENT_TRUST_PASSWORD_ACCOUNTS=true`, set by the demo projects). The Auth emulator cannot
 * verify a password sign-up, and the tests and docs sign up that way to stand in for a
 * deployment's collector accounts, which an administrator creates verified. Honoured only inside
 * the emulators, so no deployment can be configured out of verification.
 */
export function trustPasswordAccounts(): boolean {
  return inEmulator() && process.env.EVIDENT_TRUST_PASSWORD_ACCOUNTS === 'true';
}

/** Whether the functions run inside the Firebase emulators (which set FUNCTIONS_EMULATOR). */
export function inEmulator(): boolean {
  return process.env.FUNCTIONS_EMULATOR === 'true';
}

/**
 * Test-only faults for the analysis worker (`EVIDENT_FAULT_INJECTION`, JSON), honoured only in
 * the emulators; see analyses/fault-injection.ts. Undefined everywhere else.
 */
export function faultInjection(): string | undefined {
  return inEmulator() ? process.env.EVIDENT_FAULT_INJECTION || undefined : undefined;
}

/**
 * The exported function this process serves. Cloud Run functions and the emulator set
 * `FUNCTION_TARGET` (each instance serves one function); functions-framework also takes
 * `--target`. Undefined when nothing says, as in tests that mount a family directly.
 */
export function functionTarget(): string | undefined {
  if (process.env.FUNCTION_TARGET) return process.env.FUNCTION_TARGET;
  const flag = process.argv.findIndex((arg) => arg === '--target' || arg.startsWith('--target='));
  if (flag === -1) return undefined;
  const arg = process.argv[flag]!;
  return arg.includes('=') ? arg.slice('--target='.length) : process.argv[flag + 1];
}

/** The project the functions run in, as the runtime (or the emulator) announces it. */
export function runtimeProjectId(): string {
  return process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? '';
}

/** A comma-separated setting (origins, domains, addresses) as its trimmed, non-empty entries. */
export function parseCommaList(value: string): readonly string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * The key ring that seals webhook signing secrets and URLs at rest (webhooks/webhook-keys.ts):
 * one or more 32-byte keys in base64, comma-separated, the sealing one first. A secret in
 * Secret Manager, set with `firebase functions:secrets:set WEBHOOK_SECRET_KEY`, and given only
 * to the functions that seal or open credentials (`secrets` in index.ts); the emulators read
 * it from `functions/.secret.local`, which the scripts write with a key of this machine's own.
 */
export const webhookSecretKeySetting = defineSecret('WEBHOOK_SECRET_KEY');

export function webhookSecretKey(): string {
  return webhookSecretKeySetting.value();
}

/**
 * The Ed25519 private key audit packages' manifests are signed with (audit/package-signing-key.ts):
 * PKCS#8, as PEM or as its DER in base64 on one line. A secret in Secret Manager, set with
 * `openssl genpkey -algorithm ed25519 | npx firebase functions:secrets:set AUDIT_SIGNING_KEY --data-file=-`,
 * and given only to the function that builds packages; the emulators read it from
 * `functions/.secret.local`, which the scripts write with a key of this machine's own.
 */
export const auditSigningKeySetting = defineSecret('AUDIT_SIGNING_KEY');

export type StoreLocation = { kind: 'local'; dir: string } | { kind: 'cloud'; bucket: string };

/**
 * Where objects live. Environment, not deploy params, because only local runs choose:
 * `STORAGE_EMULATOR_HOST` (read by the Cloud Storage client) selects Cloud Storage against that
 * emulator; inside the Firebase emulators otherwise a folder, `EVIDENT_STORE_DIR` (default
 * `.local/store` at the repository root); in production the project's default bucket, or
 * `EVIDENT_BUCKET` when set.
 */
export function storeLocation(): StoreLocation {
  const bucket = process.env.EVIDENT_BUCKET || defaultBucket();
  if (process.env.STORAGE_EMULATOR_HOST) return { kind: 'cloud', bucket };
  const dir = process.env.EVIDENT_STORE_DIR;
  if (dir) return { kind: 'local', dir };
  if (process.env.FUNCTIONS_EMULATOR === 'true') {
    return { kind: 'local', dir: join(repositoryRoot(), '.local', 'store') };
  }
  return { kind: 'cloud', bucket };
}

/**
 * The repository this module runs from: the nearest folder above it holding `firebase.json`.
 * Found by looking, not by a fixed `../..`, because the compiled module sits at a different
 * depth bundled (lib/chunks/) than on its own (lib/).
 */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'firebase.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function defaultBucket(): string {
  try {
    const firebaseConfig = JSON.parse(process.env.FIREBASE_CONFIG ?? '{}') as { storageBucket?: string };
    if (firebaseConfig.storageBucket) return firebaseConfig.storageBucket;
  } catch {
    // fall through to the conventional name
  }
  return `${runtimeProjectId()}.firebasestorage.app`;
}
