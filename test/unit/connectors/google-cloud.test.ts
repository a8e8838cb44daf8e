/**
 * The Google Cloud connector against the Cloud Asset Inventory stand-in, through the real
 * `@google-cloud/asset` client over gRPC: every subject once, every page read, a rate limit
 * waited out, an outage, a revoked credential, a missing permission and an unknown scope each
 * failing the run with Evident's reason, and every item's data valid for its kind.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { v1 } from '@google-cloud/asset';
import { grpc, GrpcClient } from 'google-gax';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { type CollectContext, type CollectedItem, ConnectorFailure } from '../../../functions/src/connectors/connector.ts';
import { collector } from '../../../functions/src/connectors/google-cloud/collect-google-cloud.ts';
import {
  alertPolicyData,
  bucketData,
  cryptoKeyData,
  fieldsRead,
  logBucketRetention,
  sinkSummary,
} from '../../../functions/src/connectors/google-cloud/asset-evidence.ts';
import { googleCloudConnector } from '../../../functions/src/connectors/google-cloud/google-cloud-connector.ts';
import { fixtureAssets, fixtureCounts, type FixtureSizes, organization } from '../../stand-ins/google-cloud/asset-fixture.ts';
import { AssetServiceStandIn, type StandInFaults } from '../../stand-ins/google-cloud/asset-service-stand-in.ts';

const token = 'ya29.stand-in-token-for-tests';
const now = new Date('2026-11-27T10:00:00Z');
/** Over a thousand buckets and IAM policies, so those listings take three pages each. */
const sizes: FixtureSizes = { projects: 3, buckets: 2_100, cryptoKeys: 30, alertPolicies: 12, datasets: 10 };
const assets = [...fixtureAssets(sizes)];
const ofType = (type: string) => assets.filter((asset) => asset.assetType === type).map((asset) => asset.name);

let standIn: AssetServiceStandIn | undefined;
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

async function start(faults: StandInFaults = {}) {
  standIn = await new AssetServiceStandIn({ assets, token, faults }).start();
  return standIn;
}

function contextFor(server: AssetServiceStandIn, scope = organization) {
  const progress = { called: vi.fn(), rateLimited: vi.fn() };
  const context: CollectContext = {
    settings: { scope },
    secrets: {},
    signal: new AbortController().signal,
    progress,
    now: () => now,
    standIn: { endpoint: server.endpoint, token },
  };
  return { context, progress };
}

/** Collects until the end or a failure, and says which. */
async function collectAll(context: CollectContext) {
  const items: CollectedItem[] = [];
  try {
    for await (const item of collector.collect(context)) items.push(item);
    return { items, failure: undefined };
  } catch (error) {
    return { items, failure: error };
  }
}

const subjectsOf = (items: CollectedItem[], kind: string) =>
  items.filter((item) => item.kind === kind).map((item) => item.subject);

const checkData = (() => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return (item: CollectedItem) => {
    const valid = ajv.validate(evidenceKinds[item.kind].data, item.data);
    return valid ? [] : [`${item.kind} ${item.subject}: ${ajv.errorsText()}`];
  };
})();

