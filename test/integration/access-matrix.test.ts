/**
 * The access matrix, through Hosting on the emulators: every operation in the served OpenAPI
 * description × every kind of token, in the mode under test, with the exact status and body.
 * A new operation fails this test until it is given a sample request here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { maxActiveExceptionsPerSubject } from '@evident/contract';
import { standInSettings } from '../../scripts/lib/stand-ins.ts';
import { expectedProblem } from '../support/problems.ts';
import { until } from '../support/until.ts';
import {
  bearer,
  hosting,
  mode,
  signUp,
  tokenKinds,
  tokensOfEveryKind,
  type SignedIn,
  type TokenKind,
} from '../support/emulator.ts';

interface Sample {
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A fresh body for each request (POSTs must not collide across token kinds). */
  body?: () => BodyInit;
  headers?: Record<string, string>;
  /** The success status; 200 unless said. */
  status?: number;
  /** For docs pages: whether the page is gated. */
  gated?: boolean;
}

const today = new Date().toISOString().slice(0, 10);
let submissionId = '';
let evidenceId = '';
let analysisId = '';
let answerPath = '';
let exceptionId = '';
/** Exceptions to revoke, one per revocation the matrix makes: an exception is revoked once. */
const revocable: string[] = [];
/**
 * Exceptions to approve and to refuse, one per review the matrix makes (an exception is reviewed
 * once), requested by another user than the matrix's, whose own request it could not review.
 */
const approvable: string[] = [];
const refusable: string[] = [];
/** Submissions to review, one per review the matrix makes, made by another user than the matrix's (four eyes). */
const reviewable: string[] = [];
/** A collection run to read back, and runs to complete and to cancel, one per ending the matrix makes: a run ends once. */
let collectionRunId = '';
const completable: string[] = [];
const cancellable: string[] = [];
/** Runs with a population drop to acknowledge, one per acknowledgement the matrix makes: a drop is acknowledged once. */
const acknowledgeable: string[] = [];
const newCollectionRun = () => JSON.stringify({ source: 'matrix-runs', kinds: ['idp.user'] });
/**
 * Requests of the auditor's list, one per step the matrix takes, each at the version the step is
 * based on: fresh ones (version 1) to edit and to answer, answered ones (2) to accept and to
 * return, accepted ones (3) to reopen. A step is based on one version, so each is taken once.
 */
let auditRequestId = '';
const requestPools = {
  edit: [] as string[],
  answer: [] as string[],
  accept: [] as string[],
  return: [] as string[],
  reopen: [] as string[],
};
const newAuditRequest = () =>
  JSON.stringify({ controlId: 'IAM-01', period: { from: today, to: today }, description: `Matrix request ${randomUUID()}` });
const requestStep = (pool: keyof typeof requestPools, step: string, body: Record<string, unknown>): Sample => ({
  path: `/api/requests/${requestPools[pool].shift() ?? 'R0'}/${step}`,
  method: 'POST',
  body: () => JSON.stringify(body),
  headers: { 'Content-Type': 'application/json' },
});
let webhookId = '';
let deliveryId = '';
/** Webhook subscriptions to delete, one per deletion the matrix makes. */
const deletable: string[] = [];
/** A loopback port nothing listens on: deliveries fail there, and are only recorded. */
const newWebhook = () => JSON.stringify({ url: 'http://127.0.0.1:9/access-matrix', events: ['report.published'] });

/**
 * The newest version of the settings (beforeAll saves one) and what it holds: each save the
 * matrix makes stores them unchanged as the next version, so no other suite sees them change.
 */
let settingsVersion = 0;
/** An Okta connector run to read back, and the state it ended in. */
let connectorRunId = '';
let auditPackageId = '';
let connectorRunState = '';
let workspaceNeeds: string[] = [];
let settingsHeld: unknown;
const unchangedSettings = () =>
  JSON.stringify({ basedOn: settingsVersion, reason: 'Access matrix: saved unchanged.', settings: settingsHeld });

/**
 * Each control and subject today's report names, to accept one at a time from the last (beforeAll
 * fills it), away from the first failing subjects that the other suites accept risks for.
 */
const acceptable: { controlId: string; subject: string }[] = [];
/**
 * An exception in force until a month from now, for a control and subject no other request of
 * the matrix names: a subject may have only a few exceptions in force, and the matrix makes one
 * per request.
 */
const newException = () => {
  const { controlId, subject } = acceptable.pop()!;
  return JSON.stringify({
    controlId,
    subject,
    justification: 'Accepted while the identity provider is migrated.',
    expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  });
};

const newEvidence = () =>
  JSON.stringify({
    id: `matrix-${randomUUID()}`,
    kind: 'tls.endpoint',
    source: 'access-matrix',
    subject: 'matrix.example.com',
    collectedAt: new Date().toISOString(),
    data: { minTlsVersion: '1.3', hsts: true, certificateDaysLeft: 80, weakCiphers: false },
  });

/** A one-finding Prowler scan of a resource no other request names. */
const newScan = () =>
  JSON.stringify([
    {
      class_uid: 2004,
      metadata: { event_code: 's3_bucket_public_access', product: { name: 'Prowler' } },
      status_code: 'PASS',
      finding_info: { uid: `prowler-aws-s3_bucket_public_access-${randomUUID()}` },
      resources: [{ uid: `arn:aws:s3:::matrix-${randomUUID()}` }],
      cloud: { provider: 'aws', account: { uid: '123456789012' } },
      time: Math.floor(Date.now() / 1000),
    },
  ]);

