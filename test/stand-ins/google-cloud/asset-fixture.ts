/**
 * A deterministic organisation for the Cloud Asset Inventory stand-in: the same sizes give the
 * same assets, in the same order, every time. Each asset is written as Cloud Asset Inventory
 * describes it (a full resource name, an asset type, its ancestors) with the resource's JSON
 * (`resource.data`, held to resource-shapes.ts by the stand-in) and/or its IAM policy.
 *
 * What the organisation holds, so tests can name what they expect:
 * - the organisation `organizations/123`, whose IAM policy turns on every audit log type for
 *   all services, and one organisation sink `audit-archive` to the bucket `evident-audit-archive`
 *   (a locked 400-day retention policy);
 * - per project: the `_Required` and `_Default` sinks and log buckets, as every project has them;
 * - buckets `bucket-<i>`: every 10th from 0 grants `allUsers`, every 10th from 1 grants it too but
 *   enforces public access prevention; every 3rd has a customer-managed key, every 4th keeps
 *   versions, every 2nd has uniform bucket-level access; `classification` labels cycle through
 *   public, internal, confidential, restricted and none;
 * - crypto keys `key-<i>`: purposes, rotation periods (90 days, 400 days, none) and protection
 *   levels cycle; every 4th has its own IAM policy, and key 0's grants `allAuthenticatedUsers`;
 * - alert policies `<i>`: `category` labels cycle, every 3rd has no notification channel, every
 *   7th is disabled;
 * - BigQuery datasets `dataset_<i>` with IAM policies only; every 5th grants `allAuthenticatedUsers`.
 */

export const organization = 'organizations/123';
export const auditArchiveBucket = 'evident-audit-archive';

export interface IamBinding {
  role: string;
  members: string[];
}

export interface AuditConfig {
  service: string;
  auditLogConfigs: { logType: 'ADMIN_READ' | 'DATA_READ' | 'DATA_WRITE'; exemptedMembers?: string[] }[];
}

export interface IamPolicy {
  version: number;
  bindings: IamBinding[];
  auditConfigs?: AuditConfig[];
}

export interface FixtureAsset {
  /** The full resource name. */
  name: string;
  assetType: string;
  /** Ancestors from the asset up: `projects/<number>`, `folders/<number>`, `organizations/<number>`. */
  ancestors: string[];
  /** The resource's JSON, served as `resource.data` for RESOURCE content. */
  data?: Record<string, unknown>;
  /** Served for IAM_POLICY content; an asset without one is not listed there. */
  iamPolicy?: IamPolicy;
}

export interface FixtureSizes {
  projects: number;
  buckets: number;
  cryptoKeys: number;
  alertPolicies: number;
  datasets: number;
}

const created = '2026-01-05T09:30:00Z';
const classifications = ['public', 'internal', 'confidential', 'restricted', undefined] as const;
const categories = ['auth', 'privilege', 'data-exfiltration', 'malware', 'availability', undefined] as const;
const keyPurposes = ['ENCRYPT_DECRYPT', 'ENCRYPT_DECRYPT', 'ASYMMETRIC_SIGN', 'MAC', 'ENCRYPT_DECRYPT'] as const;
const rotationPeriods = ['7776000s', '34560000s', undefined] as const;
const protectionLevels = ['SOFTWARE', 'HSM', 'EXTERNAL', 'SOFTWARE'] as const;
const readers = (role: string, ...members: string[]): IamBinding => ({ role, members });

/** Project `i` of the organisation: its id and number. */
export function project(i: number) {
  return { id: `evident-p${String(i).padStart(4, '0')}`, number: String(100_000 + i) };
}

/** How many assets the organisation holds with RESOURCE content, and how many have IAM policies. */
export function fixtureCounts(sizes: FixtureSizes) {
  const sinks = sizes.projects * 2 + 1;
  const logBuckets = sizes.projects * 2;
  const resources = sizes.buckets + 1 + sizes.cryptoKeys + sizes.alertPolicies + sinks + logBuckets;
  const policies = 1 + sizes.projects + sizes.buckets + 1 + Math.ceil(sizes.cryptoKeys / 4) + sizes.datasets;
  return { sinks, logBuckets, resources, policies };
}

function ancestorsOf(projectIndex: number): string[] {
  return [`projects/${project(projectIndex).number}`, organization];
}

