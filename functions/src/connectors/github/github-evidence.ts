/**
 * GitHub's objects as evidence `data`: a default branch's classic protection and ruleset rules as
 * `repo.branch_protection`, production environments as `ci.pipeline`, open alerts as `vuln.scan`.
 * The rules of reading them (which environments are production, how rulesets combine with classic
 * protection, how secret-scanning alerts count) are here, and documented in docs/connectors.md.
 */
import type { Octokit } from 'octokit';

type Rest = Octokit['rest'];
type Answered<T extends (...args: never[]) => Promise<{ data: unknown }>> = Awaited<ReturnType<T>>['data'];
export type ClassicProtection = Answered<Rest['repos']['getBranchProtection']>;
export type BranchRule = Answered<Rest['repos']['getBranchRules']>[number];
export type Environment = NonNullable<Answered<Rest['repos']['getAllEnvironments']>['environments']>[number];
export type Workflow = Answered<Rest['actions']['listRepoWorkflows']>['workflows'][number];

/** Protection on the default branch: classic protection, ruleset rules, or both (either counts). */
export function branchProtectionData(
  defaultBranch: string,
  classic: ClassicProtection | undefined,
  rules: readonly BranchRule[],
) {
  const ruleOf = <T extends BranchRule['type']>(type: T) =>
    rules.filter((rule): rule is Extract<BranchRule, { type: T }> => rule.type === type);
  const pullRequests = ruleOf('pull_request');
  const blocksForcePush = ruleOf('non_fast_forward').length > 0;
  return {
    defaultBranch,
    protected: classic !== undefined || rules.length > 0,
    requiredApprovals: Math.max(
      classic?.required_pull_request_reviews?.required_approving_review_count ?? 0,
      ...pullRequests.map((rule) => rule.parameters?.required_approving_review_count ?? 0),
    ),
    dismissStaleApprovals:
      classic?.required_pull_request_reviews?.dismiss_stale_reviews === true ||
      pullRequests.some((rule) => rule.parameters?.dismiss_stale_reviews_on_push === true),
    requireStatusChecks: classic?.required_status_checks !== undefined || ruleOf('required_status_checks').length > 0,
    allowForcePush: !blocksForcePush && (classic === undefined || classic.allow_force_pushes?.enabled === true),
    // A ruleset binds administrators unless its bypass list names them, which the rules API does not show.
    enforceForAdmins: classic?.enforce_admins?.enabled === true || rules.length > 0,
    requireSignedCommits: classic?.required_signatures?.enabled === true || ruleOf('required_signatures').length > 0,
  };
}

/** An environment a workflow deploys to production through: its name says so (production, prod, prod-eu). */
export function isProduction(environment: Pick<Environment, 'name'>): boolean {
  return /\bprod(uction)?\b/i.test(environment.name);
}

/**
 * A workflow that deploys or releases: an active one (a disabled workflow runs nothing) whose name
 * or file name says deploy or release as a word (`Deploy to production`, `release.yml`,
 * `cd-deploy-eu.yaml`). The listing says nothing of what a workflow does; whether it targets the
 * production environment is in its file, which would cost a call per workflow to read.
 */
export function isDeploymentWorkflow(workflow: Pick<Workflow, 'name' | 'path' | 'state'>): boolean {
  const file = workflow.path.split('/').pop() ?? '';
  return workflow.state === 'active' && [workflow.name, file].some((text) => /\b(deploy|release)/i.test(text));
}

/** Every production environment waits for a required reviewer. */
export function approvalRequired(environments: readonly Environment[]): boolean {
  return environments.every((environment) =>
    (environment.protection_rules ?? []).some(
      (rule) => rule.type === 'required_reviewers' && 'reviewers' in rule && (rule.reviewers?.length ?? 0) > 0,
    ),
  );
}

/** What a repository's open alerts add up to, per repository, as the alert listings are read. */
export interface AlertTally {
  critical: number;
  high: number;
  medium: number;
  low: number;
  secrets: number;
  oldestCritical?: string;
  oldestHigh?: string;
}

export function emptyTally(): AlertTally {
  return { critical: 0, high: 0, medium: 0, low: 0, secrets: 0 };
}

function older(current: string | undefined, candidate: string): string {
  return current === undefined || candidate < current ? candidate : current;
}

export function countDependabotAlert(
  tally: AlertTally,
  severity: 'low' | 'medium' | 'high' | 'critical',
  createdAt: string,
): void {
  tally[severity]++;
  if (severity === 'critical') tally.oldestCritical = older(tally.oldestCritical, createdAt);
  if (severity === 'high') tally.oldestHigh = older(tally.oldestHigh, createdAt);
}

/** A leaked secret counts as a critical finding: it gives its holder access until it is revoked. */
export function countSecretAlert(tally: AlertTally, createdAt: string): void {
  tally.secrets++;
  tally.oldestCritical = older(tally.oldestCritical, createdAt);
}

function daysSince(then: string | undefined, now: Date): number {
  return then === undefined ? 0 : Math.max(0, Math.floor((now.getTime() - Date.parse(then)) / 86_400_000));
}

export function vulnScanData(tally: AlertTally, now: Date) {
  return {
    scanner: 'github-dependabot-and-secret-scanning',
    // Both read the repository from the inside (its manifests, lock files and history), which is
    // what an authenticated scan is for: the packages an outside scan cannot see.
    authenticated: true,
    openCritical: tally.critical + tally.secrets,
    openHigh: tally.high,
    openMedium: tally.medium,
    openLow: tally.low,
    openSecrets: tally.secrets,
    oldestCriticalDays: daysSince(tally.oldestCritical, now),
    oldestHighDays: daysSince(tally.oldestHigh, now),
  };
}
