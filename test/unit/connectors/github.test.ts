/**
 * The GitHub connector through `octokit` against the GitHub stand-in (held to GitHub's OpenAPI
 * description): what it yields for each repository, that it follows pagination to the end in the
 * fewest calls, waits out secondary rate limits, and fails with a reason a person can act on.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { githubCollector } from '../../../functions/src/connectors/github/collect-github.ts';
import { githubConnector } from '../../../functions/src/connectors/github/github-connector.ts';
import { type CollectContext, type CollectedItem, ConnectorFailure } from '../../../functions/src/connectors/connector.ts';
import { buildFixture, fewestCalls, fixtureToday, type GitHubFixture } from '../../stand-ins/github/fixture.ts';
import { type GitHubStandIn, type GitHubStandInOptions, startGitHubStandIn } from '../../stand-ins/github/github-stand-in.ts';

const token = 'github_pat_11AAAAAAA0stand0in0token0not0real';
let standIn: GitHubStandIn | undefined;

afterEach(async () => {
  if (standIn === undefined) return;
  expect(standIn.violations).toEqual([]);
  await standIn.close();
  standIn = undefined;
});

interface Recorded {
  context: CollectContext;
  rateLimits: Array<[number, string]>;
}

async function withStandIn(
  options: Partial<GitHubStandInOptions> & { fixture: GitHubFixture },
  secrets: Record<string, string> = { GITHUB_CREDENTIAL: token },
  settings = {},
): Promise<Recorded> {
  standIn = await startGitHubStandIn({ token, ...options });
  const rateLimits: Array<[number, string]> = [];
  const context: CollectContext = {
    settings: { organization: 'acme', baseUrl: standIn.origin, ...settings },
    secrets,
    signal: new AbortController().signal,
    progress: { called: () => {}, rateLimited: (seconds, reason) => rateLimits.push([seconds, reason]) },
    now: () => new Date(fixtureToday),
  };
  return { context, rateLimits };
}

/** A collector whose 5xx back-off lasts 1 ms a unit, so a persisting 500 fails in milliseconds (the retries are still the SDK's). */
const collector = githubCollector({ retryAfterBaseMs: 1 });

async function collectAll(context: CollectContext, yielded: CollectedItem[] = []): Promise<CollectedItem[]> {
  for await (const item of collector.collect(context)) yielded.push(item);
  return yielded;
}

async function failureOf(context: CollectContext, yielded: CollectedItem[] = []): Promise<ConnectorFailure> {
  const failure = await collectAll(context, yielded).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ConnectorFailure);
  return failure as ConnectorFailure;
}

function bySubject(items: CollectedItem[], kind: string): Map<string, CollectedItem> {
  return new Map(items.filter((item) => item.kind === kind).map((item) => [item.subject, item]));
}

const unarchived = (fixture: GitHubFixture) =>
  fixture.repositories.filter((repository) => !repository.archived).map((repository) => `acme/${repository.name}`);

