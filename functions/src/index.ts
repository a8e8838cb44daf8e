/**
 * Evident's Cloud Functions: one HTTPS function per `/api` route family, each reached through
 * a Hosting rewrite in `firebase.json` (generated from the description's families, as the
 * family table below is keyed by them). This file only wires families to triggers; each family
 * module is loaded on its function's first request so no function pays for another's code.
 */
import { onRequest, type HttpsFunction, type HttpsOptions } from 'firebase-functions/v2/https';
import { beforeUserCreated, beforeUserSignedIn } from 'firebase-functions/v2/identity';
import { setGlobalOptions } from 'firebase-functions/v2/options';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { onTaskDispatched } from 'firebase-functions/v2/tasks';
import { defineSecret } from 'firebase-functions/params';
import * as config from './config.js'; // declares the params, so deploys and the emulator know them
import { bodyPolicyFor, installRuntimeGuard } from './http/runtime-guard.js';
import type { HttpHandler } from './http/create-family.js';
import { lazyHandler } from './http/lazy-handler.js';
import type { Family } from './http/operation-types.js';
import { workerRetry } from './analyses/task-queue.js';
import { auditPackageWorkerRetry } from './audit/package-queue.js';
import { connectorWorkerRetry } from './connectors/connector-queue.js';
import { builtInConnectors, secretNamesOf } from './connectors/registry.js';
import { deliveryRetry, deliveryRetryInEmulator } from './webhooks/webhook-dispatch.js';

// Bodies are read within this function's limit before the runtime's parsers see them.
installRuntimeGuard({ bodies: () => bodyPolicyFor(config.functionTarget()) });

// Every function in one region (which the Hosting rewrites and the task queues' addresses name
// too), running as the deployment's own service account when it names one.
const serviceAccount = config.runtimeServiceAccount();
setGlobalOptions({ region: config.functionsRegion, ...(serviceAccount ? { serviceAccount } : {}) });
// That account queues the tasks and calls the workers with its own token, so a deploy grants it
// those two rights on each queue and worker (roles/cloudtasks.enqueuer, roles/run.invoker).
const taskCallers = serviceAccount ? { invoker: serviceAccount } : {};

/*
 * Memory and time, set for every function here, each with why. Cloud Run functions give CPU in
 * proportion to memory, and bill both per instance-second, so a function gets what its largest
 * legitimate request needs and no more. Every `/api` family is reached through Hosting, which
 * cuts a request at 60 s, so 60 s is their timeout unless a direct call may stream longer.
 */
/** What a family needs that holds one request's worth of data: a page, a report, a small body. */
const small = { memory: '256MiB', timeoutSeconds: 60 } as const;
/**
 * A family whose requests hold up to tens of MiB: the OCSF import (a 16 MiB file, its text, up
 * to 5,000 items and their serialised batch), uploads (51 MiB bodies), the chat's reports.
 */
const large = { memory: '512MiB', timeoutSeconds: 60 } as const;
/**
 * Whatever holds a day's evidence state: the daily job, today's first read (which runs it) and
 * the analysis worker. The state is bounded at `maxLiveEvidenceBytes` (64 MiB as stored JSON,
 * assessment/evidence-state.ts), whose evaluation peaks at up to four times as much heap. Node
 * sizes its heap from the instance's memory (V8 gives its old generation a quarter), so 2 GiB
 * gives it 512 MiB: twice what the worst case needs (`npm run bench -- --only daily-memory`
 * measures it). With the platform's default 256 MiB, an adversary's store killed the job.
 */
const stateMemory = '2GiB' as const;

const http: HttpsOptions = {
  invoker: 'public',
  // CORS is the HTTP core's job (CORS_ORIGINS, read per request). The emulator would otherwise
  // allow every origin (its enableCors debug feature); `cors: false` stops that so local runs
  // behave like production, where the option would only add a wrapper to every request.
  ...(config.inEmulator() ? { cors: false } : {}),
};

/**
 * Each `/api` family's memory and time (and secrets), with why. Keyed by the families the
 * description generates (generated/families.ts), so a family it gains does not compile until it
 * has its row here; the Hosting rewrites in firebase.json are generated from the same list.
 */
