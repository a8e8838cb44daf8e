/**
 * Evident's Cloud Functions: one HTTPS function per `/api` route family, each reached through
 * a Hosting rewrite in `firebase.json`. This file only wires families to triggers; each family
 * module is loaded on its function's first request so no function pays for another's code.
 */
import { onRequest, type HttpsOptions } from 'firebase-functions/v2/https';
import { beforeUserCreated, beforeUserSignedIn } from 'firebase-functions/v2/identity';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { onTaskDispatched } from 'firebase-functions/v2/tasks';
import * as config from './config.js'; // declares the params, so deploys and the emulator know them
import { bodyPolicyFor, installRuntimeGuard } from './http/runtime-guard.js';
import { lazyHandler } from './http/lazy-handler.js';
import { workerRetry } from './analyses/task-queue.js';
import { deliveryRetry, deliveryRetryUnderTest } from './webhooks/webhook-dispatch.js';

// Bodies are read within this function's limit before the runtime's parsers see them.
installRuntimeGuard({ bodies: () => bodyPolicyFor(config.functionTarget()) });

const http: HttpsOptions = {
  invoker: 'public',
  timeoutSeconds: 60,
  // CORS is the HTTP core's job (CORS_ORIGINS, read per request). The emulator would otherwise
  // allow every origin (its enableCors debug feature); `cors: false` stops that so local runs
  // behave like production, where the option would only add a wrapper to every request.
  ...(config.inEmulator() ? { cors: false } : {}),
};

export const auth = onRequest(
  http,
  lazyHandler('auth', () => import('./families/auth.js')),
);
export const docs = onRequest(
  http,
  lazyHandler('docs', () => import('./families/docs.js')),
);
export const report = onRequest(
  http,
  lazyHandler('report', () => import('./families/report.js')),
);
export const controls = onRequest(
  http,
  lazyHandler('controls', () => import('./families/controls.js')),
);
export const frameworks = onRequest(
  http,
  lazyHandler('frameworks', () => import('./families/frameworks.js')),
);
export const exceptions = onRequest(
  http,
  lazyHandler('exceptions', () => import('./families/exceptions.js')),
);
// A long period's package streams for minutes when called directly; Hosting still cuts at 60 s.
export const audit = onRequest(
  { ...http, timeoutSeconds: 540, memory: '512MiB' },
  lazyHandler('audit', () => import('./families/audit.js')),
);
export const evidence = onRequest(
  { ...http, memory: '512MiB' },
  lazyHandler('evidence', () => import('./families/evidence.js')),
);
export const submissions = onRequest(
  { ...http, memory: '512MiB' },
  lazyHandler('submissions', () => import('./families/submissions.js')),
);

export const analyses = onRequest(
  http,
  lazyHandler('analyses', () => import('./families/analyses.js')),
);

// The two functions that seal or open webhook credentials are the only ones given the key.
export const webhooks = onRequest(
  { ...http, secrets: [config.webhookSecretKeySetting] },
  lazyHandler('webhooks', () => import('./families/webhooks.js')),
);

export const chat = onRequest(
  { ...http, memory: '512MiB' },
  lazyHandler('chat', () => import('./families/chat.js')),
);

/**
 * Runs analyses off the request path. Cloud Tasks retries a failed attempt with backoff; the
 * worker resumes from the run's persisted events, and its last attempt marks the run failed.
 */
export const analysisWorker = onTaskDispatched<{ runId: string }>(
  {
    retryConfig: { ...workerRetry },
    rateLimits: { maxConcurrentDispatches: 10 },
    timeoutSeconds: 540,
    memory: '1GiB',
  },
  async (request) => {
    const { runAnalysisTask } = await import('./jobs/analysis-job.js');
    await runAnalysisTask(request.data.runId, request.retryCount);
  },
);

/**
 * Sends webhook deliveries off the request path, one attempt per task. Cloud Tasks retries a
 * failed attempt with exponential back-off; the last attempt marks the delivery failed.
 */
export const deliverWebhook = onTaskDispatched<{ deliveryId: string }>(
  {
    retryConfig: { ...(config.faultInjection() ? deliveryRetryUnderTest : deliveryRetry) },
    rateLimits: { maxConcurrentDispatches: 20 },
    timeoutSeconds: 60,
    secrets: [config.webhookSecretKeySetting],
  },
  async (request) => {
    const { runDeliveryTask } = await import('./jobs/webhook-job.js');
    await runDeliveryTask(request.data.deliveryId, request.retryCount);
  },
);

/** The daily report. The emulator never fires it; locally `npm run daily-report` runs the same job. */
export const dailyReport = onSchedule(
  { schedule: config.reportSchedule(), timeZone: config.reportTimeZoneSetting, timeoutSeconds: 540, retryCount: 3 },
  async () => {
    const { runDailyReport } = await import('./jobs/daily-report-job.js');
    await runDailyReport('schedule');
  },
);

/**
 * Development only: the same job over HTTP, because the emulator does not fire schedules. It
 * is exported only inside the emulator, so it never exists in a deployed project.
 */
export const devDailyReport = config.inEmulator()
  ? onRequest({ ...http, invoker: 'private' }, async (req, res) => {
      const { runDailyReport } = await import('./jobs/daily-report-job.js');
      const outcome = await runDailyReport('dev-trigger');
      res.status(outcome.created ? 201 : 200).json(outcome);
    })
  : undefined;

export const fallback = onRequest(
  http,
  lazyHandler('fallback', () => import('./families/fallback.js')),
);

/**
 * Identity Platform calls these before it creates an account and before it issues a token, and
 * refuses the sign-in when they throw. The server accepts every valid token of the project, so
 * this is what keeps the organisation's data to its people (docs/deployment.md). `firebase
 * deploy` registers them with the project; the policy loads on the first sign-in.
 */
export const beforeCreate = beforeUserCreated(async (event) => {
  const { enforceSignInPolicy } = await import('./sign-in/sign-in-gate.js');
  enforceSignInPolicy('beforeCreate', event);
});
export const beforeSignIn = beforeUserSignedIn(async (event) => {
  const { enforceSignInPolicy } = await import('./sign-in/sign-in-gate.js');
  enforceSignInPolicy('beforeSignIn', event);
});
