/**
 * What the Cloud Asset Inventory stand-in's resources are held to: for each asset type the
 * connector reads, the part of the resource's published REST description that Cloud Asset
 * Inventory puts in `Asset.resource.data` (the resource's JSON, camelCase, as the service's own
 * API answers it), written down here as JSON Schemas (names and types, not Google's text).
 *
 * Provenance (read November 2026; field names, JSON types and enum values only):
 * - storage.googleapis.com/Bucket: the Cloud Storage JSON API v1 `Bucket` resource
 *   (discovery document `storage:v1`, `schemas.Bucket`; the same description the Cloud Storage
 *   stand-in is held to, test/support/cloud-storage-json-api.ts), and the `BucketMetadata` type
 *   of `@google-cloud/storage` 8.4.0 (Apache-2.0) that mirrors it: `iamConfiguration`,
 *   `encryption`, `retentionPolicy` (int64 seconds as a string), `versioning`, `labels`.
 * - cloudkms.googleapis.com/CryptoKey: Cloud KMS API v1 `CryptoKey` (discovery `cloudkms:v1`):
 *   `purpose`, `rotationPeriod` (a google.protobuf.Duration in JSON: seconds with an `s`),
 *   `nextRotationTime`, `versionTemplate` {`algorithm`, `protectionLevel`}, `labels`.
 * - logging.googleapis.com/LogSink: Cloud Logging API v2 `LogSink` (discovery `logging:v2`).
 * - logging.googleapis.com/LogBucket: Cloud Logging API v2 `LogBucket`: `retentionDays` (int32),
 *   `locked`, `lifecycleState`.
 * - monitoring.googleapis.com/AlertPolicy: Cloud Monitoring API v3 `AlertPolicy` (discovery
 *   `monitoring:v3`): `enabled` (BoolValue, a JSON boolean), `notificationChannels`,
 *   `userLabels`, `severity`, `combiner`, `conditions`.
 *
 * `additionalProperties: false` on each object: a fixture may carry only fields written down
 * here, so a misspelt or misplaced field fails the stand-in instead of reaching the connector.
 */
import type { SchemaObject } from 'ajv';

const string = { type: 'string' } as const;
const boolean = { type: 'boolean' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const int64 = { type: 'string', pattern: '^[0-9]+$' } as const;
const labels = { type: 'object', additionalProperties: { type: 'string' } } as const;
/** google.protobuf.Duration in JSON: decimal seconds with an `s` suffix. */
const duration = { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,9})?s$' } as const;

function object(properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject {
  return { type: 'object', properties, required, additionalProperties: false };
}

const bucket = object(
  {
    kind: { const: 'storage#bucket' },
    id: string,
    name: string,
    selfLink: string,
    projectNumber: int64,
    location: string,
    locationType: string,
    storageClass: string,
    timeCreated: dateTime,
    updated: dateTime,
    metageneration: int64,
    etag: string,
    labels,
    iamConfiguration: object({
      publicAccessPrevention: { enum: ['enforced', 'inherited', 'unspecified'] },
      uniformBucketLevelAccess: object({ enabled: boolean, lockedTime: dateTime }),
      bucketPolicyOnly: object({ enabled: boolean, lockedTime: dateTime }),
    }),
    encryption: object({ defaultKmsKeyName: string }),
    retentionPolicy: object({ retentionPeriod: int64, effectiveTime: dateTime, isLocked: boolean }),
    versioning: object({ enabled: boolean }),
  },
  ['kind', 'id', 'name', 'projectNumber', 'location', 'timeCreated'],
);

const cryptoKey = object(
  {
    name: string,
    primary: object({ name: string, state: string, algorithm: string, protectionLevel: string, createTime: dateTime }),
    purpose: {
      enum: [
        'CRYPTO_KEY_PURPOSE_UNSPECIFIED',
        'ENCRYPT_DECRYPT',
        'ASYMMETRIC_SIGN',
        'ASYMMETRIC_DECRYPT',
        'RAW_ENCRYPT_DECRYPT',
        'MAC',
      ],
    },
    createTime: dateTime,
    nextRotationTime: dateTime,
    rotationPeriod: duration,
    versionTemplate: object({
      protectionLevel: { enum: ['PROTECTION_LEVEL_UNSPECIFIED', 'SOFTWARE', 'HSM', 'EXTERNAL', 'EXTERNAL_VPC'] },
      algorithm: string,
    }),
    labels,
    importOnly: boolean,
    destroyScheduledDuration: duration,
  },
  ['name', 'purpose', 'createTime'],
);

const logSink = object(
  {
    name: string,
    destination: string,
    filter: string,
    description: string,
    disabled: boolean,
    exclusions: { type: 'array', items: object({ name: string, description: string, filter: string, disabled: boolean }) },
    outputVersionFormat: { enum: ['VERSION_FORMAT_UNSPECIFIED', 'V2', 'V1'] },
    writerIdentity: string,
    includeChildren: boolean,
    createTime: dateTime,
    updateTime: dateTime,
  },
  ['name', 'destination'],
);

const logBucket = object(
  {
    name: string,
    description: string,
    createTime: dateTime,
    updateTime: dateTime,
    retentionDays: { type: 'integer', minimum: 0 },
    locked: boolean,
    lifecycleState: { enum: ['LIFECYCLE_STATE_UNSPECIFIED', 'ACTIVE', 'DELETE_REQUESTED', 'UPDATING', 'CREATING', 'FAILED'] },
    analyticsEnabled: boolean,
  },
  ['name'],
);

const alertPolicy = object(
  {
    name: string,
    displayName: string,
    userLabels: labels,
    conditions: { type: 'array', items: object({ name: string, displayName: string }, ['displayName']) },
    combiner: { enum: ['COMBINE_UNSPECIFIED', 'AND', 'OR', 'AND_WITH_MATCHING_RESOURCE'] },
    enabled: boolean,
    notificationChannels: { type: 'array', items: string },
    severity: { enum: ['SEVERITY_UNSPECIFIED', 'CRITICAL', 'ERROR', 'WARNING'] },
  },
  ['name', 'displayName'],
);

/** The schema of `resource.data` for each asset type the stand-in serves with RESOURCE content. */
export const resourceShapes: Record<string, SchemaObject> = {
  'storage.googleapis.com/Bucket': bucket,
  'cloudkms.googleapis.com/CryptoKey': cryptoKey,
  'logging.googleapis.com/LogSink': logSink,
  'logging.googleapis.com/LogBucket': logBucket,
  'monitoring.googleapis.com/AlertPolicy': alertPolicy,
};

/**
 * Asset types the stand-in knows beyond those: they carry only IAM policies in its fixtures.
 * The real service knows a few hundred; one outside this list is refused as the service refuses
 * an asset type it does not support (INVALID_ARGUMENT).
 */
export const policyOnlyAssetTypes = [
  'cloudresourcemanager.googleapis.com/Organization',
  'cloudresourcemanager.googleapis.com/Folder',
  'cloudresourcemanager.googleapis.com/Project',
  'bigquery.googleapis.com/Dataset',
  'pubsub.googleapis.com/Topic',
];

/** ListAssetsRequest.page_size: "Default is 100, minimum is 1, and maximum is 1000." (asset_service.proto) */
export const listAssetsPageSize = { default: 100, max: 1000 } as const;