const familyOptions = {
  auth: small,
  docs: small,
  // Today's first read, before the schedule has run, produces the day's report: the daily job's memory.
  report: { ...small, memory: stateMemory },
  // A control's history reads a year of reports one at a time.
  controls: small,
  frameworks: small,
  exceptions: small,
  // A long period's package streams for minutes when called directly (Hosting still cuts at 60 s),
  // holding a window of evidence items and attachments ahead of the zip it writes.
  audit: { memory: '512MiB', timeoutSeconds: 540 },
  // At most 500 small requests, read a few at a time; an import's CSV is at most 512 KiB.
  requests: small,
  evidence: large,
  // Completing a run reads its receipts: up to 200,000 item ids held at once.
  runs: large,
  // Listing connectors and starting a run: the collecting itself runs in `connectorWorker`.
  connectors: small,
  submissions: large,
  // Starting a run and following its events: the evaluation itself runs in `analysisWorker`.
  analyses: small,
  // The two functions that seal or open webhook credentials are the only ones given the key.
  webhooks: { ...small, secrets: [config.webhookSecretKeySetting] },
  chat: large,
  // A tool call reads what a chat question reads: today's report, its index, and earlier days' reports.
  mcp: large,
  settings: small,
  fallback: small,
} satisfies Record<Family, Required<Pick<HttpsOptions, 'memory' | 'timeoutSeconds'>> & Pick<HttpsOptions, 'secrets'>>;

/**
 * A family's function, exported under the family's name (Firebase finds functions by export
 * name): its options from the table, its module loaded on its first request, so no function
 * loads another family's code.
 */
function familyFunction(family: Family, load: () => Promise<{ handler: HttpHandler }>): HttpsFunction {
  return onRequest({ ...http, ...familyOptions[family] }, lazyHandler(family, load));
}

export const auth = familyFunction('auth', () => import('./families/auth.js'));
export const docs = familyFunction('docs', () => import('./families/docs.js'));
export const report = familyFunction('report', () => import('./families/report.js'));
export const controls = familyFunction('controls', () => import('./families/controls.js'));
export const frameworks = familyFunction('frameworks', () => import('./families/frameworks.js'));
export const exceptions = familyFunction('exceptions', () => import('./families/exceptions.js'));
export const audit = familyFunction('audit', () => import('./families/audit.js'));
export const requests = familyFunction('requests', () => import('./families/requests.js'));
export const evidence = familyFunction('evidence', () => import('./families/evidence.js'));
export const runs = familyFunction('runs', () => import('./families/runs.js'));
export const submissions = familyFunction('submissions', () => import('./families/submissions.js'));
export const analyses = familyFunction('analyses', () => import('./families/analyses.js'));
export const chat = familyFunction('chat', () => import('./families/chat.js'));
export const mcp = familyFunction('mcp', () => import('./families/mcp.js'));
export const webhooks = familyFunction('webhooks', () => import('./families/webhooks.js'));
export const settings = familyFunction('settings', () => import('./families/settings.js'));
export const connectors = familyFunction('connectors', () => import('./families/connectors.js'));
export const fallback = familyFunction('fallback', () => import('./families/fallback.js'));

/**
 * Runs analyses off the request path. Cloud Tasks retries a failed attempt with backoff; the
 * worker resumes from the run's persisted events, and its last attempt marks the run failed.
 * It holds the day's evidence state as the daily job does, for up to the nine minutes a run of
 * every control may take.
 */
export const analysisWorker = onTaskDispatched<{ runId: string }>(
  {
    retryConfig: { ...workerRetry },
    rateLimits: { maxConcurrentDispatches: 10 },
    timeoutSeconds: 540,
    memory: stateMemory,
    ...taskCallers,
  },
  async (request) => {
    const { runAnalysisTask } = await import('./jobs/analysis-job.js');
    await runAnalysisTask(request.data.runId, request.retryCount);
  },
);

/**
 * Builds audit packages off the request path, one package per task: a year's package reads every
 * report and evidence item of the year and writes the zip in 8 MiB parts, holding the files the
 * builder holds and one part, so 1 GiB leaves room; it may take the longest time a task may.
 */
export const auditPackageWorker = onTaskDispatched<{ packageId: string }>(
  {
    retryConfig: { ...auditPackageWorkerRetry },
    rateLimits: { maxConcurrentDispatches: 2 },
    timeoutSeconds: 540,
    memory: '1GiB',
    // The key that signs packages' manifests, given to no other function.
    secrets: [config.auditSigningKeySetting],
    ...taskCallers,
  },
  async (request) => {
    const { runAuditPackageTask } = await import('./jobs/audit-package-job.js');
    await runAuditPackageTask(request.data);
  },
);

/**
 * The secrets of the connectors this deployment runs (`CONNECTORS`, read at deploy), given to
 * the connector worker and to no other function. A connector not enabled binds none, so a deploy
 * never asks for the secret of a connector nobody uses.
 */
const connectorSecrets = secretNamesOf(builtInConnectors, config.enabledConnectors()).map((name) => defineSecret(name));

/**
 * Runs connectors off the request path, one run per task. A connector reads page after page of a
 * vendor's API and holds one batch of items at a time, so 512 MiB is plenty; it may wait out a
 * vendor's rate limits, hence the longest time a task may take. A retried task ends a run whose
 * first attempt was lost instead of collecting it twice (connectors/connector-run.ts).
 */