describe('the GitHub connector', () => {
  it('yields each unarchived repository once per kind and each member once, following every page, in the fewest calls', async () => {
    const fixture = buildFixture(250);
    const { context } = await withStandIn({ fixture });
    const items = await collectAll(context);
    const subjects = unarchived(fixture);
    expect(subjects).toHaveLength(245);
    const protection = items.filter((item) => item.kind === 'repo.branch_protection').map((item) => item.subject);
    expect(protection.toSorted()).toEqual(subjects);
    expect(
      items
        .filter((item) => item.kind === 'vuln.scan')
        .map((item) => item.subject)
        .toSorted(),
    ).toEqual(subjects);
    const pipelines = fixture.repositories.filter(
      (repository) => !repository.archived && repository.environments.some((environment) => environment.name.startsWith('prod')),
    );
    expect([...bySubject(items, 'ci.pipeline').keys()].toSorted()).toEqual(
      pipelines.map((repository) => `acme/${repository.name}`),
    );
    // Every member once: the 118 who are not owners take two pages.
    expect(fixture.members).toHaveLength(125);
    expect(
      items
        .filter((item) => item.kind === 'repo.member')
        .map((item) => item.subject)
        .toSorted(),
    ).toEqual(fixture.members.map((member) => `acme/${member.login}`));
    expect(standIn?.operations.filter((operation) => operation === 'GET /orgs/{org}/members')).toHaveLength(4);
    expect(items.every((item) => item.collectedAt === fixtureToday.replace('Z', '.000Z'))).toBe(true);
    expect(standIn?.calls).toBe(fewestCalls(fixture));
    expect(standIn?.operations.filter((operation) => operation === 'GET /orgs/{org}/repos')).toHaveLength(3);
    // One workflow listing per repository deploying to production; service-0000's 102 workflows take two pages.
    expect(pipelines).toHaveLength(63);
    expect(standIn?.operations.filter((operation) => operation === 'GET /repos/{owner}/{repo}/actions/workflows')).toHaveLength(
      64,
    );
    expect(standIn?.violations).toEqual([]);
  });

  it('reads protection from classic rules and rulesets, deployments from production environments, and open alerts', async () => {
    const { context } = await withStandIn({ fixture: buildFixture(20) });
    const items = await collectAll(context);
    const protection = bySubject(items, 'repo.branch_protection');
    expect(protection.get('acme/service-0000')?.data).toEqual({
      defaultBranch: 'main',
      protected: true,
      requiredApprovals: 2,
      dismissStaleApprovals: true,
      requireStatusChecks: true,
      allowForcePush: false,
      enforceForAdmins: true,
      requireSignedCommits: true,
    });
    expect(protection.get('acme/service-0003')?.data).toEqual({
      defaultBranch: 'main',
      protected: false,
      requiredApprovals: 0,
      dismissStaleApprovals: false,
      requireStatusChecks: false,
      allowForcePush: true,
      enforceForAdmins: false,
      requireSignedCommits: false,
    });
    expect(protection.get('acme/service-0007')?.data).toEqual({
      defaultBranch: 'trunk',
      protected: true,
      requiredApprovals: 2,
      dismissStaleApprovals: true,
      requireStatusChecks: false,
      allowForcePush: false,
      enforceForAdmins: true,
      requireSignedCommits: false,
    });
    const pipelines = bySubject(items, 'ci.pipeline');
    expect(pipelines.get('acme/service-0000')?.data).toEqual({
      deploysOnlyFromDefaultBranch: true,
      productionApprovalRequired: true,
      secretScanning: true,
      dependencyScanning: true,
      staticAnalysis: true,
      productionEnvironments: ['production'],
      // On the second page of its workflows.
      deploymentWorkflows: ['.github/workflows/deploy.yml'],
    });
    expect(pipelines.get('acme/service-0004')?.data).toEqual({
      deploysOnlyFromDefaultBranch: false,
      productionApprovalRequired: false,
      secretScanning: false,
      dependencyScanning: true,
      staticAnalysis: false,
      productionEnvironments: ['prod-eu'],
      // Its disabled deploy-legacy.yml deploys nothing.
      deploymentWorkflows: ['.github/workflows/release.yml'],
    });
    expect(pipelines.get('acme/service-0008')?.data.deploymentWorkflows).toEqual([]);
    expect([...pipelines.keys()].toSorted()).toEqual([
      'acme/service-0000',
      'acme/service-0004',
      'acme/service-0008',
      'acme/service-0012',
      'acme/service-0016',
    ]);
    const scans = bySubject(items, 'vuln.scan');
    expect(scans.get('acme/service-0000')?.data).toEqual({
      scanner: 'github-dependabot-and-secret-scanning',
      authenticated: true,
      openCritical: 2,
      openHigh: 1,
      openMedium: 1,
      openLow: 0,
      openSecrets: 1,
      oldestCriticalDays: 10,
      oldestHighDays: 40,
    });
    expect(scans.get('acme/service-0001')?.data).toEqual({
      scanner: 'github-dependabot-and-secret-scanning',
      authenticated: true,
      openCritical: 0,
      openHigh: 0,
      openMedium: 0,
      openLow: 0,
      openSecrets: 0,
      oldestCriticalDays: 0,
      oldestHighDays: 0,
    });
    const members = bySubject(items, 'repo.member');
    expect(members.get('acme/dev-0000')?.data).toEqual({ login: 'dev-0000', admin: true, mfaEnabled: true });
    expect(members.get('acme/dev-0001')?.data).toEqual({ login: 'dev-0001', admin: false, mfaEnabled: true });
    expect(members.get('acme/dev-0007')?.data).toEqual({ login: 'dev-0007', admin: false, mfaEnabled: false });
    expect(members.size).toBe(10);
    // The owners are listed first.
    expect(items.find((item) => item.kind === 'repo.member')?.subject).toBe('acme/dev-0000');
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    for (const item of items)
      expect(ajv.validate(evidenceKinds[item.kind].data, item.data), `${item.kind} ${item.subject}`).toBe(true);
  });

  it('authenticates as a GitHub App installation with a token for a JWT signed by its private key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const app = {
      appId: 123456,
      installationId: 45678901,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    const fixture = buildFixture(12);
    const { context } = await withStandIn(
      { fixture, app },
      { GITHUB_CREDENTIAL: pem },
      { appId: '123456', installationId: '45678901' },
    );
    const items = await collectAll(context);
    expect([...bySubject(items, 'repo.branch_protection').keys()].toSorted()).toEqual(unarchived(fixture));
    expect(standIn?.operations[0]).toBe('POST /app/installations/{installation_id}/access_tokens');
    expect(standIn?.operations.filter((operation) => operation.startsWith('POST'))).toHaveLength(1);
  });

  it.each([403, 429] as const)(
    'waits out a secondary rate limit answered with %i and retry-after, then collects everything',
    async (status) => {
      const fixture = buildFixture(30);
      const { context, rateLimits } = await withStandIn({ fixture, rateLimitAt: { call: 6, status, retryAfter: 1 } });
      const items = await collectAll(context);
      expect(rateLimits).toEqual([[1, 'GitHub secondary rate limit']]);
      expect([...bySubject(items, 'repo.branch_protection').keys()].toSorted()).toEqual(unarchived(fixture));
      expect(standIn?.calls).toBe(fewestCalls(fixture) + 1);
    },
  );

  it('retries a call GitHub answered 502 once, then collects everything', async () => {
    const fixture = buildFixture(30);
    const { context, rateLimits } = await withStandIn({ fixture, failAt: 6 });
    const items = await collectAll(context);
    expect(rateLimits).toEqual([]);
    const bySubjectAndKind = (a: CollectedItem, b: CollectedItem) =>
      `${a.subject} ${a.kind}`.localeCompare(`${b.subject} ${b.kind}`);
    expect(items.toSorted(bySubjectAndKind)).toEqual((await collectAllFrom(fixture)).toSorted(bySubjectAndKind));
    expect(standIn?.calls).toBe(fewestCalls(fixture) + 1);
  });

  it('fails as vendor_unavailable when GitHub answers 500 past the retries, after yielding only whole repositories', async () => {
    const fixture = buildFixture(250);
    const { context } = await withStandIn({ fixture, failFrom: 200 });
    const yielded: CollectedItem[] = [];
    const failure = await failureOf(context, yielded);
    expect(failure.reason).toBe('vendor_unavailable');
    const reference = await collectAllFrom(fixture);
    const protection = bySubject(yielded, 'repo.branch_protection');
    expect(protection.size).toBeGreaterThan(0);
    expect(protection.size).toBeLessThan(245);
    for (const item of yielded) expect(item).toEqual(bySubject(reference, item.kind).get(item.subject));
    expect([...bySubject(yielded, 'vuln.scan').keys()].toSorted()).toEqual([...protection.keys()].toSorted());
  });

  it('fails as credential_rejected for a revoked token, without the token in its message', async () => {
    const { context } = await withStandIn({ fixture: buildFixture(5), revoked: true });
    const failure = await failureOf(context);
    expect([failure.reason, failure.message]).toEqual([
      'credential_rejected',
      'GitHub refused the credential: it is revoked, expired or not the one issued.',
    ]);
    expect(failure.message).not.toContain(token);
  });

  it('fails as permission_missing naming the permission GitHub asks for', async () => {
    const missingPermission = { operation: 'GET /orgs/{org}/dependabot/alerts', permission: 'vulnerability_alerts=read' };
    const { context } = await withStandIn({ fixture: buildFixture(5), missingPermission });
    const failure = await failureOf(context);
    expect([failure.reason, failure.permission, failure.message]).toEqual([
      'permission_missing',
      'vulnerability_alerts=read',
      'GitHub refused to list the Dependabot alerts of acme: the credential lacks the permission vulnerability_alerts=read.',
    ]);
  });

  it("fails as permission_missing when the credential is not an owner's, after yielding every repository", async () => {
    const fixture = buildFixture(12);
    const { context } = await withStandIn({ fixture, notOwner: true });
    const yielded: CollectedItem[] = [];
    const failure = await failureOf(context, yielded);
    expect([failure.reason, failure.permission, failure.message]).toEqual([
      'permission_missing',
      'organization owner',
      "GitHub lists the members of acme without two-factor authentication only to the organisation's owners: the credential must be an owner's token or a GitHub App with the permission members=read.",
    ]);
    expect([...bySubject(yielded, 'repo.branch_protection').keys()].toSorted()).toEqual(unarchived(fixture));
    expect(yielded.filter((item) => item.kind === 'repo.member')).toEqual([]);
  });

  it('fails as not_found for an organisation GitHub does not show', async () => {
    const { context } = await withStandIn({ fixture: buildFixture(5) }, undefined, { organization: 'acme-typo' });
    const failure = await failureOf(context);
    expect([failure.reason, failure.message]).toEqual([
      'not_found',
      'GitHub has no organisation "acme-typo" that the credential can see.',
    ]);
  });

  it('fails as not_configured for a private key without the App ids, without the key in its message', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const { context } = await withStandIn({ fixture: buildFixture(5) }, { GITHUB_CREDENTIAL: pem });
    const failure = await failureOf(context);
    expect(failure.reason).toBe('not_configured');
    expect(failure.message).not.toContain('PRIVATE KEY');
    expect(standIn?.calls).toBe(0);
  });
});