function* organizationAssets(): Generator<FixtureAsset> {
  const all = ['ADMIN_READ', 'DATA_READ', 'DATA_WRITE'] as const;
  yield {
    name: `//cloudresourcemanager.googleapis.com/${organization}`,
    assetType: 'cloudresourcemanager.googleapis.com/Organization',
    ancestors: [organization],
    iamPolicy: {
      version: 1,
      bindings: [readers('roles/resourcemanager.organizationAdmin', 'group:it-admins@example.com')],
      auditConfigs: [{ service: 'allServices', auditLogConfigs: all.map((logType) => ({ logType })) }],
    },
  };
  yield {
    name: `//logging.googleapis.com/${organization}/sinks/audit-archive`,
    assetType: 'logging.googleapis.com/LogSink',
    ancestors: [organization],
    data: {
      name: 'audit-archive',
      destination: `storage.googleapis.com/${auditArchiveBucket}`,
      filter: 'LOG_ID("cloudaudit.googleapis.com/activity") OR LOG_ID("cloudaudit.googleapis.com/data_access")',
      includeChildren: true,
      writerIdentity: 'serviceAccount:o123-456@gcp-sa-logging.iam.gserviceaccount.com',
      createTime: created,
    },
  };
  yield bucketAsset(auditArchiveBucket, 0, {
    retentionPolicy: { retentionPeriod: String(400 * 86_400), effectiveTime: created, isLocked: true },
    iamConfiguration: { publicAccessPrevention: 'enforced', uniformBucketLevelAccess: { enabled: true } },
    labels: { classification: 'restricted' },
  });
}

function* projectAssets(i: number): Generator<FixtureAsset> {
  const { id, number } = project(i);
  yield {
    name: `//cloudresourcemanager.googleapis.com/projects/${number}`,
    assetType: 'cloudresourcemanager.googleapis.com/Project',
    ancestors: ancestorsOf(i),
    iamPolicy: { version: 1, bindings: [readers('roles/owner', `group:${id}-owners@example.com`)] },
  };
  const location = `projects/${id}/locations/global/buckets`;
  yield {
    name: `//logging.googleapis.com/projects/${id}/sinks/_Required`,
    assetType: 'logging.googleapis.com/LogSink',
    ancestors: ancestorsOf(i),
    data: {
      name: '_Required',
      destination: `logging.googleapis.com/${location}/_Required`,
      filter:
        'LOG_ID("cloudaudit.googleapis.com/activity") OR LOG_ID("externalaudit.googleapis.com/activity") OR ' +
        'LOG_ID("cloudaudit.googleapis.com/system_event") OR LOG_ID("externalaudit.googleapis.com/system_event") OR ' +
        'LOG_ID("cloudaudit.googleapis.com/access_transparency") OR LOG_ID("externalaudit.googleapis.com/access_transparency")',
      createTime: created,
    },
  };
  yield {
    name: `//logging.googleapis.com/projects/${id}/sinks/_Default`,
    assetType: 'logging.googleapis.com/LogSink',
    ancestors: ancestorsOf(i),
    data: {
      name: '_Default',
      destination: `logging.googleapis.com/${location}/_Default`,
      filter:
        'NOT LOG_ID("cloudaudit.googleapis.com/activity") AND NOT LOG_ID("externalaudit.googleapis.com/activity") AND ' +
        'NOT LOG_ID("cloudaudit.googleapis.com/system_event") AND NOT LOG_ID("externalaudit.googleapis.com/system_event")',
      disabled: i % 5 === 4,
      createTime: created,
    },
  };
  for (const [bucket, retentionDays] of [
    ['_Required', 400],
    ['_Default', 30],
  ] as const) {
    yield {
      name: `//logging.googleapis.com/${location}/${bucket}`,
      assetType: 'logging.googleapis.com/LogBucket',
      ancestors: ancestorsOf(i),
      data: { name: `${location}/${bucket}`, retentionDays, lifecycleState: 'ACTIVE', createTime: created },
    };
  }
}

function bucketAsset(name: string, projectIndex: number, extra: Record<string, unknown>): FixtureAsset {
  return {
    name: `//storage.googleapis.com/${name}`,
    assetType: 'storage.googleapis.com/Bucket',
    ancestors: ancestorsOf(projectIndex),
    data: {
      kind: 'storage#bucket',
      id: name,
      name,
      selfLink: `https://www.googleapis.com/storage/v1/b/${name}`,
      projectNumber: project(projectIndex).number,
      location: 'EUROPE-WEST1',
      locationType: 'region',
      storageClass: 'STANDARD',
      timeCreated: created,
      updated: created,
      metageneration: '1',
      etag: 'CAE=',
      ...extra,
    },
    iamPolicy: {
      version: 1,
      bindings: [readers('roles/storage.legacyBucketOwner', `projectOwner:${project(projectIndex).id}`)],
    },
  };
}