function newSubmission(): FormData {
  const form = new FormData();
  form.append('controls', 'PPL-06');
  form.append('statement', 'The information security policy was approved.');
  form.append('attachments', new Blob(['approved by the board'], { type: 'text/plain' }), 'minutes.txt');
  return form;
}

/** One request per operation (two for docs pages: an open one and a gated one). */
const samples: Record<string, () => Sample[]> = {
  getAuthConfig: () => [{ path: '/api/auth/config' }],
  getCaller: () => [{ path: '/api/auth/me' }],
  listDocs: () => [{ path: '/api/docs/index' }],
  getDocPage: () => [
    { path: '/api/docs/page/getting-started', gated: false },
    { path: '/api/docs/page/methodology', gated: true },
  ],
  listReports: () => [{ path: '/api/report' }],
  getTodayReport: () => [{ path: '/api/report/today' }],
  getReport: () => [{ path: `/api/report/${today}` }],
  getReportOscal: () => [{ path: `/api/report/${today}/oscal` }],
  listControls: () => [{ path: '/api/controls' }],
  getControl: () => [{ path: '/api/controls/IAM-01' }],
  getControlHistory: () => [{ path: '/api/controls/IAM-01/history' }],
  exportControlHistory: () => [{ path: '/api/controls/IAM-01/history.csv' }],
  getControlSample: () => [{ path: '/api/controls/IAM-01/sample?size=5&seed=access' }],
  exportControlSample: () => [
    { path: '/api/controls/IAM-01/sample.csv?size=5&seed=access' },
    { path: '/api/controls/IAM-01/sample.csv?rows=population' },
  ],
  getControlPopulation: () => [{ path: '/api/controls/IAM-01/population?kind=idp.user&limit=5' }],
  exportControlPopulation: () => [{ path: '/api/controls/IAM-01/population.csv?kind=idp.user' }],
  getControlSubjectSample: () => [{ path: '/api/controls/IAM-01/population/sample?kind=idp.user&seed=matrix&size=3' }],
  exportControlSubjectSample: () => [{ path: '/api/controls/IAM-01/population/sample.csv?kind=idp.user&seed=matrix&size=3' }],
  getCatalogOscal: () => [{ path: '/api/controls/oscal' }],
  createException: () => [
    { path: '/api/exceptions', method: 'POST', body: newException, headers: { 'Content-Type': 'application/json' }, status: 201 },
  ],
  listExceptions: () => [{ path: '/api/exceptions?state=requested' }],
  getException: () => [{ path: `/api/exceptions/${exceptionId}` }],
  approveException: () => [{ path: `/api/exceptions/${approvable.shift() ?? 'none'}/approve`, method: 'POST' }],
  refuseException: () => [
    {
      path: `/api/exceptions/${refusable.shift() ?? 'none'}/refuse`,
      method: 'POST',
      body: () => JSON.stringify({ reason: 'Fix it instead.' }),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  revokeException: () => [{ path: `/api/exceptions/${revocable.shift() ?? 'none'}/revoke`, method: 'POST' }],
  getReportPoam: () => [{ path: `/api/report/${today}/poam` }],
  listReportVersions: () => [{ path: `/api/report/${today}/versions` }],
  getReportVersion: () => [{ path: `/api/report/${today}/versions/1` }],
  listFrameworks: () => [{ path: '/api/frameworks' }],
  getAuditPackage: () => [{ path: `/api/audit/package?from=${today}&to=${today}` }],
  // The package of today, built once before: asking again hands it back.
  startAuditPackage: () => [
    {
      path: '/api/audit/packages',
      method: 'POST',
      body: () => JSON.stringify({ from: today, to: today }),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  listAuditPackages: () => [{ path: '/api/audit/packages' }],
  getAuditPackageBuild: () => [{ path: `/api/audit/packages/${auditPackageId}` }],
  streamAuditPackageEvents: () => [{ path: `/api/audit/packages/${auditPackageId}/events` }],
  downloadAuditPackage: () => [
    { path: `/api/audit/packages/${auditPackageId}/download`, headers: { Range: 'bytes=0-3' }, status: 206 },
  ],
  createAuditRequest: () => [
    {
      path: '/api/requests',
      method: 'POST',
      body: newAuditRequest,
      headers: { 'Content-Type': 'application/json' },
      status: 201,
    },
  ],
  listAuditRequests: () => [{ path: '/api/requests?control=IAM-01' }],
  getAuditRequest: () => [{ path: `/api/requests/${auditRequestId}` }],
  editAuditRequest: () => [requestStep('edit', 'edit', { basedOn: 1, description: 'Edited by the matrix' })],
  answerAuditRequest: () => [requestStep('answer', 'answers', { basedOn: 1, add: [{ kind: 'evidence', ref: evidenceId }] })],
  acceptAuditRequest: () => [requestStep('accept', 'accept', { basedOn: 2 })],
  returnAuditRequest: () => [requestStep('return', 'return', { basedOn: 2, comment: 'Returned by the matrix' })],
  reopenAuditRequest: () => [requestStep('reopen', 'reopen', { basedOn: 3, comment: 'Reopened by the matrix' })],
  importAuditRequests: () => [
    {
      path: '/api/requests/import',
      method: 'POST',
      body: () => `control,from,to,description\r\nIAM-01,${today},${today},Matrix import ${randomUUID()}\r\n`,
      headers: { 'Content-Type': 'text/csv' },
      status: 201,
    },
  ],
  exportAuditRequests: () => [{ path: '/api/requests/export.csv' }],
  getAuditSigningKey: () => [{ path: '/api/audit/signing-key' }],
  getFramework: () => [{ path: '/api/frameworks/soc2' }],
  ingestEvidence: () => [
    { path: '/api/evidence', method: 'POST', body: newEvidence, headers: { 'Content-Type': 'application/json' }, status: 201 },
  ],
  importOcsfFindings: () => [
    {
      path: '/api/evidence/imports/ocsf',
      method: 'POST',
      body: newScan,
      headers: { 'Content-Type': 'application/json' },
      status: 201,
    },
  ],
  listEvidence: () => [{ path: '/api/evidence?limit=1' }],
  getEvidence: () => [{ path: `/api/evidence/${evidenceId}` }],
  openCollectionRun: () => [
    { path: '/api/runs', method: 'POST', body: newCollectionRun, headers: { 'Content-Type': 'application/json' }, status: 201 },
  ],
  listCollectionRuns: () => [{ path: '/api/runs?source=matrix-runs&limit=1' }],
  listCollectionSources: () => [{ path: '/api/runs/sources?limit=1' }],
  listCollectionPopulations: () => [{ path: '/api/runs/populations?source=matrix-drops-0&kind=idp.user&limit=1' }],
  getCollectionRun: () => [{ path: `/api/runs/${collectionRunId}` }],
  completeCollectionRun: () => [
    {
      path: `/api/runs/${completable.shift() ?? 'none'}/complete`,
      method: 'POST',
      body: () => JSON.stringify({ counts: { 'idp.user': 0 } }),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  cancelCollectionRun: () => [{ path: `/api/runs/${cancellable.shift() ?? 'none'}/cancel`, method: 'POST' }],
  acknowledgeCollectionRunDrop: () => [
    {
      path: `/api/runs/${acknowledgeable.shift() ?? 'run-000000000-000000000000'}/drops/idp.user/acknowledge`,
      method: 'POST',
      body: () => JSON.stringify({ reason: 'Matrix: the population shrank on purpose' }),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  createSubmission: () => [{ path: '/api/submissions', method: 'POST', body: newSubmission, status: 201 }],
  listSubmissions: () => [{ path: '/api/submissions?limit=1' }],
  getSubmission: () => [{ path: `/api/submissions/${submissionId}` }],
  downloadAttachment: () => [{ path: `/api/submissions/${submissionId}/attachments/0` }],
  reviewSubmission: () => [
    {
      path: `/api/submissions/${reviewable.shift() ?? 'none'}/review`,
      method: 'POST',
      body: () => JSON.stringify({ decision: 'accepted' }),
      headers: { 'Content-Type': 'application/json' },
      status: 201,
    },
  ],
  startAnalysis: () => [
    {
      path: '/api/analyses',
      method: 'POST',
      body: () => JSON.stringify({ controls: ['IAM-01'] }),
      headers: { 'Content-Type': 'application/json' },
      status: 202,
    },
  ],
  listAnalyses: () => [{ path: '/api/analyses?limit=1' }],
  getAnalysis: () => [{ path: `/api/analyses/${analysisId}` }],
  cancelAnalysis: () => [{ path: `/api/analyses/${analysisId}/cancel`, method: 'POST' }],
  streamAnalysisEvents: () => [{ path: `/api/analyses/${analysisId}/events` }],
  chat: () => [
    {
      path: '/api/chat',
      method: 'POST',
      body: () => JSON.stringify({ message: 'What is the status of IAM-01?' }),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  streamChatAnswer: () => [{ path: answerPath }],
  mcp: () => [
    {
      path: '/api/mcp',
      method: 'POST',
      body: () =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'status', arguments: { topic: { controlIds: ['IAM-01'], label: 'IAM-01', source: 'id' } } },
        }),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    },
  ],
  createWebhook: () => [
    { path: '/api/webhooks', method: 'POST', body: newWebhook, headers: { 'Content-Type': 'application/json' }, status: 201 },
  ],
  listWebhooks: () => [{ path: '/api/webhooks' }],
  getWebhook: () => [{ path: `/api/webhooks/${webhookId}` }],
  deleteWebhook: () => [{ path: `/api/webhooks/${deletable.shift() ?? 'wh-000000000000'}`, method: 'DELETE', status: 204 }],
  pingWebhook: () => [{ path: `/api/webhooks/${webhookId}/ping`, method: 'POST', status: 202 }],
  listWebhookDeliveries: () => [{ path: `/api/webhooks/${webhookId}/deliveries?limit=1` }],
  redeliverWebhook: () => [
    { path: `/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, method: 'POST', status: 202 },
  ],
  listConnectors: () => [{ path: '/api/connectors' }],
  getConnector: () => [{ path: '/api/connectors/okta' }],
  // Google Workspace has no settings here: authorised callers reach the handler, which refuses it.
  startConnectorRun: () => [{ path: '/api/connectors/google-workspace/runs', method: 'POST', status: 409 }],
  getConnectorRun: () => [{ path: `/api/connectors/okta/runs/${connectorRunId}` }],
  cancelConnectorRun: () => [{ path: `/api/connectors/okta/runs/${connectorRunId}/cancel`, method: 'POST', status: 409 }],
  streamConnectorRunEvents: () => [{ path: `/api/connectors/okta/runs/${connectorRunId}/events` }],
  getSettings: () => [{ path: '/api/settings' }],
  saveSettings: () => [
    { path: '/api/settings', method: 'PUT', body: unchangedSettings, headers: { 'Content-Type': 'application/json' } },
  ],
  listSettingsVersions: () => [{ path: '/api/settings/versions?limit=1' }],
  getSettingsVersion: () => [{ path: `/api/settings/versions/${settingsVersion}` }],
};

let spec: OpenAPIObject;
let user: SignedIn;
let tokens: Record<TokenKind, string | undefined>;

beforeAll(async () => {
  spec = (await (await fetch(`${hosting}/api/openapi.json`)).json()) as OpenAPIObject;
  ({ user, tokens } = await tokensOfEveryKind());
  // Something to read back: one evidence item and one submission, sent with a valid token.
  const ingested = await fetch(`${hosting}/api/evidence`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
    body: newEvidence(),
  });
  evidenceId = ((await ingested.json()) as { items: { id: string }[] }).items[0]!.id;
  const submitted = await fetch(`${hosting}/api/submissions`, {
    method: 'POST',
    headers: bearer(tokens.valid),
    body: newSubmission(),
  });
  submissionId = ((await submitted.json()) as { id: string }).id;
  const todays = await fetch(`${hosting}/api/report/today`, { headers: bearer(tokens.valid) });
  expect(todays.status).toBe(200);
  const { controls } = (await todays.json()) as { controls: { id: string; findings: { subject?: string }[] }[] };
  const named = controls.flatMap(({ id, findings }) => findings.flatMap(({ subject }) => (subject ? [`${id} ${subject}`] : [])));
  // Each pair twice: a subject may have 3 exceptions requested or active, and the matrix makes more
  // requests than today's report has pairs; the third place stays free for the other suites.
  for (const pair of new Set(named)) {
    const [controlId, ...rest] = pair.split(' ');
    for (let use = 0; use < maxActiveExceptionsPerSubject - 1; use++)
      acceptable.push({ controlId: controlId!, subject: rest.join(' ') });
  }
  // A cancelled run to read back: runs for 2025-01-08 go slowly in the test emulators, so the cancel lands.
  const started = await fetch(`${hosting}/api/analyses`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
    body: JSON.stringify({ date: '2025-01-08' }),
  });
  analysisId = ((await started.json()) as { id: string }).id;
  const cancelled = await fetch(`${hosting}/api/analyses/${analysisId}/cancel`, {
    method: 'POST',
    headers: bearer(tokens.valid),
  });
  expect(cancelled.status).toBe(200);
  const asked = await fetch(`${hosting}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...bearer(tokens.valid) },
    body: JSON.stringify({ message: 'What is our score?' }),
  });
  answerPath = asked.headers.get('content-location')!;
  await asked.text();
  for (let n = 0; n <= tokenKinds.length; n++) {
    const created = await fetch(`${hosting}/api/exceptions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
      body: newException(),
    });
    expect(created.status).toBe(201);
    revocable.push(((await created.json()) as { id: string }).id);
  }
  exceptionId = revocable.pop()!;
  for (const pool of [completable, cancellable]) {
    for (let n = 0; n <= tokenKinds.length; n++) {
      const opened = await fetch(`${hosting}/api/runs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
        body: newCollectionRun(),
      });
      expect(opened.status).toBe(201);
      pool.push(((await opened.json()) as { id: string }).id);
    }
  }
  collectionRunId = completable.pop()!;
  // A drop needs two complete runs of one source, the second with fewer subjects: a fresh source each.
  for (let n = 0; n <= tokenKinds.length; n++) {
    const source = `matrix-drops-${n}`;
    for (const subjects of [['ada', 'bob'], ['cy']]) {
      const call = (path: string, body: unknown) =>
        fetch(`${hosting}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
          body: JSON.stringify(body),
        });
      const run = (await (await call('/api/runs', { source, kinds: ['idp.user'] })).json()) as { id: string };
      const items = subjects.map((name) => ({
        kind: 'idp.user',
        source,
        subject: `${name}-${n}@example.com`,
        collectedAt: new Date().toISOString(),
        data: { email: `${name}-${n}@example.com`, active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
      }));
      expect((await call(`/api/evidence?run=${run.id}`, { items })).status).toBe(201);
      const done = (await (await call(`/api/runs/${run.id}/complete`, { counts: { 'idp.user': subjects.length } })).json()) as {
        id: string;
        drops?: unknown[];
      };
      if (subjects.length === 1) {
        expect(done.drops?.length).toBe(1);
        acknowledgeable.push(done.id);
      }
    }
  }
  const requester = await signUp();
  for (const pool of [approvable, refusable]) {
    for (let n = 0; n < tokenKinds.length; n++) {
      const created = await fetch(`${hosting}/api/exceptions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(requester.idToken) },
        body: newException(),
      });
      expect(created.status).toBe(201);
      pool.push(((await created.json()) as { id: string }).id);
    }
  }
  for (let n = 0; n < tokenKinds.length; n++) {
    const submitted = await fetch(`${hosting}/api/submissions`, {
      method: 'POST',
      headers: bearer(requester.idToken),
      body: newSubmission(),
    });
    expect(submitted.status).toBe(201);
    reviewable.push(((await submitted.json()) as { id: string }).id);
  }
  for (let n = 0; n <= tokenKinds.length; n++) {
    const created = await fetch(`${hosting}/api/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
      body: newWebhook(),
    });
    expect(created.status).toBe(201);
    deletable.push(((await created.json()) as { id: string }).id);
  }
  webhookId = deletable.pop()!;
  const pinged = await fetch(`${hosting}/api/webhooks/${webhookId}/ping`, { method: 'POST', headers: bearer(tokens.valid) });
  deliveryId = ((await pinged.json()) as { id: string }).id;
  // A saved version to read back, holding the settings as they are (the defaults on a fresh store),
  // with Okta pointed at its stand-in and Google Workspace left without its settings, whatever
  // another suite saved: a connector run to read back, and a connector that cannot start.
  const current = (await (await fetch(`${hosting}/api/settings`, { headers: bearer(tokens.valid) })).json()) as {
    version: number | null;
    settings: { connectors: Record<string, unknown> };
  };
  const { 'google-workspace': _unready, ...connectors } = current.settings.connectors;
  settingsHeld = { ...current.settings, connectors: { ...connectors, okta: standInSettings.okta } };
  const saved = await fetch(`${hosting}/api/settings`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
    body: JSON.stringify({ basedOn: current.version, reason: 'Access matrix: saved unchanged.', settings: settingsHeld }),
  });
  expect(saved.status).toBe(200);
  settingsVersion = ((await saved.json()) as { version: number }).version;
  const workspace = await fetch(`${hosting}/api/connectors/google-workspace`, { headers: bearer(tokens.valid) });
  workspaceNeeds = ((await workspace.json()) as { needs: string[] }).needs;
  expect(workspaceNeeds.length).toBeGreaterThan(0);
  // Today's audit package, built in the background (or handed back, built by the other mode's run).
  const packageAsked = await fetch(`${hosting}/api/audit/packages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
    body: JSON.stringify({ from: today, to: today }),
  });
  expect([200, 202]).toContain(packageAsked.status);
  auditPackageId = ((await packageAsked.json()) as { id: string }).id;
  await until(
    'the audit package to be built',
    async () => {
      const read = await fetch(`${hosting}/api/audit/packages/${auditPackageId}`, { headers: bearer(tokens.valid) });
      return ((await read.json()) as { state: string }).state;
    },
    (state) => state === 'ready',
  );
  // An Okta run, cancelled at once: it ends cancelled, or complete if the worker was quicker.
  const run = await fetch(`${hosting}/api/connectors/okta/runs`, { method: 'POST', headers: bearer(tokens.valid) });
  expect(run.status).toBe(202);
  connectorRunId = ((await run.json()) as { id: string }).id;
  await fetch(`${hosting}/api/connectors/okta/runs/${connectorRunId}/cancel`, { method: 'POST', headers: bearer(tokens.valid) });
  connectorRunState = await until(
    'the Okta run to end',
    async () => {
      const read = await fetch(`${hosting}/api/connectors/okta/runs/${connectorRunId}`, { headers: bearer(tokens.valid) });
      return ((await read.json()) as { state: string }).state;
    },
    (state) => state === 'cancelled' || state === 'succeeded',
  );
});

/** The requests the matrix's request steps take, brought to the version each step is based on. */
beforeAll(async () => {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${hosting}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer(tokens.valid) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(response.status, path).toBe(path === '/api/requests' ? 201 : 200);
    return (await response.json()) as { id: string };
  };
  const steps = { edit: 0, answer: 0, accept: 1, return: 1, reopen: 2 } as const;
  for (const pool of Object.keys(requestPools) as (keyof typeof requestPools)[]) {
    for (let n = 0; n <= tokenKinds.length; n++) {
      const { id } = await call('/api/requests', newAuditRequest());
      if (steps[pool] >= 1)
        await call(`/api/requests/${id}/answers`, { basedOn: 1, add: [{ kind: 'evidence', ref: evidenceId }] });
      if (steps[pool] >= 2) await call(`/api/requests/${id}/accept`, { basedOn: 2 });
      requestPools[pool].push(id);
    }
  }
  auditRequestId = requestPools.edit.pop()!;
});

