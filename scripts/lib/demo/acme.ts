/**
 * Acme, the demo's twelve-person software company: its people, repositories, pipelines, data
 * stores, scanned assets, keys, endpoints, vendors and policies. Only facts that hold every day
 * live here; what happens on which day is the collectors' part (`people-collectors.ts`,
 * `platform-collectors.ts`, `security-collectors.ts`, `attestations.ts`).
 */

export const domain = 'acme.example';

type Platform = 'macos' | 'windows' | 'linux' | 'chromeos';

interface Person {
  handle: string;
  admin: boolean;
  engineer: boolean;
  /** Where they work: background checks are not permitted for these roles in the EU offices. */
  region: 'eu' | 'us';
  platform: Platform;
  device: string;
  startedDaysAgo: number;
}

const person = (
  handle: string,
  region: Person['region'],
  platform: Platform,
  device: string,
  startedDaysAgo: number,
  role: { admin?: boolean; engineer?: boolean } = {},
): Person => ({ handle, region, platform, device, startedDaysAgo, admin: role.admin ?? false, engineer: role.engineer ?? false });

export const staff: Person[] = [
  person('maya.chen', 'eu', 'macos', 'ACME-MBP-001', 1650, { admin: true, engineer: true }),
  person('liam.oconnor', 'eu', 'macos', 'ACME-MBP-002', 1650),
  person('amara.okafor', 'eu', 'macos', 'ACME-MBP-007', 910, { admin: true, engineer: true }),
  person('sofia.rossi', 'eu', 'macos', 'ACME-MBP-009', 805, { engineer: true }),
  person('noah.williams', 'us', 'linux', 'ACME-TP-003', 622, { engineer: true }),
  person('jonas.becker', 'eu', 'macos', 'ACME-MBP-012', 540, { engineer: true }),
  person('priya.patel', 'eu', 'windows', 'ACME-XPS-004', 411, { engineer: true }),
  person('ethan.brooks', 'us', 'windows', 'ACME-XPS-005', 378),
  person('chloe.martin', 'eu', 'macos', 'ACME-MBP-015', 297),
  person('daniel.kim', 'us', 'macos', 'ACME-MBP-016', 221),
  person('lucas.silva', 'eu', 'chromeos', 'ACME-CB-002', 148),
];
export const contractor = 'ravi.sharma';
export const leaver = 'tom.baker';
export const email = (handle: string) => `${handle}@${domain}`;

export const repositories = [
  'acme/web-app',
  'acme/api',
  'acme/billing-service',
  'acme/infrastructure',
  'acme/mobile-app',
  'acme/docs',
];
/** The GitHub organisation's members: the engineers, under their GitHub logins; the admins are its owners. */
export const codeHostMembers = staff
  .filter((member) => member.engineer)
  .map((member) => ({ login: member.handle.replace('.', '-'), owner: member.admin }));
export const pipelines = ['web-app-deploy', 'api-deploy', 'billing-deploy', 'infrastructure-apply'];

interface DataStore {
  name: string;
  classification: 'internal' | 'confidential' | 'restricted';
  customerManagedKey: boolean;
  versioning: boolean;
  retentionDays: number;
}

export const dataStores: DataStore[] = [
  {
    name: 'cloudsql/acme-prod-main',
    classification: 'restricted',
    customerManagedKey: true,
    versioning: false,
    retentionDays: 35,
  },
  {
    name: 'cloudsql/acme-prod-billing',
    classification: 'restricted',
    customerManagedKey: true,
    versioning: false,
    retentionDays: 90,
  },
  { name: 'firestore/acme-app', classification: 'confidential', customerManagedKey: false, versioning: false, retentionDays: 35 },
  {
    name: 'gcs/acme-customer-uploads',
    classification: 'confidential',
    customerManagedKey: true,
    versioning: true,
    retentionDays: 35,
  },
  {
    name: 'gcs/acme-marketing-assets',
    classification: 'internal',
    customerManagedKey: false,
    versioning: true,
    retentionDays: 30,
  },
];
export const billingDb = 'cloudsql/acme-prod-billing';
export const marketingBucket = 'gcs/acme-marketing-assets';

