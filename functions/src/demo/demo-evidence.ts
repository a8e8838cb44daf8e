/**
 * Demo data: the last days of Acme, a twelve-person software company, as its collectors and its
 * people would have told Evident. Pure and deterministic — the same `today` gives the same items
 * with the same ids — so the seeding script, the tests and a screenshot all see the same story.
 *
 * Every collector posts every subject once a day between 02:00 and 05:00 (in `timeZone`, UTC by
 * default), with a jitter derived from the subject. Day 1 is 13 days before today:
 *
 *   day 1   policies and scoping decisions are imported as attestations; PPL-01 is scoped out.
 *           Known from the start: a Windows laptop behind on patches (END-03), a VPN host with
 *           old high findings (VUL-02), an exfiltration alert that never fires (LOG-04), a
 *           vendor whose SOC 2 report lapsed (VEN-02), and no attestation yet for the incident
 *           response plan (INC-01, INC-04), the penetration test (VUL-05) or the disciplinary
 *           process (PPL-05).
 *   day 3   the scanner finds a 16-day-old critical on the reports worker image (VUL-01 fails).
 *   day 4   a contractor joins without MFA (IAM-01 fails) and before signing the policies
 *           (PPL-02 fails). The KMS and access-review collectors post for the last time.
 *   day 5   the incident response plan is submitted (INC-01, INC-04 pass); the contractor fails
 *           security awareness training (PPL-03 fails, and stays failing).
 *   day 6   the billing database misses its backup (BCK-01 fails); the contractor signs
 *           (PPL-02 fixed); the cryptography policy attestation turns a year old (ENC-05 stale).
 *   day 7   billing-service loses its branch protection for a hotfix (CHG-01, CHG-02, CHG-04 fail).
 *   day 8   the backup is rerun (BCK-01 fixed); status.acme.example's certificate failed to
 *           renew (ENC-03 fails); the penetration test is attested (VUL-05 passes).
 *   day 9   the contractor enrols MFA (IAM-01 fixed); the certificate is renewed (ENC-03 fixed).
 *   day 10  the reports worker is patched (VUL-01 fixed); a new cryptography policy is submitted
 *           (ENC-05 passes); the last access review passes 100 days (IAM-05 stale).
 *   day 11  protection returns on billing-service but still lets admins force-push (CHG-01 and
 *           CHG-04 fixed, CHG-02 still failing); the first tabletop exercise is recorded with open
 *           actions (INC-02, missing until now, fails); the KMS evidence is 7 days old (ENC-04 stale).
 *   day 12  the marketing bucket is opened to the internet (IAM-08 fails); a Chromebook's EDR
 *           agent stops reporting (END-02 fails).
 *   day 14  today: every status appears — passing, failing, stale, missing and not applicable.
 */
import { addDays, startOfDay } from '../assessment/dates.js';
import type { EvidenceInput, EvidenceKindName } from '../assessment/model.js';
import type { NewSubmission } from '../submissions/submission-store.js';

/** A submission as a person made it through the web app on a demo day. */
export interface DemoSubmission extends NewSubmission {
  /** When it was made (ISO 8601), during its day. */
  submittedAt: string;
}

export interface DemoDay {
  date: string;
  evidence: EvidenceInput[];
  submissions: DemoSubmission[];
}

export interface DemoOptions {
  /** The report time zone whose days the collectors follow; UTC by default. */
  timeZone?: string;
  /**
   * The current time, when `today` is the current day: today's collections are compressed to
   * before it, so no item is collected in the future.
   */
  now?: Date;
}

const domain = 'acme.example';
const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
/** Every collector posts before this offset into the day. */
const collectionWindowMs = 5 * hourMs;

/** FNV-1a: a stable 32-bit hash for jitter and varied-but-fixed values. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Letters, digits and dashes: what an evidence id may hold. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const round1 = (value: number) => Math.round(value * 10) / 10;

// ── Acme ────────────────────────────────────────────────────────────────────────────────────────

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

const staff: Person[] = [
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
const contractor = 'ravi.sharma';
const leaver = 'tom.baker';
const email = (handle: string) => `${handle}@${domain}`;

const repositories = ['acme/web-app', 'acme/api', 'acme/billing-service', 'acme/infrastructure', 'acme/mobile-app', 'acme/docs'];
const pipelines = ['web-app-deploy', 'api-deploy', 'billing-deploy', 'infrastructure-apply'];

interface DataStore {
  name: string;
  classification: 'internal' | 'confidential' | 'restricted';
  customerManagedKey: boolean;
  versioning: boolean;
  retentionDays: number;
}

const dataStores: DataStore[] = [
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
const billingDb = 'cloudsql/acme-prod-billing';
const marketingBucket = 'gcs/acme-marketing-assets';

/** Quarterly restore tests, days before today. */
const restoreTests = [
  { store: 'cloudsql/acme-prod-main', testedDaysAgo: 41, restoreMinutes: 38, rtoMinutes: 240 },
  { store: 'cloudsql/acme-prod-billing', testedDaysAgo: 63, restoreMinutes: 22, rtoMinutes: 240 },
  { store: 'gcs/acme-customer-uploads', testedDaysAgo: 78, restoreMinutes: 95, rtoMinutes: 480 },
];