describe('the Google Cloud connector', () => {
  test('collects every bucket, key, sink, alert policy and IAM policy once, reading every page', async () => {
    const server = await start();
    const { context, progress } = contextFor(server);
    const { items, failure } = await collectAll(context);

    expect(failure).toBeUndefined();
    expect(server.violations).toEqual([]);
    const buckets = ofType('storage.googleapis.com/Bucket');
    expect(subjectsOf(items, 'storage.bucket').sort()).toEqual([...buckets].sort());
    expect(subjectsOf(items, 'crypto.key').sort()).toEqual(ofType('cloudkms.googleapis.com/CryptoKey').sort());
    expect(subjectsOf(items, 'logging.sink').sort()).toEqual(ofType('logging.googleapis.com/LogSink').sort());
    expect(subjectsOf(items, 'monitoring.alert_policy').sort()).toEqual(ofType('monitoring.googleapis.com/AlertPolicy').sort());
    const policyNotBucket = assets.filter((asset) => asset.iamPolicy && asset.assetType !== 'storage.googleapis.com/Bucket');
    const findings = items
      .filter((item) => item.kind === 'scanner.finding')
      .map((item) => `${String(item.data['check'])} ${item.subject}`);
    expect(findings.sort()).toEqual(
      [
        ...policyNotBucket.map((asset) => {
          const check = {
            'cloudkms.googleapis.com/CryptoKey': 'kms_key_not_publicly_accessible',
            'bigquery.googleapis.com/Dataset': 'bigquery_dataset_public_access',
          }[asset.assetType];
          return `${check ?? 'gcp_iam_policy_not_public'} ${asset.name}`;
        }),
        `iam_audit_logs_enabled //cloudresourcemanager.googleapis.com/${organization}`,
      ].sort(),
    );
    expect(new Set(items.map((item) => item.collectedAt))).toEqual(new Set([now.toISOString()]));
    expect(items.flatMap(checkData)).toEqual([]);

    // Policies 2,123 and buckets 2,101: three pages each; sinks 7; log buckets, keys and alerts 48.
    const counts = fixtureCounts(sizes);
    expect([counts.policies, buckets.length, counts.sinks]).toEqual([2_123, 2_101, 7]);
    expect(server.calls).toBe(8);
    expect(server.requests.every((request) => request.pageSize === 1000)).toBe(true);
    expect(progress.called).toHaveBeenCalledTimes(8);
    expect(progress.called).toHaveBeenCalledWith('ListAssets IAM_POLICY', 1000);
    expect(progress.called).toHaveBeenCalledWith('ListAssets IAM_POLICY', 123);
    expect(progress.rateLimited).not.toHaveBeenCalled();
    // Two lanes of listings at most (the bench, with latency, shows both in flight).
    expect(server.peakInFlight).toBeLessThanOrEqual(2);
  });

  test('maps each resource as docs/connectors.md says', async () => {
    const { items } = await collectAll(contextFor(await start()).context);
    const data = (kind: string, subject: string) => items.find((item) => item.kind === kind && item.subject === subject)?.data;

    // Bucket 0 grants allUsers with public access prevention inherited, a CMEK, versions kept.
    expect(data('storage.bucket', '//storage.googleapis.com/bucket-0')).toEqual({
      encryptedAtRest: true,
      customerManagedKey: true,
      publicAccess: true,
      tlsRequired: false,
      versioning: true,
      classification: 'public',
      classificationLabelled: true,
      publicAccessPrevention: 'inherited',
      uniformBucketLevelAccess: true,
      retentionDays: 0,
      retentionLocked: false,
      kmsKeyName: 'projects/evident-p0000/locations/europe-west1/keyRings/data/cryptoKeys/buckets',
    });
    // Bucket 1 grants allUsers too, but enforces public access prevention.
    expect(data('storage.bucket', '//storage.googleapis.com/bucket-1')).toMatchObject({
      publicAccess: false,
      tlsRequired: true,
      publicAccessPrevention: 'enforced',
    });
    // Bucket 4 has no classification label.
    expect(data('storage.bucket', '//storage.googleapis.com/bucket-4')).toMatchObject({
      classification: 'internal',
      classificationLabelled: false,
    });
    expect(
      data(
        'crypto.key',
        '//cloudkms.googleapis.com/projects/evident-p0001/locations/europe-west1/keyRings/ring-1/cryptoKeys/key-1',
      ),
    ).toEqual({
      purpose: 'encryption',
      algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION',
      rotationEnabled: true,
      rotationPeriodDays: 400,
      protection: 'hsm',
    });
    expect(data('monitoring.alert_policy', '//monitoring.googleapis.com/projects/evident-p0002/alertPolicies/1000005')).toEqual({
      enabled: true,
      category: 'other',
      categoryLabelled: false,
      routesToOnCall: false,
      notificationChannels: 0,
      displayName: 'Alert 5',
      severity: 'CRITICAL',
    });
    expect(data('logging.sink', `//logging.googleapis.com/${organization}/sinks/audit-archive`)).toEqual({
      enabled: true,
      destination: 'storage.googleapis.com/evident-audit-archive',
      retentionDays: 400,
      immutable: true,
      includesAdminActivity: true,
      retentionKnown: true,
    });
    expect(data('logging.sink', '//logging.googleapis.com/projects/evident-p0000/sinks/_Default')).toEqual({
      enabled: true,
      destination: 'logging.googleapis.com/projects/evident-p0000/locations/global/buckets/_Default',
      retentionDays: 30,
      immutable: false,
      includesAdminActivity: false,
      retentionKnown: true,
    });
    const keyFinding = items.find(
      (item) => item.data['check'] === 'kms_key_not_publicly_accessible' && item.subject.endsWith('/key-0'),
    );
    expect(keyFinding?.data).toEqual({
      check: 'kms_key_not_publicly_accessible',
      status: 'FAIL',
      muted: false,
      severity: 'high',
      message: 'Its IAM policy grants roles/cloudkms.cryptoKeyEncrypter to allAuthenticatedUsers.',
      product: 'Evident Google Cloud connector',
      provider: 'gcp',
      account: organization,
      resourceType: 'cloudkms.googleapis.com/CryptoKey',
      findingUid: `kms_key_not_publicly_accessible:${keyFinding?.subject}`,
    });
    expect(items.find((item) => item.data['check'] === 'iam_audit_logs_enabled')?.data).toMatchObject({ status: 'PASS' });
  });

  test('waits out a rate limit for the delay the service asks, then collects everything', async () => {
    const server = await start({ rateLimit: { atCall: 2, retryDelaySeconds: 1 } });
    const { context, progress } = contextFor(server);
    const { items, failure } = await collectAll(context);

    expect(failure).toBeUndefined();
    expect(progress.rateLimited).toHaveBeenCalledExactlyOnceWith(
      1,
      'Cloud Asset Inventory quota: ListAssets requests per minute',
    );
    expect(server.calls).toBe(9);
    expect(subjectsOf(items, 'storage.bucket')).toHaveLength(2_101);
    expect(new Set(subjectsOf(items, 'storage.bucket')).size).toBe(2_101);
    expect(server.violations).toEqual([]);
  });

  test.each([
    ['UNAVAILABLE', 1 + 3],
    ['INTERNAL', 1 + 1],
  ] as const)(
    'fails vendor_unavailable when the IAM policy listing answers %s from its second page on',
    async (code, policyCalls) => {
      const server = await start({ outage: { contentType: 'IAM_POLICY', fromPage: 2, code } });
      const { items, failure } = await collectAll(contextFor(server).context);

      expect(failure).toBeInstanceOf(ConnectorFailure);
      expect((failure as ConnectorFailure).reason).toBe('vendor_unavailable');
      expect((failure as ConnectorFailure).message).not.toContain(token);
      // Only the first page of policies was read: its findings went out; no bucket or sink did.
      const firstPage = assets.filter((asset) => asset.iamPolicy).slice(0, 1000);
      const expected = firstPage
        .filter((asset) => asset.assetType !== 'storage.googleapis.com/Bucket')
        .map((asset) => asset.name);
      expect(subjectsOf(items, 'scanner.finding').sort()).toEqual(
        [...expected, `//cloudresourcemanager.googleapis.com/${organization}`].sort(),
      );
      expect(subjectsOf(items, 'storage.bucket')).toEqual([]);
      expect(subjectsOf(items, 'logging.sink')).toEqual([]);
      expect(server.requests.filter((request) => request.contentType === 'IAM_POLICY')).toHaveLength(policyCalls);
    },
  );

  test('stops at an abort with its reason, yielding nothing more and making no call after it', async () => {
    const server = await start();
    const { context } = contextFor(server);
    const controller = new AbortController();
    const reason = new Error('The run was cancelled.');
    // Aborted as the first page arrives: the other lane's first call is then still out, and is cancelled.
    const progress = { called: vi.fn(() => controller.abort(reason)), rateLimited: vi.fn() };
    const { items, failure } = await collectAll({ ...context, signal: controller.signal, progress });

    expect(failure).toBe(reason);
    expect(items).toEqual([]);
    expect(server.calls).toBeLessThanOrEqual(2);
    expect(server.violations).toEqual([]);
  });

  test('fails credential_rejected when the token is revoked, without echoing it', async () => {
    const server = await start();
    server.revoke(token);
    const { items, failure } = await collectAll(contextFor(server).context);

    expect(items).toEqual([]);
    expect(failure).toEqual(
      new ConnectorFailure(
        'credential_rejected',
        'Google Cloud refused the service account credential (UNAUTHENTICATED): it is revoked, expired or not a valid access token.',
      ),
    );
  });

  test.each([
    ['RESOURCE', 'cloudasset.assets.listResource'],
    ['IAM_POLICY', 'cloudasset.assets.listIamPolicy'],
  ] as const)('fails permission_missing naming the permission when %s content is denied', async (contentType, permission) => {
    const { failure } = await collectAll(contextFor(await start({ permissionDenied: contentType })).context);

    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect(failure).toMatchObject({
      reason: 'permission_missing',
      permission,
      message: `The service account lacks ${permission} on ${organization} (PERMISSION_DENIED): grant it roles/cloudasset.viewer there.`,
    });
  });

  test('fails not_found for a scope the service does not know', async () => {
    const { failure } = await collectAll(contextFor(await start(), 'organizations/999').context);

    expect(failure).toMatchObject({
      reason: 'not_found',
      message:
        'Cloud Asset Inventory does not know the scope organizations/999 (NOT_FOUND): check the organisation, folder or project it names.',
    });
  });

  test('refuses a malformed scope before calling, and lists it as what the connector needs', async () => {
    const server = await start();
    const { failure } = await collectAll(contextFor(server, 'my-project').context);

    expect(failure).toMatchObject({ reason: 'not_configured' });
    expect(server.calls).toBe(0);
    expect(googleCloudConnector.needs?.({ scope: 'my-project' }, new Set())).toEqual([
      'the setting "scope" in the form organizations/<number>, folders/<number> or projects/<id>',
    ]);
    expect(googleCloudConnector.needs?.({}, new Set())).toEqual([
      'the setting "scope": the organisation, folder or project to collect',
    ]);
    expect(googleCloudConnector.needs?.({ scope: 'folders/456' }, new Set())).toEqual([]);
  });

  test('loads its client\u2019s protos with its code, so that a run\u2019s client finds them all loaded', async () => {
    const loads = vi.spyOn(GrpcClient.prototype, 'loadProtoJSON');
    try {
      expect(await googleCloudConnector.load()).toBe(collector);
      const loadedFirst = loads.mock.calls.length;
      const client = new v1.AssetServiceClient({
        apiEndpoint: '127.0.0.1',
        port: 1,
        sslCreds: grpc.credentials.createInsecure(),
        clientOptions: { universeDomain: 'googleapis.com' },
      });
      await client.close();

      const loaded = loads.mock.calls.map(([json], index) => ({ json, protos: loads.mock.results[index]!.value as unknown }));
      const byClient = loaded.slice(loadedFirst);
      expect(byClient).toHaveLength(2);
      for (const load of byClient) {
        expect(loaded.slice(0, loadedFirst).find((earlier) => earlier.json === load.json)?.protos).toBe(load.protos);
      }
    } finally {
      loads.mockRestore();
    }
  });
});