/** Quarterly restore tests, days before today. */
export const restoreTests = [
  { store: 'cloudsql/acme-prod-main', testedDaysAgo: 41, restoreMinutes: 38, rtoMinutes: 240 },
  { store: 'cloudsql/acme-prod-billing', testedDaysAgo: 63, restoreMinutes: 22, rtoMinutes: 240 },
  { store: 'gcs/acme-customer-uploads', testedDaysAgo: 78, restoreMinutes: 95, rtoMinutes: 480 },
];

interface Asset {
  name: string;
  scanner: string;
  medium: number;
}

export const assets: Asset[] = [
  { name: 'image/api', scanner: 'trivy', medium: 4 },
  { name: 'image/web-app', scanner: 'trivy', medium: 2 },
  { name: 'image/billing-service', scanner: 'trivy', medium: 3 },
  { name: 'image/reports-worker', scanner: 'trivy', medium: 6 },
  { name: 'host/bastion-1', scanner: 'tenable', medium: 1 },
  { name: 'host/vpn-gateway', scanner: 'tenable', medium: 5 },
  { name: 'host/ci-runner-1', scanner: 'tenable', medium: 2 },
  { name: `app/app.${domain}`, scanner: 'zap', medium: 3 },
];

export const loggingSinks = ['gcp-org-audit-logs', 'okta-system-log', 'github-audit-log', 'google-workspace-admin-log'];

export const alertPolicies = [
  { name: 'okta-suspicious-sign-in', category: 'auth', routesToOnCall: true, period: 9 },
  { name: 'gcp-privileged-role-granted', category: 'privilege', routesToOnCall: true, period: 23 },
  { name: 'gcs-bulk-download', category: 'data-exfiltration', routesToOnCall: true, period: 0 },
  { name: 'edr-malware-detected', category: 'malware', routesToOnCall: true, period: 41 },
  { name: 'api-error-rate', category: 'availability', routesToOnCall: true, period: 6 },
  { name: 'github-org-settings-changed', category: 'other', routesToOnCall: false, period: 30 },
] as const;

const keyRing = 'projects/acme-prod/locations/europe-west1/keyRings';
export const cryptoKeys = [
  {
    name: `${keyRing}/data/cryptoKeys/cloudsql-main`,
    purpose: 'encryption',
    algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION',
    period: 90,
    protection: 'hsm',
  },
  {
    name: `${keyRing}/data/cryptoKeys/cloudsql-billing`,
    purpose: 'encryption',
    algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION',
    period: 90,
    protection: 'hsm',
  },
  {
    name: `${keyRing}/data/cryptoKeys/gcs-uploads`,
    purpose: 'encryption',
    algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION',
    period: 180,
    protection: 'software',
  },
  {
    name: `${keyRing}/signing/cryptoKeys/webhook-signing`,
    purpose: 'signing',
    algorithm: 'EC_SIGN_P256_SHA256',
    period: 0,
    protection: 'hsm',
  },
] as const;

export const tlsEndpoints = [
  { host: domain, minTlsVersion: '1.2', certificateDays: 61 },
  { host: `app.${domain}`, minTlsVersion: '1.3', certificateDays: 74 },
  { host: `api.${domain}`, minTlsVersion: '1.2', certificateDays: 52 },
  { host: `status.${domain}`, minTlsVersion: '1.2', certificateDays: 0 },
] as const;

/** The latest access review of each system, days before today: all due again, none done. */
export const accessReviews = [
  { system: 'gcp-acme-prod', completedDaysAgo: 108, reviewer: email('maya.chen'), accounts: 14, revoked: 2 },
  { system: 'github-acme', completedDaysAgo: 106, reviewer: email('amara.okafor'), accounts: 13, revoked: 1 },
  { system: 'okta-admin-roles', completedDaysAgo: 104, reviewer: email('maya.chen'), accounts: 4, revoked: 0 },
];