interface Asset {
  name: string;
  scanner: string;
  medium: number;
}

const assets: Asset[] = [
  { name: 'image/api', scanner: 'trivy', medium: 4 },
  { name: 'image/web-app', scanner: 'trivy', medium: 2 },
  { name: 'image/billing-service', scanner: 'trivy', medium: 3 },
  { name: 'image/reports-worker', scanner: 'trivy', medium: 6 },
  { name: 'host/bastion-1', scanner: 'tenable', medium: 1 },
  { name: 'host/vpn-gateway', scanner: 'tenable', medium: 5 },
  { name: 'host/ci-runner-1', scanner: 'tenable', medium: 2 },
  { name: `app/app.${domain}`, scanner: 'zap', medium: 3 },
];

const loggingSinks = ['gcp-org-audit-logs', 'okta-system-log', 'github-audit-log', 'google-workspace-admin-log'];

const alertPolicies = [
  { name: 'okta-suspicious-sign-in', category: 'auth', routesToOnCall: true, period: 9 },
  { name: 'gcp-privileged-role-granted', category: 'privilege', routesToOnCall: true, period: 23 },
  { name: 'gcs-bulk-download', category: 'data-exfiltration', routesToOnCall: true, period: 0 },
  { name: 'edr-malware-detected', category: 'malware', routesToOnCall: true, period: 41 },
  { name: 'api-error-rate', category: 'availability', routesToOnCall: true, period: 6 },
  { name: 'github-org-settings-changed', category: 'other', routesToOnCall: false, period: 30 },
] as const;