function bucket(i: number, projects: number): FixtureAsset {
  const projectIndex = i % projects;
  const classification = classifications[i % classifications.length];
  const asset = bucketAsset(`bucket-${i}`, projectIndex, {
    iamConfiguration: {
      publicAccessPrevention: i % 10 === 1 ? 'enforced' : 'inherited',
      uniformBucketLevelAccess: { enabled: i % 2 === 0 },
    },
    ...(i % 3 === 0 && {
      encryption: {
        defaultKmsKeyName: `projects/${project(projectIndex).id}/locations/europe-west1/keyRings/data/cryptoKeys/buckets`,
      },
    }),
    ...(i % 4 === 0 && { versioning: { enabled: true } }),
    ...(classification !== undefined && { labels: { classification, team: 'data' } }),
  });
  if (i % 10 <= 1) asset.iamPolicy!.bindings.push(readers('roles/storage.objectViewer', 'allUsers'));
  return asset;
}

function cryptoKey(i: number, projects: number): FixtureAsset {
  const projectIndex = i % projects;
  const id = project(projectIndex).id;
  const purpose = keyPurposes[i % keyPurposes.length];
  const rotationPeriod = purpose === 'ENCRYPT_DECRYPT' ? rotationPeriods[i % rotationPeriods.length] : undefined;
  const algorithms: Record<string, string> = {
    ENCRYPT_DECRYPT: 'GOOGLE_SYMMETRIC_ENCRYPTION',
    ASYMMETRIC_SIGN: 'EC_SIGN_P256_SHA256',
    MAC: 'HMAC_SHA256',
  };
  const name = `projects/${id}/locations/europe-west1/keyRings/ring-${projectIndex}/cryptoKeys/key-${i}`;
  return {
    name: `//cloudkms.googleapis.com/${name}`,
    assetType: 'cloudkms.googleapis.com/CryptoKey',
    ancestors: ancestorsOf(projectIndex),
    data: {
      name,
      purpose,
      createTime: created,
      ...(rotationPeriod !== undefined && { rotationPeriod, nextRotationTime: '2026-12-01T00:00:00Z' }),
      versionTemplate: { algorithm: algorithms[purpose!], protectionLevel: protectionLevels[i % protectionLevels.length] },
    },
    ...(i % 4 === 0 && {
      iamPolicy: {
        version: 1,
        bindings: [
          readers('roles/cloudkms.cryptoKeyEncrypterDecrypter', `serviceAccount:app@${id}.iam.gserviceaccount.com`),
          ...(i === 0 ? [readers('roles/cloudkms.cryptoKeyEncrypter', 'allAuthenticatedUsers')] : []),
        ],
      },
    }),
  };
}

function alertPolicy(i: number, projects: number): FixtureAsset {
  const projectIndex = i % projects;
  const id = project(projectIndex).id;
  const category = categories[i % categories.length];
  const name = `projects/${id}/alertPolicies/${1_000_000 + i}`;
  return {
    name: `//monitoring.googleapis.com/${name}`,
    assetType: 'monitoring.googleapis.com/AlertPolicy',
    ancestors: ancestorsOf(projectIndex),
    data: {
      name,
      displayName: `Alert ${i}`,
      combiner: 'OR',
      conditions: [{ name: `${name}/conditions/1`, displayName: 'Log match' }],
      enabled: i % 7 !== 6,
      notificationChannels: i % 3 === 2 ? [] : [`projects/${id}/notificationChannels/${2_000_000 + projectIndex}`],
      ...(category !== undefined && { userLabels: { category } }),
      severity: 'CRITICAL',
    },
  };
}

function dataset(i: number, projects: number): FixtureAsset {
  const projectIndex = i % projects;
  const id = project(projectIndex).id;
  return {
    name: `//bigquery.googleapis.com/projects/${id}/datasets/dataset_${i}`,
    assetType: 'bigquery.googleapis.com/Dataset',
    ancestors: ancestorsOf(projectIndex),
    iamPolicy: {
      version: 1,
      bindings: [
        readers('roles/bigquery.dataOwner', `projectOwner:${id}`),
        ...(i % 5 === 0 ? [readers('roles/bigquery.dataViewer', 'allAuthenticatedUsers')] : []),
      ],
    },
  };
}

/** Every asset of the organisation, in the order the stand-in lists them. */
export function* fixtureAssets(sizes: FixtureSizes): Generator<FixtureAsset> {
  yield* organizationAssets();
  for (let i = 0; i < sizes.projects; i++) yield* projectAssets(i);
  for (let i = 0; i < sizes.buckets; i++) yield bucket(i, sizes.projects);
  for (let i = 0; i < sizes.cryptoKeys; i++) yield cryptoKey(i, sizes.projects);
  for (let i = 0; i < sizes.alertPolicies; i++) yield alertPolicy(i, sizes.projects);
  for (let i = 0; i < sizes.datasets; i++) yield dataset(i, sizes.projects);
}
