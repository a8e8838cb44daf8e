/**
 * The organisation the GitHub stand-in serves, built deterministically from a number of
 * repositories, so tests and the bench can say exactly what a collection must find. Every
 * pattern repeats with the repository's index: an unprotected repository, one protected only by
 * a ruleset, archived ones, production environments with and without required reviewers,
 * Actions workflows (a CI workflow everywhere; deployment and release workflows, active and
 * disabled, beside production environments; a repository now and then with two pages of them),
 * open Dependabot and secret-scanning alerts; members, one in twenty an owner and one in
 * twenty-five without two-factor authentication.
 */

export interface FixtureProtection {
  requiredApprovals: number;
  dismissStaleApprovals: boolean;
  requireStatusChecks: boolean;
  allowForcePush: boolean;
  enforceForAdmins: boolean;
  requireSignedCommits: boolean;
}

export interface FixtureEnvironment {
  name: string;
  /** Required reviewers on its protection rules; 0 for none. */
  reviewers: number;
  /** Which branches may deploy: any, the protected ones, or the named branches. */
  branches: 'any' | 'protected' | string[];
}

export interface FixtureWorkflow {
  name: string;
  /** The workflow file, `.github/workflows/<file>`. */
  path: string;
  state: 'active' | 'disabled_manually';
}

export interface FixtureRepository {
  name: string;
  defaultBranch: string;
  archived: boolean;
  /** Classic branch protection on the default branch, if any. */
  protection?: FixtureProtection;
  /** A ruleset on the default branch requiring this many approvals and blocking force pushes, if any. */
  rulesetApprovals?: number;
  environments: FixtureEnvironment[];
  /** Its Actions workflows, in the order GitHub lists them. */
  workflows: FixtureWorkflow[];
  secretScanning: boolean;
  dependabotAlerts: boolean;
  codeScanning: boolean;
}

export interface FixtureAlert {
  repository: string;
  severity: 'low' | 'medium' | 'high' | 'critical';
  createdAt: string;
}

export interface FixtureMember {
  login: string;
  /** An owner of the organisation (`role=admin`). */
  owner: boolean;
  twoFactor: boolean;
}

export interface GitHubFixture {
  organization: string;
  repositories: FixtureRepository[];
  members: FixtureMember[];
  dependabotAlerts: FixtureAlert[];
  secretScanningAlerts: Array<{ repository: string; createdAt: string }>;
}

/** The day the alerts' ages are counted from in tests: the fixture's alerts are this many days old. */
export const fixtureToday = '2026-11-24T06:00:00Z';

function daysBefore(days: number): string {
  return new Date(Date.parse(fixtureToday) - days * 86_400_000).toISOString().replace('.000Z', 'Z');
}

const workflow = (name: string, file: string, state: FixtureWorkflow['state'] = 'active'): FixtureWorkflow => ({
  name,
  path: `.github/workflows/${file}`,
  state,
});

/**
 * CI everywhere; beside `production` a deployment workflow (every 16th repository from the 8th has
 * none: it deploys from outside Actions); beside `prod-eu` a release workflow and a disabled
 * deployment one; every 400th repository has 100 nightly workflows more, its deployment workflow
 * on the second page.
 */
function workflowsAt(index: number): FixtureWorkflow[] {
  const workflows = [workflow('CI', 'ci.yml')];
  if (index % 400 === 0)
    workflows.push(...Array.from({ length: 100 }, (_, night) => workflow(`Nightly ${night + 1}`, `nightly-${night + 1}.yml`)));
  if (index % 8 === 0 && index % 16 !== 8) workflows.push(workflow('Deploy to production', 'deploy.yml'));
  if (index % 8 === 4)
    workflows.push(workflow('Publish', 'release.yml'), workflow('Deploy (legacy)', 'deploy-legacy.yml', 'disabled_manually'));
  return workflows;
}

