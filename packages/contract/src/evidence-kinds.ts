/**
 * The kinds of evidence Evident understands, each with the JSON schema of its `data`.
 *
 * An evidence item is one observation of one subject (a user, a repository, a device, a vendor)
 * at one time. Collectors send one item per subject per collection; the engine keeps the newest
 * item per (kind, subject) when it evaluates a date. Schemas require what the catalog's checks
 * read and allow extra fields, so collectors can send more than today's checks need.
 */
import type { SchemaObject } from 'openapi3-ts/oas31';
import {
  type EvidenceKindName,
  evidenceIdPattern,
  findingFieldLengths,
  maxFindingRequirements,
  maxFindingResources,
  maxFindingTextLength,
} from './index.ts';

export interface EvidenceKind {
  /** The component name of the data schema in the OpenAPI description. */
  schemaName: string;
  summary: string;
  /** What the `subject` of an item of this kind names. */
  subject: string;
  data: SchemaObject;
  /** A realistic `data` value; the build checks it against `data` and the catalog's checks run on it. */
  example: Record<string, unknown>;
}

const date = { type: 'string', format: 'date' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const count = { type: 'integer', minimum: 0 } as const;
/** A finding's requirement ids in one framework, in the catalog's notation. */
const requirementIds = { type: 'array', maxItems: maxFindingRequirements, items: { type: 'string' } } as const;
const days = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

function kind(
  schemaName: string,
  summary: string,
  subject: string,
  properties: Record<string, SchemaObject>,
  required: string[],
  example: Record<string, unknown>,
): EvidenceKind {
  return {
    schemaName,
    summary,
    subject,
    data: { type: 'object', description: summary, required, properties, additionalProperties: true },
    example,
  };
}

export const evidenceKinds = {
  'idp.user': kind(
    'IdpUserData',
    'An account in the identity provider.',
    'the account, e.g. its email address',
    {
      email: { type: 'string', format: 'email' },
      active: { type: 'boolean', description: 'False for suspended or deprovisioned accounts.' },
      mfaEnabled: { type: 'boolean' },
      phishingResistantMfa: { type: 'boolean', description: 'A FIDO2/WebAuthn or smart-card factor is enrolled.' },
      admin: { type: 'boolean', description: 'Holds an administrative role in the identity provider.' },
      lastLoginDaysAgo: days('Days since the last sign-in; absent if never signed in.'),
      employmentStatus: { type: 'string', enum: ['active', 'leaver', 'contractor'] },
    },
    ['email', 'active', 'mfaEnabled', 'admin', 'employmentStatus'],
    {
      email: 'ada@example.com',
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: true,
      admin: false,
      lastLoginDaysAgo: 1,
      employmentStatus: 'active',
    },
  ),
  'idp.settings': kind(
    'IdpSettingsData',
    'Tenant-wide settings of the identity provider.',
    'the identity provider tenant',
    {
      mfaRequired: { type: 'boolean' },
      passwordMinLength: { type: 'integer', minimum: 0 },
      sessionTimeoutMinutes: { type: 'integer', minimum: 0 },
      ssoEnforced: { type: 'boolean', description: 'Applications must sign in through the identity provider.' },
      lockoutThreshold: { type: 'integer', minimum: 0, description: 'Failed attempts before lockout; 0 means never.' },
    },
    ['mfaRequired', 'passwordMinLength', 'sessionTimeoutMinutes', 'ssoEnforced', 'lockoutThreshold'],
    { mfaRequired: true, passwordMinLength: 14, sessionTimeoutMinutes: 720, ssoEnforced: true, lockoutThreshold: 10 },
  ),
  'access.review': kind(
    'AccessReviewData',
    'A completed review of who has access to a system.',
    'the system whose access was reviewed',
    {
      completedOn: date,
      reviewer: { type: 'string' },
      accountsReviewed: count,
      accessRevoked: count,
      exceptionsOpen: { ...count, description: 'Findings of the review not yet resolved.' },
    },
    ['completedOn', 'reviewer', 'accountsReviewed', 'accessRevoked', 'exceptionsOpen'],
    { completedOn: '2026-10-01', reviewer: 'grace@example.com', accountsReviewed: 42, accessRevoked: 3, exceptionsOpen: 0 },
  ),
  'repo.branch_protection': kind(
    'RepoBranchProtectionData',
    "Protection rules on a source repository's default branch.",
    'the repository, e.g. `acme/payments-api`',
    {
      defaultBranch: { type: 'string' },
      protected: { type: 'boolean' },
      requiredApprovals: count,
      dismissStaleApprovals: { type: 'boolean' },
      requireStatusChecks: { type: 'boolean' },
      allowForcePush: { type: 'boolean' },
      enforceForAdmins: { type: 'boolean' },
      requireSignedCommits: { type: 'boolean' },
    },
    ['defaultBranch', 'protected', 'requiredApprovals', 'requireStatusChecks', 'allowForcePush', 'enforceForAdmins'],
    {
      defaultBranch: 'main',
      protected: true,
      requiredApprovals: 1,
      dismissStaleApprovals: true,
      requireStatusChecks: true,
      allowForcePush: false,
      enforceForAdmins: true,
      requireSignedCommits: false,
    },
  ),
  'repo.member': kind(
    'RepoMemberData',
    'A member of the organisation that holds the source repositories on a code host.',
    'the member in its organisation, e.g. `acme/ada-l`',
    {
      login: { type: 'string', description: "The member's account name on the code host." },
      admin: { type: 'boolean', description: 'An owner of the organisation, who can change its settings and every repository.' },
      mfaEnabled: { type: 'boolean', description: 'Two-factor authentication is enabled on the account.' },
    },
    ['login', 'admin', 'mfaEnabled'],
    { login: 'ada-l', admin: false, mfaEnabled: true },
  ),
  'ci.pipeline': kind(
    'CiPipelineData',
    'The delivery pipeline that deploys a service to production.',
    'the service or pipeline',
    {
      deploysOnlyFromDefaultBranch: { type: 'boolean' },
      productionApprovalRequired: { type: 'boolean' },
      secretScanning: { type: 'boolean' },
      dependencyScanning: { type: 'boolean' },
      staticAnalysis: { type: 'boolean' },
    },
    ['deploysOnlyFromDefaultBranch', 'productionApprovalRequired', 'secretScanning', 'dependencyScanning', 'staticAnalysis'],
    {
      deploysOnlyFromDefaultBranch: true,
      productionApprovalRequired: true,
      secretScanning: true,
      dependencyScanning: true,
      staticAnalysis: true,
    },
  ),
  'backup.job': kind(
    'BackupJobData',
    'A scheduled backup of a data store.',
    'the data store being backed up',
    {
      lastSuccessHoursAgo: { type: 'number', minimum: 0 },
      retentionDays: count,
      encrypted: { type: 'boolean' },
      offsite: { type: 'boolean', description: 'Copies are kept in another region or account.' },
      immutable: { type: 'boolean', description: 'Copies cannot be deleted or altered before retention ends.' },
    },
    ['lastSuccessHoursAgo', 'retentionDays', 'encrypted', 'offsite'],
    { lastSuccessHoursAgo: 6, retentionDays: 35, encrypted: true, offsite: true, immutable: true },
  ),
  'backup.restore_test': kind(
    'BackupRestoreTestData',
    'A test restore of a backup into a scratch environment.',
    'the data store that was restored',
    {
      testedOn: date,
      succeeded: { type: 'boolean' },
      restoreMinutes: { type: 'number', minimum: 0 },
      rtoMinutes: { type: 'number', minimum: 0, description: 'The recovery time objective the restore must meet.' },
      dataVerified: { type: 'boolean', description: 'Restored data was checked for integrity.' },
    },
    ['testedOn', 'succeeded', 'restoreMinutes', 'rtoMinutes'],
    { testedOn: '2026-10-15', succeeded: true, restoreMinutes: 42, rtoMinutes: 240, dataVerified: true },
  ),
  'vuln.scan': kind(
    'VulnScanData',
    'The open findings of the latest vulnerability scan of an asset.',
    'the scanned asset (host, image or application)',
    {
      scanner: { type: 'string' },
      authenticated: { type: 'boolean', description: 'The scan ran with credentials.' },
      openCritical: count,
      openHigh: count,
      openMedium: count,
      oldestCriticalDays: days('Age of the oldest open critical finding; 0 when there is none.'),
      oldestHighDays: days('Age of the oldest open high finding; 0 when there is none.'),
    },
    ['scanner', 'openCritical', 'openHigh', 'openMedium', 'oldestCriticalDays', 'oldestHighDays'],
    {
      scanner: 'trivy',
      authenticated: true,
      openCritical: 0,
      openHigh: 1,
      openMedium: 4,
      oldestCriticalDays: 0,
      oldestHighDays: 9,
    },
  ),
  'endpoint.device': kind(
    'EndpointDeviceData',
    'A laptop or workstation as the device-management tool last saw it.',
    'the device serial number or name',
    {
      owner: { type: 'string' },
      platform: { type: 'string', enum: ['macos', 'windows', 'linux', 'chromeos'] },
      diskEncrypted: { type: 'boolean' },
      edrInstalled: { type: 'boolean' },
      edrHealthy: { type: 'boolean' },
      osSupported: { type: 'boolean', description: 'The OS version still receives security updates.' },
      osPatchAgeDays: days('Days since the newest OS security update was installed.'),
      screenLockMinutes: { type: 'integer', minimum: 0 },
      firewallEnabled: { type: 'boolean' },
    },
    ['owner', 'platform', 'diskEncrypted', 'edrInstalled', 'edrHealthy', 'osSupported', 'screenLockMinutes', 'firewallEnabled'],
    {
      owner: 'ada@example.com',
      platform: 'macos',
      diskEncrypted: true,
      edrInstalled: true,
      edrHealthy: true,
      osSupported: true,
      osPatchAgeDays: 12,
      screenLockMinutes: 5,
      firewallEnabled: true,
    },
  ),
  'logging.sink': kind(
    'LoggingSinkData',
    'Where a system sends its audit logs, and how they are kept.',
    'the system whose logs are collected',
    {
      enabled: { type: 'boolean' },
      destination: { type: 'string' },
      retentionDays: count,
      immutable: { type: 'boolean', description: 'Logs cannot be altered or deleted before retention ends.' },
      includesAdminActivity: { type: 'boolean' },
    },
    ['enabled', 'destination', 'retentionDays', 'immutable', 'includesAdminActivity'],
    { enabled: true, destination: 'siem', retentionDays: 400, immutable: true, includesAdminActivity: true },
  ),
  'monitoring.alert_policy': kind(
    'MonitoringAlertPolicyData',
    'An alerting rule on security-relevant events.',
    'the alert policy',
    {
      enabled: { type: 'boolean' },
      category: { type: 'string', enum: ['auth', 'privilege', 'data-exfiltration', 'availability', 'malware', 'other'] },
      routesToOnCall: { type: 'boolean', description: 'Alerts page a person on call.' },
      lastFiredDaysAgo: days('Days since the policy last fired or was tested; absent if never.'),
    },
    ['enabled', 'category', 'routesToOnCall'],
    { enabled: true, category: 'auth', routesToOnCall: true, lastFiredDaysAgo: 3 },
  ),
  'crypto.key': kind(
    'CryptoKeyData',
    'A key in the key-management service.',
    'the key resource name',
    {
      purpose: { type: 'string', enum: ['encryption', 'signing', 'mac'] },
      algorithm: { type: 'string' },
      rotationEnabled: { type: 'boolean' },
      rotationPeriodDays: count,
      protection: { type: 'string', enum: ['software', 'hsm', 'external'] },
    },
    ['purpose', 'algorithm', 'rotationEnabled', 'rotationPeriodDays', 'protection'],
    { purpose: 'encryption', algorithm: 'AES256_GCM', rotationEnabled: true, rotationPeriodDays: 90, protection: 'hsm' },
  ),
  'storage.bucket': kind(
    'StorageBucketData',
    'A data store (bucket, database or volume) and how it protects data at rest.',
    'the bucket or database',
    {
      encryptedAtRest: { type: 'boolean' },
      customerManagedKey: { type: 'boolean' },
      publicAccess: { type: 'boolean' },
      tlsRequired: { type: 'boolean', description: 'Plain-text connections are refused.' },
      versioning: { type: 'boolean' },
      classification: { type: 'string', enum: ['public', 'internal', 'confidential', 'restricted'] },
    },
    ['encryptedAtRest', 'publicAccess', 'tlsRequired', 'classification'],
    {
      encryptedAtRest: true,
      customerManagedKey: true,
      publicAccess: false,
      tlsRequired: true,
      versioning: true,
      classification: 'confidential',
    },
  ),
  'tls.endpoint': kind(
    'TlsEndpointData',
    'A public HTTPS endpoint as a TLS scanner saw it.',
    'the host name',
    {
      minTlsVersion: { type: 'string', enum: ['1.0', '1.1', '1.2', '1.3'] },
      hsts: { type: 'boolean' },
      certificateDaysLeft: { type: 'integer', description: 'Days until the certificate expires; negative once expired.' },
      weakCiphers: { type: 'boolean' },
    },
    ['minTlsVersion', 'hsts', 'certificateDaysLeft', 'weakCiphers'],
    { minTlsVersion: '1.2', hsts: true, certificateDaysLeft: 61, weakCiphers: false },
  ),
  'training.completion': kind(
    'TrainingCompletionData',
    "A person's completion of a training course.",
    'the person and the course, e.g. `ada@example.com/security-awareness`, so each course keeps its own newest item',
    {
      course: { type: 'string', enum: ['security-awareness', 'secure-coding', 'privacy', 'incident-response'] },
      completedOn: date,
      passed: { type: 'boolean' },
      score: { type: 'number', minimum: 0, maximum: 100 },
    },
    ['course', 'completedOn', 'passed'],
    { course: 'security-awareness', completedOn: '2026-09-30', passed: true, score: 92 },
  ),
  'people.screening': kind(
    'PeopleScreeningData',
    'Pre-employment screening of a person, and their acknowledgement of policies.',
    'the person',
    {
      backgroundCheck: { type: 'string', enum: ['clear', 'pending', 'adverse', 'not-required'] },
      policiesAcknowledged: { type: 'boolean' },
      ndaSigned: { type: 'boolean' },
      startedOn: date,
    },
    ['backgroundCheck', 'policiesAcknowledged', 'ndaSigned', 'startedOn'],
    { backgroundCheck: 'clear', policiesAcknowledged: true, ndaSigned: true, startedOn: '2025-03-03' },
  ),
  'vendor.assessment': kind(
    'VendorAssessmentData',
    'A security review of a third-party vendor.',
    'the vendor',
    {
      tier: { type: 'string', enum: ['critical', 'high', 'moderate', 'low'] },
      assessedOn: date,
      residualRisk: { type: 'string', enum: ['low', 'medium', 'high'] },
      assuranceReportValid: {
        type: 'boolean',
        description: 'A current SOC 2 type II report or ISO 27001 certificate is on file.',
      },
      dpaSigned: { type: 'boolean', description: 'A data processing agreement is signed.' },
    },
    ['tier', 'assessedOn', 'residualRisk', 'assuranceReportValid', 'dpaSigned'],
    { tier: 'critical', assessedOn: '2026-06-12', residualRisk: 'low', assuranceReportValid: true, dpaSigned: true },
  ),
  'incident.exercise': kind(
    'IncidentExerciseData',
    'A tabletop or live exercise of the incident response plan.',
    'the plan or team exercised',
    {
      exercisedOn: date,
      scenario: { type: 'string' },
      participants: count,
      lessonsRecorded: { type: 'boolean' },
      actionItemsOpen: count,
    },
    ['exercisedOn', 'scenario', 'participants', 'lessonsRecorded', 'actionItemsOpen'],
    {
      exercisedOn: '2026-08-20',
      scenario: 'ransomware on a file server',
      participants: 9,
      lessonsRecorded: true,
      actionItemsOpen: 1,
    },
  ),
  'scanner.finding': kind(
    'ScannerFindingData',
    'One check of a cloud security scanner on one resource: an OCSF Detection Finding (Prowler\u2019s ' +
      '`json-ocsf` output), imported with `POST /api/evidence/imports/ocsf` or `npm run collect -- --format ocsf`. ' +
      'A control follows the checks its catalog entry lists (`scanner` in the control).',
    'the resource checked, e.g. an ARN',
    {
      check: {
        type: 'string',
        minLength: 1,
        maxLength: findingFieldLengths.check,
        description: 'The scanner\u2019s check id (`metadata.event_code`).',
      },
      status: {
        type: 'string',
        enum: ['PASS', 'FAIL', 'MANUAL'],
        description: '`MANUAL`: the scanner cannot decide; shown, but it decides nothing.',
      },
      muted: {
        type: 'boolean',
        description: 'Muted in the scanner (OCSF status Suppressed): shown, but it decides nothing.',
      },
      severity: {
        type: 'string',
        maxLength: findingFieldLengths.severity,
        description: 'The OCSF severity, lower case: `informational` to `critical`.',
      },
      title: { type: 'string', maxLength: maxFindingTextLength },
      message: { type: 'string', maxLength: maxFindingTextLength, description: 'What the scanner found (`status_detail`).' },
      remediation: { type: 'string', maxLength: maxFindingTextLength },
      resourceCount: {
        type: 'integer',
        minimum: 2,
        maximum: maxFindingResources,
        description:
          'On the first resource\u2019s item of a finding that names several resources: how many. This item carries ' +
          'the finding\u2019s title, message and remediation for them all.',
      },
      textsIn: {
        type: 'string',
        pattern: evidenceIdPattern,
        description:
          'On the other resources\u2019 items of such a finding, instead of title, message and remediation: the id ' +
          'of the item that carries them.',
      },
      product: { type: 'string', maxLength: findingFieldLengths.product, description: 'The scanner, e.g. `Prowler`.' },
      provider: { type: 'string', maxLength: findingFieldLengths.provider, description: 'The cloud, e.g. `aws`.' },
      account: { type: 'string', maxLength: findingFieldLengths.account, description: 'The cloud account or subscription.' },
      region: { type: 'string', maxLength: findingFieldLengths.region },
      resourceType: { type: 'string', maxLength: findingFieldLengths.resourceType },
      findingUid: {
        type: 'string',
        maxLength: findingFieldLengths.findingUid,
        description: 'The finding\u2019s `finding_info.uid`.',
      },
      requirements: {
        type: 'object',
        additionalProperties: false,
        description: 'Framework requirements the finding names itself, in the catalog\u2019s notation.',
        properties: {
          soc2: requirementIds,
          iso27001: requirementIds,
          nist80053: requirementIds,
        },
      },
    },
    ['check', 'status', 'muted', 'severity', 'product', 'findingUid'],
    {
      check: 's3_bucket_default_encryption',
      status: 'FAIL',
      muted: false,
      severity: 'medium',
      title: 'Check if S3 buckets have default encryption (SSE) enabled or use a bucket policy to enforce it.',
      message: 'S3 Bucket acme-exports does not have Server Side Encryption enabled.',
      product: 'Prowler',
      provider: 'aws',
      account: '123456789012',
      region: 'eu-west-1',
      findingUid: 'prowler-aws-s3_bucket_default_encryption-123456789012-eu-west-1-acme-exports',
    },
  ),
  attestation: kind(
    'AttestationData',
    'A statement by a person that a control operates (or does not apply), usually with attached files. ' +
      'Submissions become attestations; the controls it supports are in the item\u2019s `controls`.',
    'what the statement is about, e.g. a policy or a process',
    {
      statement: { type: 'string', minLength: 1, maxLength: 4000 },
      notApplicable: {
        type: 'boolean',
        description: 'The listed controls do not apply (a scoping decision); the statement says why.',
      },
      submittedBy: { type: 'string', description: 'Who made the statement.' },
      submissionId: { type: 'string', description: 'The submission this attestation came from, if any.' },
    },
    ['statement'],
    { statement: 'The information security policy was reviewed and approved by the CEO on 2026-03-02.' },
  ),
} satisfies Record<EvidenceKindName, EvidenceKind>;

/** Shared field shapes other modules reuse. */
export const fieldShapes = { date, dateTime };
