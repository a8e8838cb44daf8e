/**
 * The demo's collectors that report on the engineering platform: GitHub, the deploy pipelines,
 * Google Cloud (backups, data stores, audit log sinks, alert policies), Cloud KMS and the backup
 * tool's restore tests.
 */
import {
  alertPolicies,
  billingDb,
  codeHostMembers,
  cryptoKeys,
  dataStores,
  loggingSinks,
  marketingBucket,
  pipelines,
  repositories,
  restoreTests,
} from './acme.ts';
import { dayMs, fixed, hourMs, minuteMs, round1, type DayBuilder } from './day-builder.ts';

/**
 * GitHub: branch protection of each repository, billing-service losing it for a hotfix on day 7;
 * the organisation's members, every one with two-factor authentication.
 */
export function sourceControl(b: DayBuilder): void {
  const { ago } = b.day;
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
  // The collector lists the members before it reads the repositories: its batch goes when the last repository is read, as before.
  const membersListedAt = Math.min(...repositories.map((repository) => b.collectedAt(github, 3, repository)));
  for (const member of codeHostMembers) {
    b.add('repo.member', github, `acme/${member.login}`, membersListedAt, {
      login: member.login,
      admin: member.owner,
      mfaEnabled: true,
    });
  }
}

/** CI/CD: the deploy pipelines. */
export function deployPipelines(b: DayBuilder): void {
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
}

/** Google Cloud: backups, data stores, audit log sinks and alert policies. */
export function googleCloud(b: DayBuilder): void {
  const { ago, index } = b.day;
  const gcp = 'gcp-collector';
  for (const store of dataStores) {
    const collectedAt = b.collectedAt(gcp, 3, `backup/${store.name}`);
    // Backups run at 00:30; the billing database missed two nights and was rerun by hand on day 8.
    const nightly = (offsetDays: number) => b.day.start + offsetDays * dayMs + 30 * minuteMs;
    let lastSuccess = collectedAt >= nightly(0) ? nightly(0) : nightly(-1);
    if (store.name === billingDb && (ago === 8 || ago === 7)) lastSuccess = nightly(ago === 8 ? -1 : -2);
    if (store.name === billingDb && ago === 6) lastSuccess = Math.min(collectedAt, b.day.start + 2 * hourMs + 10 * minuteMs);
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
}

/** Cloud KMS: its collector's credentials were rotated away on day 4, and it has not posted since. */
export function keyManagement(b: DayBuilder): void {
  const kms = 'kms-collector';
  if (b.day.ago < 10) return;
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

/** Backup tool: the latest restore test of each database. */
export function backupTool(b: DayBuilder): void {
  const backups = 'backup-collector';
  for (const test of restoreTests) {
    const testedOn = b.daysAgo(test.testedDaysAgo);
    b.add(
      'backup.restore_test',
      backups,
      test.store,
      b.collectedAt(backups, 3, test.store),
      { testedOn, succeeded: true, restoreMinutes: test.restoreMinutes, rtoMinutes: test.rtoMinutes, dataVerified: true },
      { effectiveDate: testedOn },
    );
  }
}

export const platformCollectors = [sourceControl, deployPipelines, googleCloud, keyManagement, backupTool];
