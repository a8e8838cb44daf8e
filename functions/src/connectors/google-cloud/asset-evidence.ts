/**
 * Cloud Asset Inventory assets as evidence `data`. Each function reads one resource's JSON
 * (`resource.data`, the resource as its own REST API describes it) or one IAM policy, and
 * answers what the evidence kind asks; where the resource does not say (a bucket's
 * classification, an alert's category), the derivation is the conservative one documented in
 * docs/connectors.md, and the item says so in a field of its own.
 */
import { findingFieldLengths } from '@evident/contract';
import { findingChecks } from './finding-checks.js';

/** A resource's JSON, as Cloud Asset Inventory's `resource.data` carries it. */
export type ResourceJson = Record<string, unknown>;

export interface PolicyJson {
  bindings: { role: string; members: string[] }[];
  auditConfigs: { service: string; auditLogConfigs: { logType: string; exemptedMembers: string[] }[] }[];
}

const dataClassifications = ['public', 'internal', 'confidential', 'restricted'];
const alertCategories = ['auth', 'privilege', 'data-exfiltration', 'availability', 'malware', 'other'];
const publicMembers = new Set(['allUsers', 'allAuthenticatedUsers']);
const daySeconds = 86_400;

function record(value: unknown): ResourceJson {
  return typeof value === 'object' && value !== null ? (value as ResourceJson) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The principals of a policy that mean "anyone": `allUsers`, `allAuthenticatedUsers`. */
export function publicPrincipals(policy: PolicyJson): string[] {
  const found = new Set(policy.bindings.flatMap((binding) => binding.members.filter((member) => publicMembers.has(member))));
  return [...found].sort();
}

/** How long a destination keeps what a sink sends it, and whether that can be shortened. */
export interface Retention {
  days: number;
  locked: boolean;
}

/**
 * The top-level fields of each resource's JSON that the functions below read (the connector
 * converts only these): a function reading a field must name it here.
 */
export const fieldsRead = {
  bucket: ['iamConfiguration', 'labels', 'encryption', 'versioning', 'retentionPolicy'],
  logBucket: ['retentionDays', 'locked'],
  cryptoKey: ['versionTemplate', 'primary', 'rotationPeriod', 'purpose'],
  alertPolicy: ['userLabels', 'notificationChannels', 'enabled', 'displayName', 'severity'],
  sink: ['filter', 'exclusions', 'destination', 'disabled'],
} as const satisfies Record<string, readonly string[]>;

/** A Cloud Storage bucket's retention policy: `retentionPeriod` is int64 seconds; none keeps nothing for sure. */
export function bucketRetention(bucket: ResourceJson): Retention {
  const policy = record(bucket['retentionPolicy']);
  const seconds = Number(policy['retentionPeriod'] ?? 0);
  return { days: Math.floor(seconds / daySeconds), locked: policy['isLocked'] === true };
}

/** A Cloud Logging log bucket's `retentionDays` and `locked`. */
export function logBucketRetention(logBucket: ResourceJson): Retention {
  const days = logBucket['retentionDays'];
  return { days: typeof days === 'number' ? days : 0, locked: logBucket['locked'] === true };
}

/**
 * `storage.bucket` from the Cloud Storage JSON API bucket resource. Cloud Storage encrypts every
 * object at rest; `publicAccess` is a grant to anyone that public access prevention does not
 * override; `classification` is the bucket's `classification` label, else `internal`.
 */
export function bucketData(bucket: ResourceJson, publicGrant: boolean): ResourceJson {
  const iam = record(bucket['iamConfiguration']);
  const prevention = iam['publicAccessPrevention'] === 'enforced' ? 'enforced' : 'inherited';
  const publicAccess = publicGrant && prevention !== 'enforced';
  const label = record(bucket['labels'])['classification'];
  const labelled = typeof label === 'string' && dataClassifications.includes(label);
  const kmsKeyName = text(record(bucket['encryption'])['defaultKmsKeyName']);
  const retention = bucketRetention(bucket);
  return {
    encryptedAtRest: true,
    customerManagedKey: kmsKeyName !== undefined,
    publicAccess,
    tlsRequired: !publicAccess,
    versioning: record(bucket['versioning'])['enabled'] === true,
    classification: labelled ? label : 'internal',
    classificationLabelled: labelled,
    publicAccessPrevention: prevention,
    uniformBucketLevelAccess: record(iam['uniformBucketLevelAccess'])['enabled'] === true,
    retentionDays: retention.days,
    retentionLocked: retention.locked,
    ...(kmsKeyName !== undefined && { kmsKeyName }),
  };
}

const keyPurposes: Record<string, 'encryption' | 'signing' | 'mac'> = {
  ENCRYPT_DECRYPT: 'encryption',
  RAW_ENCRYPT_DECRYPT: 'encryption',
  ASYMMETRIC_DECRYPT: 'encryption',
  ASYMMETRIC_SIGN: 'signing',
  MAC: 'mac',
};

const protectionLevels: Record<string, 'software' | 'hsm' | 'external'> = {
  SOFTWARE: 'software',
  HSM: 'hsm',
  EXTERNAL: 'external',
  EXTERNAL_VPC: 'external',
};

/** A google.protobuf.Duration in JSON (`7776000s`) in whole days, rounded up; 0 when absent. */
function durationDays(value: unknown): number {
  const seconds = typeof value === 'string' ? Number(value.replace(/s$/, '')) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / daySeconds) : 0;
}