export const connectorWorker = onTaskDispatched<{ connector: string; runId: string }>(
  {
    retryConfig: { ...connectorWorkerRetry },
    rateLimits: { maxConcurrentDispatches: 4 },
    timeoutSeconds: 1800,
    memory: '512MiB',
    secrets: connectorSecrets,
    ...taskCallers,
  },
  async (request) => {
    const { runConnectorTask } = await import('./jobs/connector-job.js');
    await runConnectorTask(request.data);
  },
);

/**
 * Queues each enabled connector whose cadence falls on the hour, counted from the hour before the
 * daily report so a daily connector's evidence is in before the report. Not exported inside the
 * emulator, which cannot fire schedules: there, "Run now" (and `npm start`) start runs.
 */
export const connectorSchedule = config.inEmulator()
  ? undefined
  : onSchedule({ schedule: '0 * * * *', timeZone: config.reportTimeZoneSetting, retryCount: 1, ...small }, async () => {
      const { runDueConnectors } = await import('./jobs/connector-job.js');
      await runDueConnectors();
    });

/**
 * Sends webhook deliveries off the request path, one attempt per task. Cloud Tasks retries a
 * failed attempt with exponential back-off; the last attempt marks the delivery failed. One
 * delivery is one small POST whose answer is read up to 64 KiB.
 */
export const deliverWebhook = onTaskDispatched<{ deliveryId: string }>(
  {
    retryConfig: { ...(config.inEmulator() ? deliveryRetryInEmulator : deliveryRetry) },
    rateLimits: { maxConcurrentDispatches: 20 },
    ...small,
    secrets: [config.webhookSecretKeySetting],
    ...taskCallers,
  },
  async (request) => {
    const { runDeliveryTask } = await import('./jobs/webhook-job.js');
    await runDeliveryTask(request.data.deliveryId, request.retryCount);
  },
);

/**
 * The daily report. Nine minutes, the most a scheduled function may take, for a day after a long
 * gap (every batch since the last checkpoint) and the webhooks that follow. The emulator cannot
 * fire a schedule (it would only log that it ignores this one), so inside it the job is not
 * exported; locally `npm run daily-report` runs it through `devDailyReport` below.
 */
const dailyJob = { timeoutSeconds: 540, memory: stateMemory } as const;
export const dailyReport = config.inEmulator()
  ? undefined
  : onSchedule(
      { schedule: config.reportSchedule(), timeZone: config.reportTimeZoneSetting, retryCount: 3, ...dailyJob },
      async () => {
        const { runDailyReport } = await import('./jobs/daily-report-job.js');
        await runDailyReport('schedule');
      },
    );

/**
 * Development only: the same job over HTTP, because the emulator does not fire schedules. It
 * is exported only inside the emulator, so it never exists in a deployed project. It answers 201
 * with the report it made, or 200 with `created: false` and `republish`, how to publish a new
 * version of today's report (docs/analyses.md).
 */
export const devDailyReport = config.inEmulator()
  ? onRequest({ ...http, invoker: 'private', ...dailyJob }, async (req, res) => {
      const { runDailyReport } = await import('./jobs/daily-report-job.js');
      const outcome = await runDailyReport('dev-trigger');
      res.status(outcome.created ? 201 : 200).json(outcome);
    })
  : undefined;

/**
 * Development only: every enabled, ready connector run now, because the emulator fires no
 * schedule. `npm start` calls it once the emulators are up, so the Sources page shows real runs
 * from the first start; it answers 202 with the runs queued (or why one was not).
 */
export const devRunConnectors = config.inEmulator()
  ? onRequest({ ...http, invoker: 'private', ...small }, async (req, res) => {
      const { runEveryConnector } = await import('./jobs/connector-job.js');
      res.status(202).json({ runs: await runEveryConnector() });
    })
  : undefined;

/**
 * Identity Platform calls these before it creates an account and before it issues a token, and
 * refuses the sign-in when they throw. The server accepts every valid token of the project, so
 * this is what keeps the organisation's data to its people (docs/deployment.md). `firebase
 * deploy` registers them with the project; the policy loads on the first sign-in.
 */
/** Identity Platform waits at most 7 s for a blocking function; the policy is a few string comparisons. */
const blocking = { memory: '256MiB', timeoutSeconds: 7 } as const;
export const beforeCreate = beforeUserCreated(blocking, async (event) => {
  const { enforceSignInPolicy } = await import('./sign-in/sign-in-gate.js');
  enforceSignInPolicy('beforeCreate', event);
});
export const beforeSignIn = beforeUserSignedIn(blocking, async (event) => {
  const { enforceSignInPolicy } = await import('./sign-in/sign-in-gate.js');
  enforceSignInPolicy('beforeSignIn', event);
});