afterAll(async () => {
  // A deployment keeps 25 subscriptions: leave none behind for the other mode's run.
  const { webhooks } = (await (await fetch(`${hosting}/api/webhooks`, { headers: bearer(tokens.valid) })).json()) as {
    webhooks: { id: string }[];
  };
  for (const { id } of webhooks)
    await fetch(`${hosting}/api/webhooks/${id}`, { method: 'DELETE', headers: bearer(tokens.valid) });
});

function operations(): { operationId: string; access: 'public' | 'protected' | 'optional' }[] {
  return Object.values(spec.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string; security?: Record<string, string[]>[] }>)
      .filter((operation) => operation.operationId)
      .map((operation) => ({
        operationId: operation.operationId!,
        access:
          operation.security?.length === 0
            ? 'public'
            : operation.security?.some((r) => Object.keys(r).length === 0)
              ? 'optional'
              : 'protected',
      })),
  );
}

const challenges: Partial<
  Record<TokenKind, { code: 'unauthenticated' | 'invalid_token' | 'token_expired'; detail: string; header: string }>
> = {
  none: {
    code: 'unauthenticated',
    detail: 'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
    header: 'Bearer realm="evident"',
  },
  expired: {
    code: 'token_expired',
    detail: 'The ID token has expired; refresh it and retry.',
    header: 'Bearer realm="evident", error="invalid_token", error_description="The token expired"',
  },
};
const invalid = {
  code: 'invalid_token' as const,
  detail: 'The bearer token could not be verified for this project; sign in again to get a valid ID token.',
  header: 'Bearer realm="evident", error="invalid_token", error_description="The token is invalid"',
};