/**
 * `crypto.key` from the Cloud KMS CryptoKey resource. The version template decides what new
 * versions are (an unset protection level is SOFTWARE, KMS's default); an unknown purpose counts
 * as encryption, so the rotation check applies to it.
 */
export function cryptoKeyData(key: ResourceJson): ResourceJson {
  const template = record(key['versionTemplate']);
  const primary = record(key['primary']);
  const rotationPeriodDays = durationDays(key['rotationPeriod']);
  return {
    purpose: keyPurposes[String(key['purpose'])] ?? 'encryption',
    algorithm: text(template['algorithm']) ?? text(primary['algorithm']) ?? 'unspecified',
    rotationEnabled: rotationPeriodDays > 0,
    rotationPeriodDays,
    protection: protectionLevels[String(template['protectionLevel'] ?? 'SOFTWARE')] ?? 'software',
  };
}

/**
 * `monitoring.alert_policy` from the Cloud Monitoring AlertPolicy resource. An unset `enabled`
 * means enabled (the API's rule on write); the category is the `category` user label, else
 * `other`; it routes to on-call when it names a notification channel. The resource does not say
 * when it last fired, so `lastFiredDaysAgo` is left out.
 */
export function alertPolicyData(policy: ResourceJson): ResourceJson {
  const label = record(policy['userLabels'])['category'];
  const channels = Array.isArray(policy['notificationChannels']) ? policy['notificationChannels'].length : 0;
  return {
    enabled: policy['enabled'] !== false,
    category: typeof label === 'string' && alertCategories.includes(label) ? label : 'other',
    categoryLabelled: typeof label === 'string' && alertCategories.includes(label),
    routesToOnCall: channels > 0,
    notificationChannels: channels,
    ...(text(policy['displayName']) !== undefined && { displayName: policy['displayName'] }),
    ...(text(policy['severity']) !== undefined && { severity: policy['severity'] }),
  };
}

/** What the connector keeps of a sink until its destination's retention is known. */
export interface SinkSummary {
  subject: string;
  destination: string;
  enabled: boolean;
  includesAdminActivity: boolean;
}