/** Every item of a complete collection of `fixture`, from a stand-in of its own. */
async function collectAllFrom(fixture: GitHubFixture): Promise<CollectedItem[]> {
  const own = await startGitHubStandIn({ fixture, token });
  try {
    const context: CollectContext = {
      settings: { organization: 'acme', baseUrl: own.origin },
      secrets: { GITHUB_CREDENTIAL: token },
      signal: new AbortController().signal,
      progress: { called: () => {}, rateLimited: () => {} },
      now: () => new Date(fixtureToday),
    };
    return await collectAll(context);
  } finally {
    await own.close();
  }
}

describe('what the GitHub connector needs', () => {
  const all = new Set(['GITHUB_CREDENTIAL']);

  it('is ready with an organisation and a credential', () => {
    expect(githubConnector.needs?.({ organization: 'acme' }, all)).toEqual([]);
    expect(githubConnector.needs?.({ organization: 'acme', appId: '1', installationId: '2' }, all)).toEqual([]);
  });

  it('asks for the organisation, the credential, and both App ids when one is set', () => {
    expect(githubConnector.needs?.({ appId: '1' }, new Set())).toEqual([
      'the setting "organization": The GitHub organisation whose repositories and members are collected.',
      "the secret GITHUB_CREDENTIAL: A fine-grained personal access token for the organisation, or a GitHub App's private key (PEM).",
      'both "appId" and "installationId" when the credential is a GitHub App private key (only one is set)',
    ]);
  });
});