const keyRing = 'projects/acme-prod/locations/europe-west1/keyRings';
const cryptoKeys = [
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

const tlsEndpoints = [
  { host: domain, minTlsVersion: '1.2', certificateDays: 61 },
  { host: `app.${domain}`, minTlsVersion: '1.3', certificateDays: 74 },
  { host: `api.${domain}`, minTlsVersion: '1.2', certificateDays: 52 },
  { host: `status.${domain}`, minTlsVersion: '1.2', certificateDays: 0 },
] as const;

/** The latest access review of each system, days before today: all due again, none done. */
const accessReviews = [
  { system: 'gcp-acme-prod', completedDaysAgo: 108, reviewer: email('maya.chen'), accounts: 14, revoked: 2 },
  { system: 'github-acme', completedDaysAgo: 106, reviewer: email('amara.okafor'), accounts: 13, revoked: 1 },
  { system: 'okta-admin-roles', completedDaysAgo: 104, reviewer: email('maya.chen'), accounts: 4, revoked: 0 },
];

const vendors = [
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

/** Policies and scoping decisions imported on day 1, with the day each was approved. */
const importedAttestations = [
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

// ── The generator ───────────────────────────────────────────────────────────────────────────────

interface DayContext {
  date: string;
  /** Days before today: 0 for today. */
  ago: number;
  /** Days since the first demo day (0-based), for values that drift. */
  index: number;
  start: number;
  /** How far into the day anything may be collected; the whole day except for today. */
  limit: number;
}

class DayBuilder {
  readonly evidence: EvidenceInput[] = [];
  readonly submissions: DemoSubmission[] = [];
  readonly #day: DayContext;

  constructor(day: DayContext) {
    this.#day = day;
  }

  /** When something planned at `offset` into the day happens, squeezed before `limit` on today. */
  at(offset: number): number {
    const { start, limit } = this.#day;
    const scaled = limit >= collectionWindowMs ? offset : Math.floor((offset * Math.max(0, limit)) / collectionWindowMs);
    return start + Math.max(0, Math.min(scaled, limit));
  }

  /** A collector's run: from `startHour`, with up to 45 minutes of jitter per subject. */
  collectedAt(source: string, startHour: number, subject: string): number {
    const jitterSeconds = hash(`${source}|${subject}|${this.#day.date}`) % (45 * 60);
    return this.at(startHour * hourMs + jitterSeconds * 1000);
  }

  add(
    kind: EvidenceKindName,
    source: string,
    subject: string,
    collectedAt: number,
    data: Record<string, unknown>,
    extra: Pick<EvidenceInput, 'effectiveDate' | 'controls'> = {},
  ): void {
    this.evidence.push({
      id: evidenceId(kind, subject, this.#day.date),
      kind,
      source,
      subject,
      collectedAt: new Date(collectedAt).toISOString(),
      ...extra,
      data,
    });
  }
}

/** `demo-<kind>-<subject>-<date>`, shortened with a hash if it would pass 128 characters. */
export function evidenceId(kind: string, subject: string, date: string): string {
  const id = `demo-${slugify(kind)}-${slugify(subject)}-${date}`;
  if (id.length <= 128) return id;
  const tag = hash(`${kind}|${subject}`).toString(36);
  return `demo-${slugify(kind)}-${slugify(subject).slice(0, 128 - 18 - slugify(kind).length - tag.length)}-${tag}-${date}`;
}

/**
 * The evidence and submissions of the `days` days ending with `today` (YYYY-MM-DD), oldest
 * first. The story is anchored on today, so it ends the same way whatever `days` is.
 */
export function demoHistory(today: string, days = 14, options: DemoOptions = {}): DemoDay[] {
  const timeZone = options.timeZone ?? 'UTC';
  const history: DemoDay[] = [];
  for (let index = 0; index < days; index++) {
    const ago = days - 1 - index;
    const date = addDays(today, -ago);
    const start = startOfDay(timeZone, date).getTime();
    const end = startOfDay(timeZone, addDays(date, 1)).getTime();
    const now = options.now?.getTime();
    // Today's collections end a minute before now; a day in the past has all of its hours.
    const limit = now !== undefined && now < end ? now - minuteMs - start : end - start - minuteMs;
    const builder = new DayBuilder({ date, ago, index, start, limit });
    collect(builder, { date, ago, index, start, limit }, today);
    history.push({ date, evidence: builder.evidence, submissions: builder.submissions });
  }
  return history;
}

function collect(b: DayBuilder, day: DayContext, today: string): void {
  const { date, ago, index } = day;
  const daysAgo = (n: number) => addDays(today, -n);
  const vary = (key: string, modulo: number) => hash(`${key}|${date}`) % modulo;
  const fixed = (key: string, modulo: number) => hash(key) % modulo;
  const contractorJoined = ago <= 10;

  // Identity provider (Okta): accounts and tenant settings.
  const idp = 'okta-collector';
  for (const person of staff) {
    const subject = email(person.handle);
    b.add('idp.user', idp, subject, b.collectedAt(idp, 2, subject), {
      email: subject,
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: person.admin || person.engineer,
      admin: person.admin,
      lastLoginDaysAgo: person.handle === 'liam.oconnor' ? vary(subject, 4) : vary(subject, 2),
      employmentStatus: 'active',
    });
  }
  if (contractorJoined) {
    const subject = email(contractor);
    b.add('idp.user', idp, subject, b.collectedAt(idp, 2, subject), {
      email: subject,
      active: true,
      mfaEnabled: ago <= 5,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: ago === 10 ? 0 : vary(subject, 2),
      employmentStatus: 'contractor',
    });
  }
  b.add('idp.user', idp, email(leaver), b.collectedAt(idp, 2, email(leaver)), {
    email: email(leaver),
    active: false,
    mfaEnabled: true,
    phishingResistantMfa: true,
    admin: false,
    lastLoginDaysAgo: 47 + index,
    employmentStatus: 'leaver',
  });
  b.add('idp.settings', idp, 'acme.okta.com', b.collectedAt(idp, 2, 'acme.okta.com'), {
    mfaRequired: true,
    passwordMinLength: 14,
    sessionTimeoutMinutes: 720,
    ssoEnforced: true,
    lockoutThreshold: 10,
  });

  // Device management: one laptop per employee (the contractor uses their own, unmanaged).
  const mdm = 'mdm-collector';
  for (const person of staff) {
    const behind = person.handle === 'priya.patel';
    const edrDown = person.handle === 'lucas.silva' && ago <= 2;
    b.add('endpoint.device', mdm, person.device, b.collectedAt(mdm, 2, person.device), {
      owner: email(person.handle),
      platform: person.platform,
      diskEncrypted: true,
      edrInstalled: true,
      edrHealthy: !edrDown,
      osSupported: true,
      // Patches land monthly; one Windows laptop has deferred them since before the demo began.
      osPatchAgeDays: behind ? 34 + index : (fixed(person.device, 28) + index) % 28,
      screenLockMinutes: person.platform === 'windows' ? 10 : 5,
      firewallEnabled: true,
    });
  }

  // Training platform: awareness for everyone, secure coding for engineers.
  const lms = 'lms-collector';
  for (const person of staff) {
    const courses = person.engineer ? ['security-awareness', 'secure-coding'] : ['security-awareness'];
    for (const course of courses) {
      const subject = `${email(person.handle)}/${course}`;
      const completedOn = daysAgo(20 + fixed(subject, 300));
      b.add(
        'training.completion',
        lms,
        subject,
        b.collectedAt(lms, 2, subject),
        { course, completedOn, passed: true, score: 78 + fixed(`${subject}/score`, 22) },
        { effectiveDate: completedOn },
      );
    }
  }
  if (ago <= 9) {
    const subject = `${email(contractor)}/security-awareness`;
    const completedOn = daysAgo(9);
    b.add(
      'training.completion',
      lms,
      subject,
      b.collectedAt(lms, 2, subject),
      { course: 'security-awareness', completedOn, passed: false, score: 58 },
      { effectiveDate: completedOn },
    );
  }

  // HR system: screening and policy acknowledgement.
  const hris = 'hris-collector';
  for (const person of staff) {
    const subject = email(person.handle);
    b.add('people.screening', hris, subject, b.collectedAt(hris, 3, subject), {
      backgroundCheck: person.region === 'us' ? 'clear' : 'not-required',
      policiesAcknowledged: true,
      ndaSigned: true,
      startedOn: daysAgo(person.startedDaysAgo),
    });
  }
  if (contractorJoined) {
    const subject = email(contractor);
    b.add('people.screening', hris, subject, b.collectedAt(hris, 3, subject), {
      backgroundCheck: ago <= 5 ? 'clear' : 'pending',
      policiesAcknowledged: ago <= 8,
      ndaSigned: ago <= 8,
      startedOn: daysAgo(10),
    });
  }

  // GitHub: branch protection of each repository.
  const github = 'github-collector';
  for (const repository of repositories) {
    const billing = repository === 'acme/billing-service';
    const unprotected = billing && ago <= 7 && ago > 3;
    const loosened = billing && ago <= 3;
    b.add('repo.branch_protection', github, repository, b.collectedAt(github, 3, repository), {
      defaultBranch: repository === 'acme/docs' ? 'master' : 'main',
      protected: !unprotected,
      requiredApprovals: unprotected ? 0 : repository === 'acme/infrastructure' ? 2 : 1,
      dismissStaleApprovals: !unprotected,
      requireStatusChecks: !unprotected,
      allowForcePush: unprotected || loosened,
      enforceForAdmins: !(unprotected || loosened),
      requireSignedCommits: repository === 'acme/infrastructure',
    });
  }

  // CI/CD: the deploy pipelines.
  const ci = 'ci-collector';
  for (const pipeline of pipelines) {
    b.add('ci.pipeline', ci, pipeline, b.collectedAt(ci, 3, pipeline), {
      deploysOnlyFromDefaultBranch: true,
      productionApprovalRequired: true,
      secretScanning: true,
      dependencyScanning: true,
      staticAnalysis: true,
    });
  }

  // Google Cloud: backups, data stores, audit log sinks and alert policies.
  const gcp = 'gcp-collector';
  for (const store of dataStores) {
    const collectedAt = b.collectedAt(gcp, 3, `backup/${store.name}`);
    // Backups run at 00:30; the billing database missed two nights and was rerun by hand on day 8.
    const nightly = (offsetDays: number) => day.start + offsetDays * dayMs + 30 * minuteMs;
    let lastSuccess = collectedAt >= nightly(0) ? nightly(0) : nightly(-1);
    if (store.name === billingDb && (ago === 8 || ago === 7)) lastSuccess = nightly(ago === 8 ? -1 : -2);
    if (store.name === billingDb && ago === 6) lastSuccess = Math.min(collectedAt, day.start + 2 * hourMs + 10 * minuteMs);
    b.add('backup.job', gcp, store.name, collectedAt, {
      lastSuccessHoursAgo: round1(Math.max(0, collectedAt - lastSuccess) / hourMs),
      retentionDays: store.retentionDays,
      encrypted: true,
      offsite: true,
      immutable: true,
    });
    b.add('storage.bucket', gcp, store.name, b.collectedAt(gcp, 3, `bucket/${store.name}`), {
      encryptedAtRest: true,
      customerManagedKey: store.customerManagedKey,
      publicAccess: store.name === marketingBucket && ago <= 2,
      tlsRequired: true,
      versioning: store.versioning,
      classification: store.classification,
    });
  }
  for (const sink of loggingSinks) {
    b.add('logging.sink', gcp, sink, b.collectedAt(gcp, 3, sink), {
      enabled: true,
      destination: 'chronicle-siem',
      retentionDays: 400,
      immutable: true,
      includesAdminActivity: true,
    });
  }
  for (const policy of alertPolicies) {
    b.add('monitoring.alert_policy', gcp, policy.name, b.collectedAt(gcp, 3, policy.name), {
      enabled: true,
      category: policy.category,
      routesToOnCall: policy.routesToOnCall,
      // The exfiltration rule has not fired since it was written; the others fire now and then.
      lastFiredDaysAgo: policy.period === 0 ? 97 + index : (fixed(policy.name, policy.period) + index) % policy.period,
    });
  }

  // Cloud KMS: its collector's credentials were rotated away on day 4, and it has not posted since.
  const kms = 'kms-collector';
  if (ago >= 10) {
    for (const key of cryptoKeys) {
      b.add('crypto.key', kms, key.name, b.collectedAt(kms, 3, key.name), {
        purpose: key.purpose,
        algorithm: key.algorithm,
        rotationEnabled: key.period > 0,
        rotationPeriodDays: key.period,
        protection: key.protection,
      });
    }
  }

  // Backup tool: the latest restore test of each database.
  const backups = 'backup-collector';
  for (const test of restoreTests) {
    const testedOn = daysAgo(test.testedDaysAgo);
    b.add(
      'backup.restore_test',
      backups,
      test.store,
      b.collectedAt(backups, 3, test.store),
      { testedOn, succeeded: true, restoreMinutes: test.restoreMinutes, rtoMinutes: test.rtoMinutes, dataVerified: true },
      { effectiveDate: testedOn },
    );
  }

  // Vulnerability scanners.
  const scanners = 'vuln-scanner';
  for (const asset of assets) {
    // A newly published CVE matches the reports worker's 16-day-old base image on day 3; patched on day 10.
    const critical = asset.name === 'image/reports-worker' && ago <= 11 && ago > 4;
    const vpn = asset.name === 'host/vpn-gateway';
    const high = vpn ? 2 : fixed(asset.name, 3);
    b.add('vuln.scan', scanners, asset.name, b.collectedAt(scanners, 3, asset.name), {
      scanner: asset.scanner,
      authenticated: true,
      openCritical: critical ? 1 : 0,
      openHigh: high,
      openMedium: asset.medium + vary(asset.name, 2),
      oldestCriticalDays: critical ? 16 + (11 - ago) : 0,
      // The VPN appliance waits for a vendor firmware release.
      oldestHighDays: vpn ? 41 + index : high > 0 ? (fixed(`${asset.name}/high`, 20) + index) % 25 : 0,
    });
  }

  // TLS scanner.
  const tls = 'tls-scanner';
  for (const endpoint of tlsEndpoints) {
    // status.acme.example's automatic renewal broke; it is renewed by hand on day 9.
    const daysLeft =
      endpoint.host === `status.${domain}` ? (ago >= 6 ? ago + 7 : 89 - (5 - ago)) : endpoint.certificateDays - index;
    b.add('tls.endpoint', tls, endpoint.host, b.collectedAt(tls, 4, endpoint.host), {
      minTlsVersion: endpoint.minTlsVersion,
      hsts: true,
      certificateDaysLeft: daysLeft,
      weakCiphers: false,
    });
  }

  // GRC tool: access reviews (its sync broke after day 4), vendors and incident exercises.
  const reviews = 'access-review-collector';
  if (ago >= 10) {
    for (const review of accessReviews) {
      const completedOn = daysAgo(review.completedDaysAgo);
      b.add(
        'access.review',
        reviews,
        review.system,
        b.collectedAt(reviews, 4, review.system),
        {
          completedOn,
          reviewer: review.reviewer,
          accountsReviewed: review.accounts,
          accessRevoked: review.revoked,
          exceptionsOpen: 0,
        },
        { effectiveDate: completedOn },
      );
    }
  }
  const grc = 'grc-collector';
  for (const vendor of vendors) {
    const assessedOn = daysAgo(vendor.assessedDaysAgo);
    b.add(
      'vendor.assessment',
      grc,
      vendor.name,
      b.collectedAt(grc, 4, vendor.name),
      {
        tier: vendor.tier,
        assessedOn,
        residualRisk: vendor.residualRisk,
        assuranceReportValid: vendor.assuranceReportValid,
        dpaSigned: vendor.dpaSigned,
      },
      { effectiveDate: assessedOn },
    );
  }
  if (ago <= 3) {
    const exercisedOn = daysAgo(3);
    b.add(
      'incident.exercise',
      grc,
      'incident-response-plan',
      b.collectedAt(grc, 4, 'incident-response-plan'),
      {
        exercisedOn,
        scenario: 'a leaked GitHub token used to push to a production repository',
        participants: 7,
        lessonsRecorded: true,
        actionItemsOpen: ago <= 1 ? 2 : 3,
      },
      { effectiveDate: exercisedOn },
    );
  }

  // People: imported policies on day 1, the penetration test on day 8, two submissions.
  if (index === 0) {
    importedAttestations.forEach((attestation, n) => {
      const effectiveDate = daysAgo(attestation.approvedDaysAgo);
      b.add(
        'attestation',
        'policy-import',
        attestation.subject,
        b.at((10 * 60 + 5 * n) * minuteMs),
        {
          statement: attestation.statement,
          ...(attestation.notApplicable ? { notApplicable: true } : {}),
          submittedBy: email('chloe.martin'),
        },
        { effectiveDate, controls: attestation.controls },
      );
    });
  }
  if (ago === 6) {
    b.add(
      'attestation',
      'security-team',
      'annual-penetration-test',
      b.at((11 * 60 + 40) * minuteMs),
      {
        statement:
          `An independent penetration test of app.${domain} and the public API was completed by Northwind Security; ` +
          'it found no critical and two high findings, both fixed and retested.',
        submittedBy: email('amara.okafor'),
      },
      { effectiveDate: daysAgo(9), controls: ['VUL-05'] },
    );
  }
  if (ago === 9) {
    b.submissions.push({
      submittedAt: new Date(b.at((14 * 60 + 20) * minuteMs)).toISOString(),
      controls: ['INC-01', 'INC-04'],
      subject: 'incident-response-plan',
      statement:
        'The incident response plan v3 was approved by the CTO: severity levels, the on-call rota, notification ' +
        'duties (customers within 72 hours, regulators where required) and a post-incident review for every SEV1 and SEV2.',
      effectiveDate: date,
      notApplicable: false,
      submittedBy: { uid: 'demo-amara-okafor', email: email('amara.okafor'), name: 'Amara Okafor' },
      files: [
        {
          name: 'incident-response-plan-v3.md',
          mediaType: 'text/markdown',
          data: Buffer.from(
            [
              '# Incident response plan (v3)',
              '',
              `Approved by Maya Chen (CTO) on ${date}.`,
              '',
              '## Severity levels',
              '',
              '- **SEV1**: customer data exposed or production down: page on-call, CTO and CEO.',
              '- **SEV2**: a security control is bypassed or degraded: page on-call.',
              '- **SEV3**: a suspicious event worth a look during working hours.',
              '',
              '## After every SEV1 and SEV2',
              '',
              'Record the timeline, notify customers within 72 hours where their data is affected, and hold a',
              'blameless review within five working days.',
              '',
            ].join('\n'),
          ),
        },
      ],
    });
  }
  if (ago === 4) {
    b.submissions.push({
      submittedAt: new Date(b.at((15 * 60 + 5) * minuteMs)).toISOString(),
      controls: ['ENC-05'],
      subject: 'cryptography-policy',
      statement:
        'The cryptography and key management policy v2 was approved by the CTO: AES-256 or better at rest, TLS 1.2 or ' +
        'later in transit, keys in Cloud KMS rotated at least yearly.',
      effectiveDate: date,
      notApplicable: false,
      submittedBy: { uid: 'demo-maya-chen', email: email('maya.chen'), name: 'Maya Chen' },
      files: [
        {
          name: 'cryptography-policy-v2-approval.txt',
          mediaType: 'text/plain',
          data: Buffer.from(
            `Cryptography and key management policy v2\nApproved by: Maya Chen, CTO\nDate: ${date}\n` +
              'Changes from v1: TLS 1.0/1.1 forbidden everywhere; signing keys must live in an HSM.\n',
          ),
        },
      ],
    });
  }
}