describe(`access matrix in ${mode} mode`, () => {
  it('has a sample request for every operation in the description', () => {
    expect(
      operations()
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(Object.keys(samples).sort());
    expect(evidenceId).toMatch(/^matrix-/);
    expect(submissionId).toMatch(/^sub-/);
  });

  it('says the mode under test', async () => {
    const response = await fetch(`${hosting}/api/auth/config`);
    expect(await response.json()).toEqual({ authRequired: mode === 'protected' });
  });

  for (const kind of tokenKinds) {
    it(`answers every operation as the contract says with token: ${kind}`, async () => {
      for (const { operationId, access } of operations()) {
        for (const sample of samples[operationId]?.() ?? []) {
          const where = `${operationId} ${sample.path} (${kind})`;
          const response = await fetch(hosting + sample.path, {
            method: sample.method ?? 'GET',
            headers: { ...sample.headers, ...bearer(tokens[kind]) },
            ...(sample.body ? { body: sample.body() } : {}),
          });
          // Every answer names the version, problems and event streams included.
          expect(response.headers.get('evident-api-version'), where).toBe(spec.info.version);
          const isJson = /json/.test(response.headers.get('content-type') ?? '');
          const body = (isJson ? await response.json() : { bytes: await response.text() }) as Record<string, unknown>;
          const guarded = mode === 'protected' && (access === 'protected' || sample.gated === true);

          if (guarded && kind !== 'valid') {
            const challenge = challenges[kind] ?? invalid;
            expect(response.status, where).toBe(401);
            expect(response.headers.get('www-authenticate'), where).toBe(challenge.header);
            expect(response.headers.get('content-type'), where).toBe('application/problem+json');
            expect(body, where).toEqual(
              expectedProblem(
                challenge.code,
                challenge.detail,
                sample.path.split('?')[0]!,
                response.headers.get('x-request-id')!,
              ),
            );
            continue;
          }

          expect(response.status, where).toBe(sample.status ?? 200);
          expect(response.headers.get('www-authenticate'), where).toBeNull();
          const identified = kind === 'valid';
          switch (operationId) {
            case 'getAuthConfig':
              expect(body, where).toEqual({ authRequired: mode === 'protected' });
              break;
            case 'getCaller':
              expect(body, where).toEqual(
                identified
                  ? { authenticated: true, uid: user.uid, email: user.email, emailVerified: false, signInProvider: 'password' }
                  : { authenticated: false },
              );
              break;
            case 'listDocs': {
              const pages = body.pages as { slug: string; gated: boolean }[];
              expect(pages.find((page) => page.slug === 'getting-started')?.gated, where).toBe(false);
              // Gated pages are listed, marked, only where they can be read.
              const gated = pages.filter((page) => page.gated).map((page) => page.slug);
              expect(gated, where).toEqual(mode === 'public' || identified ? ['methodology'] : []);
              break;
            }
            case 'getDocPage':
              expect(body.slug, where).toBe(sample.path.split('/').pop());
              expect(body.gated, where).toBe(sample.gated);
              break;
            case 'listReports':
              expect(
                (body.reports as { date: string }[]).map((entry) => entry.date),
                where,
              ).toContain(today);
              break;
            case 'getTodayReport':
            case 'getReport':
              expect(body.date, where).toBe(today);
              expect((body.controls as unknown[]).length, where).toBeGreaterThanOrEqual(30);
              break;
            case 'getReportOscal':
              expect(Object.keys(body), where).toEqual(['assessment-results']);
              break;
            case 'listControls':
              expect((body.controls as unknown[]).length, where).toBeGreaterThanOrEqual(30);
              break;
            case 'getControl':
              expect(body.id, where).toBe('IAM-01');
              break;
            case 'getControlHistory':
              expect(body.controlId, where).toBe('IAM-01');
              expect((body.days as unknown[]).length, where).toBe(90);
              break;
            case 'exportControlHistory':
              expect(response.headers.get('content-type'), where).toBe('text/csv; charset=utf-8; header=present');
              expect((body.bytes as string).split('\r\n').length, where).toBe(92);
              break;
            case 'getControlSample':
              // The demo has a report a day; the sample is the 5 asked for, by the seed given.
              expect([body.controlId, body.seed, body.seedChosen, (body.sample as unknown[]).length], where).toEqual([
                'IAM-01',
                'access',
                true,
                5,
              ]);
              break;
            case 'exportControlSample':
              expect(response.headers.get('content-type'), where).toBe('text/csv; charset=utf-8; header=present');
              expect((body.bytes as string).split('\r\n')[0], where).toBe(
                sample.path.includes('rows=population')
                  ? '"date","status","sha256","rank","sampled"'
                  : '"rank","date","sha256","status","evidence"',
              );
              break;
            case 'getControlPopulation':
              // Today's report records the population of each kind of subjects IAM-01's checks read.
              expect([body.controlId, body.date, body.kind, (body.subjects as unknown[]).length], where).toEqual([
                'IAM-01',
                today,
                'idp.user',
                Math.min(5, body.count as number),
              ]);
              break;
            case 'getControlSubjectSample':
              // The demo's IAM-01 ran on more than three people today: the sample is the three asked for.
              expect([body.controlId, body.date, body.seed, (body.sample as unknown[]).length], where).toEqual([
                'IAM-01',
                today,
                'matrix',
                3,
              ]);
              break;
            case 'exportControlSubjectSample':
              expect(response.headers.get('content-type'), where).toBe('text/csv; charset=utf-8; header=present');
              expect((body.bytes as string).split('\r\n'), where).toHaveLength(1 + 3 + 1);
              break;
            case 'exportControlPopulation':
              expect(response.headers.get('content-type'), where).toBe('text/csv; charset=utf-8; header=present');
              expect((body.bytes as string).split('\r\n').length, where).toBe(
                Number(response.headers.get('evident-population-count')) + 2,
              );
              break;
            case 'getCatalogOscal':
              expect(Object.keys(body), where).toEqual(['component-definition']);
              break;
            case 'getReportPoam':
              expect(Object.keys(body), where).toEqual(['plan-of-action-and-milestones']);
              break;
            case 'listReportVersions': {
              // Oldest first: version 1 is the day's first report, the last one the report served today.
              // A day is published a few times at most in these suites, far fewer than a page holds.
              const items = body.items as { version: number; current: boolean }[];
              expect(
                items.map((item) => item.version),
                where,
              ).toEqual(items.map((_, index) => index + 1));
              expect(
                items.map((item) => item.current),
                where,
              ).toEqual(items.map((_, index) => index === items.length - 1));
              expect(body.hasMore, where).toBe(false);
              break;
            }
            case 'getReportVersion':
              expect(body.date, where).toBe(today);
              break;
            case 'getAuditSigningKey':
              // Empty until a package is signed (the job holds the key); each published key is Ed25519.
              expect(
                (body.keys as { algorithm: string }[]).every((key) => key.algorithm === 'Ed25519'),
                where,
              ).toBe(true);
              break;
            case 'getAuditPackage':
              expect(response.headers.get('content-type'), where).toBe('application/zip');
              // A local file header first, the end of the central directory last.
              expect((body.bytes as string).startsWith('PK\x03\x04'), where).toBe(true);
              break;
            case 'startAuditPackage':
            case 'getAuditPackageBuild':
              expect([body.id, body.state], where).toEqual([auditPackageId, 'ready']);
              break;
            case 'listAuditPackages':
              expect(
                (body.items as { id: string }[]).map((item) => item.id),
                where,
              ).toContain(auditPackageId);
              break;
            case 'streamAuditPackageEvents':
              expect(response.headers.get('content-type'), where).toBe('text/event-stream; charset=utf-8');
              expect(body.bytes, where).toMatch(/\nevent: run\.completed\n/);
              break;
            case 'downloadAuditPackage':
              expect(response.headers.get('content-range'), where).toMatch(/^bytes 0-3\/\d+$/);
              expect(body.bytes, where).toBe('PK\x03\x04');
              break;
            case 'createAuditRequest':
              expect([body.status, (body.history as { by: { uid: string } }[])[0]!.by.uid], where).toEqual([
                'open',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'listAuditRequests':
              expect(
                (body.items as { id: string }[]).map((item) => item.id),
                where,
              ).toContain(auditRequestId);
              break;
            case 'getAuditRequest':
              expect(body.id, where).toBe(auditRequestId);
              break;
            case 'editAuditRequest':
            case 'answerAuditRequest':
            case 'acceptAuditRequest':
            case 'returnAuditRequest':
            case 'reopenAuditRequest': {
              const expected = {
                editAuditRequest: ['open', 'edited'],
                answerAuditRequest: ['answered', 'answered'],
                acceptAuditRequest: ['accepted', 'accepted'],
                returnAuditRequest: ['returned', 'returned'],
                reopenAuditRequest: ['answered', 'reopened'],
              }[operationId];
              const last = (body.history as { action: string; by: { uid: string } }[]).at(-1)!;
              expect([body.status, last.action, last.by.uid], where).toEqual([...expected, identified ? user.uid : 'anonymous']);
              break;
            }
            case 'importAuditRequests':
              expect([(body.created as string[]).length, body.unchanged], where).toEqual([1, []]);
              break;
            case 'exportAuditRequests':
              expect(response.headers.get('content-type'), where).toBe('text/csv; charset=utf-8');
              expect((body.bytes as string).split('\r\n')[0], where).toBe(
                '"id","control","from","to","description","status","answers","history"',
              );
              break;
            case 'createException':
              expect([body.state, (body.requestedBy as { uid: string }).uid], where).toEqual([
                'requested',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'approveException':
            case 'refuseException':
              expect([body.state, (body.review as { by: { uid: string } }).by.uid], where).toEqual([
                operationId === 'approveException' ? 'active' : 'refused',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'reviewSubmission':
              expect([body.review, (body.review as { by: { uid: string } }).by.uid], where).toEqual([
                expect.objectContaining({ state: 'accepted' }),
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'listExceptions':
              expect(
                (body.items as { id: string }[]).map((item) => item.id),
                where,
              ).toContain(exceptionId);
              break;
            case 'getException':
              expect(body.id, where).toBe(exceptionId);
              break;
            case 'revokeException':
              expect([body.state, (body.revoked as { by: { uid: string } }).by.uid], where).toEqual([
                'revoked',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'listFrameworks':
              expect(
                (body.frameworks as { framework: string }[]).map((framework) => framework.framework),
                where,
              ).toEqual(['soc2', 'iso27001', 'nist80053']);
              break;
            case 'getFramework':
              expect([body.framework, (body.requirements as unknown[]).length > 0], where).toEqual(['soc2', true]);
              break;
            case 'ingestEvidence':
              expect((body.items as { status: string }[])[0]?.status, where).toBe('created');
              break;
            case 'importOcsfFindings':
              expect(body, where).toEqual({ findings: 1, items: 1, created: 1, existing: 0 });
              break;
            case 'listEvidence':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'openCollectionRun':
              expect([body.status, (body.openedBy as { uid: string }).uid], where).toEqual([
                'running',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'listCollectionRuns':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'listCollectionSources':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'listCollectionPopulations':
              // matrix-drops-0's two complete runs, newest first: the one of a single subject, then the one of two.
              expect([(body.items as { count: number }[]).map((item) => item.count), body.hasMore], where).toEqual([[1], true]);
              break;
            case 'getCollectionRun':
              expect([body.id, body.status], where).toEqual([collectionRunId, 'running']);
              break;
            case 'completeCollectionRun':
              expect(body.status, where).toBe('complete');
              break;
            case 'cancelCollectionRun':
              expect(body.status, where).toBe('cancelled');
              break;
            case 'acknowledgeCollectionRunDrop':
              expect((body.drops as { acknowledged: { by: { uid: string } } }[])[0]!.acknowledged.by.uid, where).toBe(
                identified ? user.uid : 'anonymous',
              );
              break;
            case 'getEvidence':
              expect(body.id, where).toBe(evidenceId);
              break;
            case 'createSubmission': {
              const submittedBy = body.submittedBy as { uid: string };
              // The submitter comes from the token when there is a valid one, in either mode.
              expect(submittedBy.uid, where).toBe(identified ? user.uid : 'anonymous');
              break;
            }
            case 'listSubmissions':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'getSubmission':
              expect(body.id, where).toBe(submissionId);
              break;
            case 'downloadAttachment':
              expect(body, where).toEqual({ bytes: 'approved by the board' });
              break;
            case 'startAnalysis':
              expect(body.state, where).toBe('queued');
              expect((body.createdBy as { uid: string }).uid, where).toBe(identified ? user.uid : 'anonymous');
              break;
            case 'listAnalyses':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'getAnalysis':
            case 'cancelAnalysis':
              expect(body.id, where).toBe(analysisId);
              expect(body.state, where).toBe('cancelled');
              break;
            case 'streamAnalysisEvents':
              expect(response.headers.get('content-type'), where).toBe('text/event-stream; charset=utf-8');
              expect(body.bytes, where).toMatch(/^retry: 1000\n\n(?:.|\n)*event: run\.cancelled\n/);
              break;
            case 'chat':
              expect(body.grounded, where).toBe(true);
              expect(
                (body.citations as { controlId: string }[]).map((citation) => citation.controlId),
                where,
              ).toContain('IAM-01');
              break;
            case 'mcp': {
              // A tool call's JSON-RPC response: today's answer about the control, citing it.
              const { structuredContent } = (body as { result: { structuredContent: Record<string, unknown> } }).result;
              expect([body.jsonrpc, body.id, structuredContent.date, structuredContent.grounded], where).toEqual([
                '2.0',
                1,
                today,
                true,
              ]);
              expect(
                (structuredContent.citations as { controlId: string }[]).map((citation) => citation.controlId),
                where,
              ).toContain('IAM-01');
              break;
            }
            case 'createWebhook':
              expect([body.url, body.events, typeof body.secret, (body.createdBy as { uid: string }).uid], where).toEqual([
                'http://127.0.0.1:9/access-matrix',
                ['report.published'],
                'string',
                identified ? user.uid : 'anonymous',
              ]);
              break;
            case 'listWebhooks':
              {
                const listed = (body.webhooks as { id: string }[]).find((webhook) => webhook.id === webhookId);
                expect([listed?.id, listed && 'secret' in listed], where).toEqual([webhookId, false]);
              }
              break;
            case 'getWebhook':
              expect([body.id, 'secret' in body], where).toEqual([webhookId, false]);
              break;
            case 'deleteWebhook':
              expect(body, where).toEqual({ bytes: '' });
              break;
            case 'listConnectors':
              {
                const ready = Object.fromEntries(
                  (body.items as { id: string; ready: boolean }[]).map((item) => [item.id, item.ready]),
                );
                expect([Object.keys(ready), ready['google-workspace'], ready['okta']], where).toEqual([
                  ['github', 'google-cloud', 'google-workspace', 'okta'],
                  false,
                  true,
                ]);
              }
              break;
            case 'getConnector':
              expect([body.id, body.ready, (body.newestRun as { id: string }).id], where).toEqual(['okta', true, connectorRunId]);
              break;
            case 'startConnectorRun':
              // The words of what it needs, as the connector lists them.
              expect([body.code, body.detail], where).toEqual([
                'connector_not_ready',
                `Google Workspace cannot run yet; it needs ${workspaceNeeds.join('; and ')}.`,
              ]);
              break;
            case 'getConnectorRun':
              expect([body.id, body.state], where).toEqual([connectorRunId, connectorRunState]);
              break;
            case 'cancelConnectorRun':
              expect(body.code, where).toBe('run_ended');
              break;
            case 'streamConnectorRunEvents':
              expect(response.headers.get('content-type'), where).toBe('text/event-stream; charset=utf-8');
              expect(body.bytes, where).toMatch(
                connectorRunState === 'cancelled' ? /\nevent: run\.cancelled\n/ : /\nevent: run\.completed\n/,
              );
              break;
            case 'getSettings':
              expect([body.version, body.settings], where).toEqual([settingsVersion, settingsHeld]);
              break;
            case 'saveSettings':
              expect([body.version, (body.savedBy as { uid: string }).uid, body.settings], where).toEqual([
                settingsVersion + 1,
                identified ? user.uid : 'anonymous',
                settingsHeld,
              ]);
              settingsVersion = body.version as number;
              break;
            case 'listSettingsVersions':
              expect(
                (body.items as { version: number }[]).map((item) => item.version),
                where,
              ).toEqual([settingsVersion]);
              break;
            case 'getSettingsVersion':
              expect([body.version, body.settings], where).toEqual([settingsVersion, settingsHeld]);
              break;
            case 'pingWebhook':
            case 'redeliverWebhook':
              expect([body.webhookId, (body.event as { type: string }).type], where).toEqual([webhookId, 'webhook.ping']);
              break;
            case 'listWebhookDeliveries':
              expect((body.items as unknown[]).length, where).toBe(1);
              break;
            case 'streamChatAnswer':
              expect(response.headers.get('content-type'), where).toBe('text/event-stream; charset=utf-8');
              expect(body.bytes, where).toMatch(/event: done\n/);
              break;
            default:
              throw new Error(`no expectation for ${operationId}`);
          }
        }
      }
    });
  }
});
