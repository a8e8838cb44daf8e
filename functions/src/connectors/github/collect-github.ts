/**
 * Collects an organisation's repositories and members from GitHub through `octokit`: first the open
 * Dependabot and secret-scanning alerts of the whole organisation (a few paged calls, tallied per
 * repository: counts only), then the repositories page by page, each (unarchived) one read in a
 * bounded pool and yielded as soon as it is read: its default branch's protection and rules, its
 * environments, and, for a repository that deploys to a production environment, what its
 * pipeline checks and its deployment workflows; then the members (github-members.ts). octokit's
 * throttling plugin queues the calls (10 in flight) and waits out GitHub's rate limits;
 * server-error-retries.ts retries 5xx answers (in place of octokit's retry plugin).
 */
import { App, Octokit } from 'octokit';
import type { CollectContext, CollectedItem, Collector } from '../connector.js';
import { ConnectorFailure } from '../connector.js';
import { credentialSecret, isPrivateKey } from './github-credential.js';
import { type GitHubCall, failureOf, messageOf, statusOf } from './github-failures.js';
import {
  type AlertTally,
  type Environment,
  approvalRequired,
  branchProtectionData,
  countDependabotAlert,
  countSecretAlert,
  emptyTally,
  isDeploymentWorkflow,
  isProduction,
  type Workflow,
  vulnScanData,
} from './github-evidence.js';
import { memberItems, membersWithoutTwoFactor } from './github-members.js';
import { inPool } from './in-pool.js';
import { serverErrorRetries } from './server-error-retries.js';

/** Repositories read at once: enough to keep octokit's queue of 10 calls in flight full. */
const repositoriesAtOnce = 10;
const perPage = 100;
/** Secondary rate limits waited out per call before the run gives up. */
const rateLimitWaits = 3;

export interface GitHubTuning {
  /** What one unit of the retry plugin's back-off (1, 4, 9 units) lasts: its default, 1 s, unless a test shortens it. */
  retryAfterBaseMs?: number;
}

type Client = InstanceType<typeof Octokit>;

/** An SDK client for the credential: a fine-grained token, or an App installation's token. */
async function clientFor(context: CollectContext, tuning: GitHubTuning): Promise<Client> {
  // In the emulators a stand-in's token stands in for the secret when none is set.
  const credential = context.secrets[credentialSecret] ?? context.standIn?.token;
  if (credential === undefined || credential === '')
    throw new ConnectorFailure('not_configured', `The secret ${credentialSecret} is not set.`);
  const onLimit = (reason: string) => (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
    context.progress.rateLimited(retryAfter, reason);
    return retryCount < rateLimitWaits;
  };
  const Configured = Octokit.plugin(serverErrorRetries).defaults({
    baseUrl: context.standIn?.endpoint ?? (String(context.settings.baseUrl ?? '') || 'https://api.github.com'),
    request: { signal: context.signal },
    throttle: { onRateLimit: onLimit('GitHub rate limit'), onSecondaryRateLimit: onLimit('GitHub secondary rate limit') },
    // Off: its per-request queue idled each call's slot (server-error-retries.ts says how much), which retries in its stead.
    retry: { enabled: false },
    serverErrorRetry: { retryAfterBaseMs: tuning.retryAfterBaseMs },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  if (!isPrivateKey(credential)) return new Configured({ auth: credential });
  const appId = Number(context.settings.appId);
  const installationId = Number(context.settings.installationId);
  if (!Number.isInteger(appId) || appId <= 0 || !Number.isInteger(installationId) || installationId <= 0) {
    throw new ConnectorFailure(
      'not_configured',
      'The credential is a GitHub App private key: the settings "appId" and "installationId" must both be set.',
    );
  }
  const app = new App({ appId, privateKey: credential, Octokit: Configured });
  return (await app.getInstallationOctokit(installationId)) as unknown as Client;
}

/** Runs `read`, mapping GitHub's refusals to ConnectorFailures named for `call`. */
async function calling<T>(call: GitHubCall, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw failureOf(error, call);
  }
}

/** The open alerts of the organisation, tallied by repository name (the two listings read side by side). */
async function tallyAlerts(octokit: Client, org: string, context: CollectContext): Promise<Map<string, AlertTally>> {
  const tallies = new Map<string, AlertTally>();
  const tallyOf = (repository: string) => tallies.get(repository) ?? tallies.set(repository, emptyTally()).get(repository)!;
  const dependabot = { resource: `the Dependabot alerts of ${org}`, permission: 'vulnerability_alerts=read', organization: org };
  const dependabotAlerts = calling(dependabot, async () => {
    const pages = octokit.paginate.iterator(octokit.rest.dependabot.listAlertsForOrg, { org, state: 'open', per_page: perPage });
    for await (const { data } of pages) {
      context.progress.called('dependabot alerts', data.length);
      for (const alert of data)
        countDependabotAlert(tallyOf(alert.repository.name), alert.security_advisory.severity, alert.created_at);
    }
  });
  const secrets = {
    resource: `the secret scanning alerts of ${org}`,
    permission: 'secret_scanning_alerts=read',
    organization: org,
  };
  const secretAlerts = calling(secrets, async () => {
    const pages = octokit.paginate.iterator(octokit.rest.secretScanning.listAlertsForOrg, {
      org,
      state: 'open',
      hide_secret: true,
      per_page: perPage,
    });
    for await (const { data } of pages) {
      context.progress.called('secret scanning alerts', data.length);
      for (const alert of data)
        if (alert.repository && alert.created_at) countSecretAlert(tallyOf(alert.repository.name), alert.created_at);
    }
  });
  await Promise.all([dependabotAlerts, secretAlerts]);
  return tallies;
}

type Repository = Awaited<ReturnType<Client['rest']['repos']['listForOrg']>>['data'][number];

/** Whether a production environment accepts deployments from the default branch alone. */
async function deploysOnlyFromDefaultBranch(
  octokit: Client,
  repository: Repository,
  environment: Environment,
  context: CollectContext,
): Promise<boolean> {
  if (environment.deployment_branch_policy?.custom_branch_policies !== true) return false;
  const call = { resource: `the deployment branch policies of ${repository.full_name}`, permission: 'actions=read' };
  const { data } = await calling(call, () =>
    octokit.rest.repos.listDeploymentBranchPolicies({
      owner: repository.owner.login,
      repo: repository.name,
      environment_name: environment.name,
      per_page: perPage,
    }),
  );
  context.progress.called('deployment branch policies', data.branch_policies.length);
  return (
    data.total_count === 1 &&
    data.branch_policies[0]?.type !== 'tag' &&
    data.branch_policies[0]?.name === repository.default_branch
  );
}

/** Answers whose 404 (or, for code scanning, 403) means "no": the feature is off, not the credential short. */
async function whether(
  call: GitHubCall,
  read: () => Promise<unknown>,
  off: (status: number, message: string) => boolean,
): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && off(status, messageOf(error))) return false;
    throw failureOf(error, call);
  }
}