describe('the fields the connector converts', () => {
  const pick = (data: Record<string, unknown> | undefined, fields: readonly string[]) =>
    Object.fromEntries(fields.filter((field) => data?.[field] !== undefined).map((field) => [field, data![field]]));
  const dataOf = (type: string) => assets.filter((asset) => asset.assetType === type).map((asset) => asset.data ?? {});

  test('give each resource the same evidence as its whole data', () => {
    const wholeAndRead = (type: string, fields: readonly string[], evidence: (data: Record<string, unknown>) => unknown) =>
      dataOf(type).map((data) => [evidence(data), evidence(pick(data, fields))]);
    const cases = [
      wholeAndRead('storage.googleapis.com/Bucket', fieldsRead.bucket, (data) => [
        bucketData(data, true),
        bucketData(data, false),
      ]),
      wholeAndRead('logging.googleapis.com/LogBucket', fieldsRead.logBucket, logBucketRetention),
      wholeAndRead('cloudkms.googleapis.com/CryptoKey', fieldsRead.cryptoKey, cryptoKeyData),
      wholeAndRead('monitoring.googleapis.com/AlertPolicy', fieldsRead.alertPolicy, alertPolicyData),
      wholeAndRead('logging.googleapis.com/LogSink', fieldsRead.sink, (data) => sinkSummary('sink', data)),
    ];
    expect(cases.map((pairs) => pairs.length)).toEqual([2_101, 6, 30, 12, 7]);
    for (const pairs of cases) for (const [whole, read] of pairs) expect(read).toEqual(whole);
  });
});