export const vendors = [
  {
    name: 'Google Cloud',
    tier: 'critical',
    assessedDaysAgo: 122,
    residualRisk: 'low',
    assuranceReportValid: true,
    dpaSigned: true,
  },
  { name: 'Okta', tier: 'critical', assessedDaysAgo: 187, residualRisk: 'low', assuranceReportValid: true, dpaSigned: true },
  { name: 'GitHub', tier: 'high', assessedDaysAgo: 96, residualRisk: 'low', assuranceReportValid: true, dpaSigned: true },
  { name: 'Datadog', tier: 'high', assessedDaysAgo: 301, residualRisk: 'medium', assuranceReportValid: false, dpaSigned: true },
  { name: 'Slack', tier: 'moderate', assessedDaysAgo: 240, residualRisk: 'low', assuranceReportValid: true, dpaSigned: true },
  { name: 'Figma', tier: 'low', assessedDaysAgo: 154, residualRisk: 'low', assuranceReportValid: true, dpaSigned: false },
] as const;

/** An attestation someone at Acme imported on day 1, approved `approvedDaysAgo` days before today. */
export interface ImportedAttestation {
  subject: string;
  controls: string[];
  approvedDaysAgo: number;
  statement: string;
  /** The control is scoped out rather than attested. */
  notApplicable?: boolean;
}

/** Policies and scoping decisions imported on day 1, with the day each was approved. */
export const importedAttestations: ImportedAttestation[] = [
  {
    subject: 'information-security-policy',
    controls: ['PPL-06'],
    approvedDaysAgo: 118,
    statement:
      'The information security policy v4 was approved by the CEO and published on the intranet; every employee ' +
      'was asked to read and acknowledge it.',
  },
  {
    subject: 'security-roles-and-responsibilities',
    controls: ['PPL-07'],
    approvedDaysAgo: 118,
    statement:
      'The CTO owns information security; the SRE lead owns incident response and the operations lead owns ' +
      'people security. The RACI is an annex of the information security policy.',
  },
  {
    subject: 'change-management-procedure',
    controls: ['CHG-05'],
    approvedDaysAgo: 203,
    statement:
      'Changes reach production through reviewed pull requests and the deploy pipelines; emergency changes are ' +
      'allowed with one approver and reviewed within two working days.',
  },
  {
    subject: 'vendor-inventory',
    controls: ['VEN-01'],
    approvedDaysAgo: 57,
    statement: 'The vendor inventory lists every vendor with an owner, the data it handles and a risk tier; reviewed quarterly.',
  },
  {
    subject: 'business-continuity-plan',
    controls: ['BCK-04'],
    approvedDaysAgo: 151,
    statement:
      'The business continuity and disaster recovery plan was approved by the CEO and tested by failing the ' +
      'production database over to its standby region.',
  },
  {
    subject: 'cryptography-policy',
    controls: ['ENC-05'],
    // A year and a week before today: it turns stale on day 6, until v2 is submitted on day 10.
    approvedDaysAgo: 373,
    statement: 'The cryptography and key management policy v1 was approved by the CTO.',
  },
  {
    subject: 'background-check-scoping',
    controls: ['PPL-01'],
    approvedDaysAgo: 88,
    notApplicable: true,
    statement:
      'Criminal background checks are not permitted for Acme\u2019s roles in its EU offices, and US staff are checked by ' +
      'the employer of record; identity and right to work are verified at onboarding instead. Scoped out by the CEO.',
  },
];

/**
 * The records of governance, risk, assets and physical security, imported on day 1 from the
 * compliance register, with the day each was approved. The independent review of the controls
 * (GOV-03) has not happened yet, so it has none.
 */