/** The paths of a repository's deployment workflows, from its workflow listing (100 a page: one call for nearly all). */
async function deploymentWorkflows(octokit: Client, repository: Repository, context: CollectContext): Promise<string[]> {
  const call = { resource: `the workflows of ${repository.full_name}`, permission: 'actions=read' };
  const workflows = await calling(call, async () => {
    // paginate unwraps `{ total_count, workflows }` pages into the workflows; its types do not say so.
    const listed: unknown = await octokit.paginate(octokit.rest.actions.listRepoWorkflows, {
      owner: repository.owner.login,
      repo: repository.name,
      per_page: perPage,
    });
    return listed as Workflow[];
  });
  context.progress.called('workflows', workflows.length);
  return workflows
    .filter(isDeploymentWorkflow)
    .map((workflow) => workflow.path)
    .toSorted();
}

async function pipelineData(octokit: Client, repository: Repository, production: Environment[], context: CollectContext) {
  const owner = repository.owner.login;
  const repo = repository.name;
  const [dependencyScanning, staticAnalysis, workflows, ...fromDefault] = await Promise.all([
    whether(
      { resource: `whether Dependabot alerts are on in ${repository.full_name}`, permission: 'administration=read' },
      () => octokit.rest.repos.checkVulnerabilityAlerts({ owner, repo }),
      (status) => status === 404,
    ),
    whether(
      { resource: `the code scanning analyses of ${repository.full_name}`, permission: 'security_events=read' },
      () =>
        octokit.rest.codeScanning.listRecentAnalyses({
          owner,
          repo,
          ref: `refs/heads/${repository.default_branch}`,
          per_page: 1,
        }),
      (status, message) =>
        status === 404 || (status === 403 && /Advanced Security must be enabled|Code scanning is not enabled/i.test(message)),
    ),
    deploymentWorkflows(octokit, repository, context),
    ...production.map((environment) => deploysOnlyFromDefaultBranch(octokit, repository, environment, context)),
  ]);
  context.progress.called('repository security settings', 2);
  return {
    deploysOnlyFromDefaultBranch: fromDefault.every(Boolean),
    productionApprovalRequired: approvalRequired(production),
    secretScanning: repository.security_and_analysis?.secret_scanning?.status === 'enabled',
    dependencyScanning,
    staticAnalysis,
    productionEnvironments: production.map((environment) => environment.name),
    deploymentWorkflows: workflows,
  };
}