function repositoryAt(index: number): FixtureRepository {
  const name = `service-${String(index).padStart(4, '0')}`;
  const defaultBranch = index % 5 === 2 ? 'trunk' : 'main';
  const environments: FixtureEnvironment[] = [];
  if (index % 4 === 1) environments.push({ name: 'staging', reviewers: 0, branches: 'any' });
  if (index % 8 === 0)
    environments.push(
      { name: 'staging', reviewers: 0, branches: 'any' },
      { name: 'production', reviewers: 2, branches: [defaultBranch] },
    );
  if (index % 8 === 4) environments.push({ name: 'prod-eu', reviewers: 0, branches: 'protected' });
  return {
    name,
    defaultBranch,
    archived: index % 50 === 49,
    protection:
      index % 10 === 3 || index % 10 === 7
        ? undefined
        : {
            requiredApprovals: 1 + (index % 3 === 0 ? 1 : 0),
            dismissStaleApprovals: index % 2 === 0,
            requireStatusChecks: index % 4 !== 2,
            allowForcePush: index % 10 === 9,
            enforceForAdmins: index % 2 === 0,
            requireSignedCommits: index % 6 === 0,
          },
    rulesetApprovals: index % 10 === 7 ? 2 : undefined,
    environments,
    workflows: workflowsAt(index),
    secretScanning: index % 3 !== 1,
    dependabotAlerts: index % 7 !== 5,
    codeScanning: index % 16 === 0,
  };
}

function memberAt(index: number): FixtureMember {
  return { login: `dev-${String(index).padStart(4, '0')}`, owner: index % 20 === 0, twoFactor: index % 25 !== 7 };
}

/** An organisation of `count` repositories, `service-0000` onwards, and half as many members, `dev-0000` onwards. */
export function buildFixture(count: number, organization = 'acme'): GitHubFixture {
  const repositories = Array.from({ length: count }, (_, index) => repositoryAt(index));
  const members = Array.from({ length: Math.ceil(count / 2) }, (_, index) => memberAt(index));
  const dependabotAlerts: FixtureAlert[] = [];
  const secretScanningAlerts: GitHubFixture['secretScanningAlerts'] = [];
  for (const [index, repository] of repositories.entries()) {
    if (index % 6 === 0) {
      dependabotAlerts.push({
        repository: repository.name,
        severity: index % 12 === 0 ? 'critical' : 'high',
        createdAt: daysBefore(10 + (index % 30)),
      });
      dependabotAlerts.push({ repository: repository.name, severity: 'medium', createdAt: daysBefore(3) });
    }
    if (index % 9 === 0) dependabotAlerts.push({ repository: repository.name, severity: 'high', createdAt: daysBefore(40) });
    if (index % 25 === 0) secretScanningAlerts.push({ repository: repository.name, createdAt: daysBefore(5) });
  }
  return { organization, repositories, members, dependabotAlerts, secretScanningAlerts };
}

/** Whether a repository deploys to production, as the connector decides it (an environment named production, prod, prod-eu…). */
function productionEnvironments(repository: FixtureRepository): FixtureEnvironment[] {
  return repository.environments.filter((environment) => /\bprod(uction)?\b/i.test(environment.name));
}

/**
 * The fewest calls GitHub's API allows for collecting `fixture`: the organisation's repositories
 * and its two alert listings at 100 a page (GitHub's largest), then per unarchived repository its
 * branch protection, its branch rules and its environments (one page each: none has more than
 * 100), and per repository deploying to production whether Dependabot alerts are on, its latest
 * code scanning analysis, its workflows (100 a page) and each production environment's custom
 * branch policies; and the members without two-factor authentication, the owners and the other
 * members, 100 a page (GitHub gives a member's 2FA status only through that filter, and a role
 * only through the `role` filter).
 */
export function fewestCalls(fixture: GitHubFixture): number {
  const pages = (count: number) => Math.max(1, Math.ceil(count / 100));
  const owners = fixture.members.filter((member) => member.owner).length;
  let calls =
    pages(fixture.repositories.length) +
    pages(fixture.dependabotAlerts.length) +
    pages(fixture.secretScanningAlerts.length) +
    pages(fixture.members.filter((member) => !member.twoFactor).length) +
    pages(owners) +
    pages(fixture.members.length - owners);
  for (const repository of fixture.repositories.filter((candidate) => !candidate.archived)) {
    calls += 3;
    const production = productionEnvironments(repository);
    if (production.length > 0)
      calls +=
        2 + pages(repository.workflows.length) + production.filter((environment) => Array.isArray(environment.branches)).length;
  }
  return calls;
}