const adminActivityLog = /cloudaudit\.googleapis\.com(%2F|\/)activity/;
const negation = /(^|[\s(])(NOT\s|-)/;

/**
 * A sink as the connector keeps it. Admin Activity audit logs are always written; a sink carries
 * them when its filter is empty or names the Admin Activity log without negating anything (so a
 * filter that excludes them, like `_Default`'s, never counts), and no enabled exclusion applies.
 */
export function sinkSummary(subject: string, sink: ResourceJson): SinkSummary {
  const filter = (text(sink['filter']) ?? '').trim();
  const exclusions = Array.isArray(sink['exclusions']) ? sink['exclusions'].map(record) : [];
  const excludes = exclusions.some((exclusion) => exclusion['disabled'] !== true);
  return {
    subject,
    destination: text(sink['destination']) ?? '',
    enabled: sink['disabled'] !== true,
    includesAdminActivity: !excludes && (filter === '' || (adminActivityLog.test(filter) && !negation.test(filter))),
  };
}

/** `logging.sink`: a destination whose retention is unknown (BigQuery, Pub/Sub, outside the scope) keeps nothing for sure. */
export function sinkData(sink: SinkSummary, retention: Retention | undefined): ResourceJson {
  return {
    enabled: sink.enabled,
    destination: sink.destination,
    retentionDays: retention?.days ?? 0,
    immutable: retention?.locked ?? false,
    includesAdminActivity: sink.includesAdminActivity,
    retentionKnown: retention !== undefined,
  };
}

const checkOfType: Record<string, string> = {
  'cloudkms.googleapis.com/CryptoKey': findingChecks.cryptoKeyPublic,
  'bigquery.googleapis.com/Dataset': findingChecks.datasetPublic,
};

function finding(check: string, subject: string, assetType: string, pass: boolean, message: string, scope: string) {
  return {
    check,
    status: pass ? 'PASS' : 'FAIL',
    muted: false,
    severity: 'high',
    message,
    product: 'Evident Google Cloud connector',
    provider: 'gcp',
    account: scope.slice(0, findingFieldLengths.account),
    resourceType: assetType.slice(0, findingFieldLengths.resourceType),
    findingUid: `${check}:${subject}`.slice(0, findingFieldLengths.findingUid),
  };
}

/** A resource's IAM policy as a finding: FAIL when it grants a role to anyone. */
export function publicPolicyFinding(subject: string, assetType: string, policy: PolicyJson, scope: string): ResourceJson {
  const anyone = publicPrincipals(policy);
  const roles = policy.bindings.filter((binding) => binding.members.some((member) => anyone.includes(member))).map((b) => b.role);
  return finding(
    checkOfType[assetType] ?? findingChecks.resourcePublic,
    subject,
    assetType,
    anyone.length === 0,
    anyone.length === 0
      ? 'Its IAM policy grants no role to allUsers or allAuthenticatedUsers.'
      : `Its IAM policy grants ${[...new Set(roles)].join(', ')} to ${anyone.join(' and ')}.`,
    scope,
  );
}

const auditLogTypes = ['ADMIN_READ', 'DATA_READ', 'DATA_WRITE'];

/** The scope's audit configuration as a finding: PASS when `allServices` logs every type with no exemption. */
export function auditLogFinding(subject: string, assetType: string, policy: PolicyJson, scope: string): ResourceJson {
  const all = policy.auditConfigs.find((config) => config.service === 'allServices');
  const logged = new Set(all?.auditLogConfigs.map((config) => config.logType));
  const missing = auditLogTypes.filter((type) => !logged.has(type));
  const exempted = all?.auditLogConfigs.some((config) => config.exemptedMembers.length > 0) ?? false;
  const pass = missing.length === 0 && !exempted;
  const said = pass
    ? 'Data access audit logs (ADMIN_READ, DATA_READ, DATA_WRITE) are on for all services with no exempted principals.'
    : missing.length > 0
      ? `Audit logs for all services leave out ${missing.join(', ')}.`
      : 'Audit logs for all services exempt some principals.';
  return finding(findingChecks.auditLogs, subject, assetType, pass, said, scope);
}