/** A repository's items: its branch protection, its open alerts, and its pipeline when it deploys to production. */
async function repositoryItems(
  octokit: Client,
  repository: Repository,
  tallies: Promise<Map<string, AlertTally>>,
  context: CollectContext,
): Promise<CollectedItem[]> {
  const owner = repository.owner.login;
  const repo = repository.name;
  const branch = repository.default_branch ?? 'main';
  const subject = repository.full_name;
  const [classic, rules, environments] = await Promise.all([
    calling({ resource: `the branch protection of ${subject}`, permission: 'administration=read' }, () =>
      octokit.rest.repos.getBranchProtection({ owner, repo, branch }).then(
        ({ data }) => data,
        (error: unknown) => {
          if (statusOf(error) === 404 && messageOf(error) === 'Branch not protected') return undefined;
          throw error;
        },
      ),
    ),
    calling({ resource: `the branch rules of ${subject}`, permission: 'metadata=read' }, () =>
      octokit.paginate(octokit.rest.repos.getBranchRules, { owner, repo, branch, per_page: perPage }),
    ),
    calling({ resource: `the environments of ${subject}`, permission: 'actions=read' }, async () => {
      // paginate unwraps `{ total_count, environments }` pages into the environments; its types do not say so.
      const listed: unknown = await octokit.paginate(octokit.rest.repos.getAllEnvironments, { owner, repo, per_page: perPage });
      return listed as Environment[];
    }),
  ]);
  context.progress.called('branch protection', 1);
  context.progress.called('branch rules', rules.length);
  context.progress.called('environments', environments.length);
  const collectedAt = context.now().toISOString();
  const items: CollectedItem[] = [
    { kind: 'repo.branch_protection', subject, collectedAt, data: branchProtectionData(branch, classic, rules) },
    { kind: 'vuln.scan', subject, collectedAt, data: vulnScanData((await tallies).get(repo) ?? emptyTally(), context.now()) },
  ];
  const production = environments.filter(isProduction);
  if (production.length > 0)
    items.push({ kind: 'ci.pipeline', subject, collectedAt, data: await pipelineData(octokit, repository, production, context) });
  return items;
}

/**
 * The organisation's unarchived repositories, page by page as GitHub lists them. The next page is
 * asked for as soon as a page arrives: its call then waits in octokit's queue while this page's
 * repositories are read, instead of after them with the pool idle. Two pages are held at most.
 */
async function* repositoriesOf(octokit: Client, org: string, context: CollectContext): AsyncGenerator<Repository> {
  const call = { resource: `the repositories of ${org}`, permission: 'metadata=read', organization: org };
  const listing = octokit.paginate.iterator(octokit.rest.repos.listForOrg, { org, type: 'all', per_page: perPage });
  const pages = listing[Symbol.asyncIterator]();
  const nextPage = () => pages.next().catch((error: unknown) => Promise.reject(failureOf(error, call)));
  let page = await nextPage();
  while (page.done !== true) {
    const following = nextPage();
    // Its failure is thrown where it is awaited, after this page's repositories; until then it is not unhandled.
    following.catch(() => {});
    context.progress.called('repositories', page.value.data.length);
    for (const repository of page.value.data) if (!repository.archived) yield repository;
    page = await following;
  }
}

export function githubCollector(tuning: GitHubTuning = {}): Collector {
  return {
    async *collect(context) {
      const org = String(context.settings.organization ?? '');
      if (org === '') throw new ConnectorFailure('not_configured', 'The setting "organization" is not set.');
      const octokit = await clientFor(context, tuning);
      // The alerts are tallied while the first repositories are read, not before: a repository waits
      // for the tally only when its vuln.scan item is made. A failed tally is thrown there.
      const tallies = tallyAlerts(octokit, org, context);
      tallies.catch(() => {});
      // Likewise the members without two-factor authentication are listed beside the first
      // repositories; the members themselves follow the repositories.
      const withoutTwoFactor = membersWithoutTwoFactor(octokit, org, context);
      withoutTwoFactor.catch(() => {});
      const read = (repository: Repository) => repositoryItems(octokit, repository, tallies, context);
      for await (const items of inPool(repositoriesOf(octokit, org, context), repositoriesAtOnce, read)) yield* items;
      yield* memberItems(octokit, org, withoutTwoFactor, context);
    },
  };
}

export const collector = githubCollector();