export const importedRecords: ImportedAttestation[] = [
  {
    subject: 'board-security-review',
    controls: ['GOV-01'],
    approvedDaysAgo: 64,
    statement:
      'The board (the two founders and an independent investor director) reviewed the security programme: the risk ' +
      'register, the open deficiencies, the incident log and the SOC 2 readiness plan. The minutes record its questions.',
  },
  {
    subject: 'deficiency-register-review',
    controls: ['GOV-02'],
    approvedDaysAgo: 23,
    statement:
      'Leadership reviewed the deficiency register: eleven open items, two of them overdue (the lapsed Datadog ' +
      'assurance report and the old high findings on the VPN gateway), each with an owner and a new date.',
  },
  {
    subject: 'control-matrix',
    controls: ['GOV-04'],
    approvedDaysAgo: 118,
    statement:
      'The control matrix links each risk in the register to the controls of the Evident catalog and records the ' +
      'tailoring: background checks (PPL-01) scoped out, no control added.',
  },
  {
    subject: 'risk-management-policy',
    controls: ['RSK-01'],
    approvedDaysAgo: 118,
    statement:
      'The risk management policy sets the security objectives (the commitments of the customer agreement and its ' +
      '99.9% availability target), a five-point likelihood and impact scale, the appetite (risks scored above 12 are ' +
      'treated or accepted by the CEO) and the register of legal and contractual requirements (GDPR, customer DPAs).',
  },
  {
    subject: 'annual-risk-assessment',
    controls: ['RSK-02'],
    // A year and a day before today: it turns stale on day 13; the new assessment is under way.
    approvedDaysAgo: 366,
    statement:
      'The annual risk assessment was completed with the CTO and the system owners: 24 risks, five above the ' +
      'appetite, each with a treatment plan; the CEO accepted the residual risks.',
  },
  {
    subject: 'fraud-risk-assessment',
    controls: ['RSK-03'],
    approvedDaysAgo: 301,
    statement:
      'Fraud and misuse risks were assessed: refunds need a second approver, exports of production data are logged ' +
      'and reviewed, and nobody can merge or deploy their own change without a review.',
  },
  {
    subject: 'significant-change-assessments',
    controls: ['RSK-04'],
    approvedDaysAgo: 41,
    statement:
      'The significant changes of the past six months were assessed before they were made: billing moved to its own ' +
      'database, and the mobile app launched. Their risks were added to the register.',
  },
  {
    subject: 'asset-inventory',
    controls: ['AST-01'],
    approvedDaysAgo: 57,
    statement:
      'The asset inventory lists every cloud project, data store, SaaS application and device with an owner and a ' +
      'criticality; the production network and customer data flow diagrams were reviewed with it.',
  },
  {
    subject: 'data-classification-scheme',
    controls: ['AST-02'],
    approvedDaysAgo: 118,
    statement:
      'The data classification scheme (public, internal, confidential, restricted) is an annex of the information ' +
      'security policy; every data store carries its class as a label.',
  },
  {
    subject: 'data-retention-schedule',
    controls: ['AST-03'],
    approvedDaysAgo: 203,
    statement:
      'The retention schedule keeps customer data for the contract and 30 days after it, audit logs for a year and ' +
      'backups for 35 days (90 for billing); a scheduled job deletes the data of customers who left.',
  },
  {
    subject: 'office-access-review',
    controls: ['PHY-01'],
    approvedDaysAgo: 96,
    statement:
      'Badge access to the offices was reviewed: every holder is current staff, and the leaver returned his badge on ' +
      'his last day. Visitors sign in at reception and are escorted.',
  },
  {
    subject: 'cloud-provider-assurance',
    controls: ['PHY-02'],
    approvedDaysAgo: 122,
    statement:
      'Google Cloud\u2019s SOC 2 Type II report covering europe-west1 was reviewed: no exception on physical access ' +
      'or environmental protection, and the complementary user entity controls it lists are in place.',
  },
  {
    subject: 'device-disposal-log',
    controls: ['PHY-03'],
    approvedDaysAgo: 150,
    statement:
      'Three laptops were erased through device management and re-issued, and two were recycled with certificates ' +
      'of destruction; each is in the disposal log.',
  },
];
