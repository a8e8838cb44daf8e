/**
 * The Okta collector: signed in with an API token, or as an OAuth service app (okta-sign-in.ts);
 * the org's settings first (password and global session policies, active
 * apps), then the users with role assignments (held as a set of ids: administrators are few),
 * then every user, page by page (200, Okta's largest), each with its enrolled factors read in a
 * bounded pool. Every call goes through `@okta/okta-sdk-nodejs`, whose request executor waits out
 * a 429 until `X-Rate-Limit-Reset` and tells us through its 'backoff' event.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Client, DefaultRequestExecutor, type Collection } from '@okta/okta-sdk-nodejs';
import { ConnectorFailure, type CollectContext, type CollectedItem, type Collector } from '../connector.js';
import { credentialOf, credentialSecret, isLoopback, oktaScopes, privateKeyProblem, requestedScopes } from './okta-credential.js';
import { oktaFailure, type OktaCall } from './okta-errors.js';
import { pooled } from './okta-pool.js';
import { settingsItem, type OktaApp, type OktaPasswordPolicy, type OktaSignOnRule } from './okta-settings.js';
import { signIn } from './okta-sign-in.js';
import { userItem, type OktaFactor, type OktaUser } from './okta-user.js';

/**
 * Calls in flight at once. Okta allows 75 simultaneous requests per Workforce Identity org (35 on
 * the Integrator Free plan), shared with every sign-in and integration of the org, and notes that
 * "even large bulk loads rarely require more than 10" (developer.okta.com/docs/reference/rl2-concurrency,
 * /rl-additional-limits): 10 reads quickly and leaves the org its headroom.
 */
export const oktaConcurrency = 10;
/** Users per page: the largest `limit` Okta's List Users accepts. */
export const usersPageSize = 200;
/** Every user, DEPROVISIONED ones included: a plain listing omits them, a filter does not; every user has `lastUpdated`. */
export const everyUserFilter = 'lastUpdated gt "1970-01-01T00:00:00.000Z"';

const calls = {
  users: { reading: 'listing users', scope: oktaScopes.users },
  factors: { reading: "listing a user's factors", scope: oktaScopes.factors },
  roles: { reading: 'listing users with administrator roles', scope: oktaScopes.roles },
  policies: { reading: 'listing policies', scope: oktaScopes.policies },
  rules: { reading: 'listing policy rules', scope: oktaScopes.policies },
  apps: { reading: 'listing apps', scope: oktaScopes.apps },
} satisfies Record<string, OktaCall>;

async function called<T>(call: OktaCall, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw oktaFailure(error, call);
  }
}

/** The org URL a run may use: https, or http on this machine only (a stand-in). */
function orgUrlOf(context: CollectContext): URL {
  const configured = context.standIn?.endpoint ?? context.settings.orgUrl;
  let url: URL;
  try {
    url = new URL(String(configured ?? ''));
  } catch {
    throw new ConnectorFailure('not_configured', 'The setting "orgUrl" is not an address such as https://acme.okta.com.');
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return url;
  throw new ConnectorFailure('not_configured', 'The setting "orgUrl" must be an https address such as https://acme.okta.com.');
}

/**
 * A client with the run's credential: an API token, or a private key and the service app's client
 * ID, asking for `scopes` (every scope the connector needs, unless okta-sign-in.ts is narrowing
 * down which one Okta refuses). `oauth` says whether it signs in as a service app.
 */
function clientsOf(context: CollectContext, orgUrl: URL, executor: DefaultRequestExecutor) {
  const secret = context.secrets[credentialSecret] ?? context.standIn?.token;
  if (!secret) throw new ConnectorFailure('not_configured', `The secret ${credentialSecret} is not set.`);
  const credential = credentialOf(secret);
  const clientId = typeof context.settings.clientId === 'string' ? context.settings.clientId : '';
  // The cache would keep every single resource read; a collection reads each once.
  const common = { orgUrl: orgUrl.origin, requestExecutor: executor, cacheMiddleware: null };
  if (credential.kind === 'token') {
    if (clientId)
      throw new ConnectorFailure(
        'not_configured',
        `The setting "clientId" is set, but ${credentialSecret} holds an API token, not a private key.`,
      );
    const client = new Client({ ...common, authorizationMode: 'SSWS', token: credential.token });
    return { oauth: false, client, clientFor: () => client };
  }
  if (!clientId)
    throw new ConnectorFailure('not_configured', `${credentialSecret} holds a private key: set "clientId" to its service app.`);
  const problem = privateKeyProblem(credential.privateKey);
  if (problem) throw new ConnectorFailure('credential_rejected', problem);
  const clientFor = (scopes: string[]) =>
    new Client({ ...common, authorizationMode: 'PrivateKey', clientId, scopes, privateKey: credential.privateKey });
  return { oauth: true, client: clientFor(requestedScopes()), clientFor };
}

/** The SDK's pages of a listing, one call each, following the `Link: rel="next"` header to the end. */
async function* pagesOf<T>(
  context: CollectContext,
  call: OktaCall,
  resource: string,
  collection: Collection<T>,
): AsyncGenerator<T[]> {
  do {
    context.signal.throwIfAborted();
    const page = (await called(call, () => collection.getNextPage())) as T[];
    context.progress.called(resource, page.length);
    yield page;
  } while (collection.nextUri);
}

async function allOf<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pages) items.push(...page);
  return items;
}

async function readSettings(context: CollectContext, client: Client, subject: string): Promise<CollectedItem> {
  const listPolicies = (type: 'PASSWORD' | 'OKTA_SIGN_ON') =>
    called(calls.policies, () => client.policyApi.listPolicies({ type }));
  const passwordPolicies = await allOf(pagesOf(context, calls.policies, 'password policies', await listPolicies('PASSWORD')));
  const signOnPolicies = await allOf(pagesOf(context, calls.policies, 'sign-on policies', await listPolicies('OKTA_SIGN_ON')));
  const signOnRules: OktaSignOnRule[] = [];
  for (const policy of signOnPolicies.filter((each) => each.status === 'ACTIVE' && each.id)) {
    const rules = await called(calls.rules, () => client.policyApi.listPolicyRules({ policyId: policy.id! }));
    signOnRules.push(...((await allOf(pagesOf(context, calls.rules, 'sign-on policy rules', rules))) as OktaSignOnRule[]));
  }
  const appList = await called(calls.apps, () =>
    client.applicationApi.listApplications({ filter: 'status eq "ACTIVE"', limit: 200 }),
  );
  const apps = (await allOf(pagesOf(context, calls.apps, 'apps', appList))) as OktaApp[];
  return settingsItem(subject, { passwordPolicies: passwordPolicies as OktaPasswordPolicy[], signOnRules, apps }, context.now());
}

/** The ids of users holding an administrator role, from Okta's listing of role assignees (`_links.next` carries `after`). */
async function administrators(context: CollectContext, client: Client): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | undefined;
  do {
    context.signal.throwIfAborted();
    const page = await called(calls.roles, () => client.roleAssignmentApi.listUsersWithRoleAssignments({ after }));
    context.progress.called('administrators', page.value?.length ?? 0);
    for (const assignee of page.value ?? []) if (assignee.id) ids.add(assignee.id);
    const next = page._links?.next?.href;
    after = next ? (new URL(next).searchParams.get('after') ?? undefined) : undefined;
  } while (after);
  return ids;
}

async function* users(context: CollectContext, client: Client): AsyncGenerator<OktaUser> {
  const listing = await called(calls.users, () => client.userApi.listUsers({ filter: everyUserFilter, limit: usersPageSize }));
  for await (const page of pagesOf(context, calls.users, 'users', listing)) yield* page as OktaUser[];
}

async function factorsOf(context: CollectContext, client: Client, userId: string): Promise<OktaFactor[]> {
  context.signal.throwIfAborted();
  const listing = await called(calls.factors, () => client.userFactorApi.listFactors({ userId }));
  return (await allOf(pagesOf(context, calls.factors, 'factors', listing))) as OktaFactor[];
}

export const collector: Collector = {
  async *collect(context) {
    const orgUrl = orgUrlOf(context);
    const executor = new DefaultRequestExecutor();
    executor.on('backoff', (request: { url?: string }, _response: unknown, _requestId: unknown, delayMs: number) => {
      const path = request.url ? new URL(request.url).pathname : 'a call';
      context.progress.rateLimited(delayMs / 1000, `Okta's rate limit on ${path}`);
    });
    const { oauth, client, clientFor } = clientsOf(context, orgUrl, executor);
    // At most `oktaConcurrency` connections, kept alive: the cap holds for every call, pages included.
    const agent =
      orgUrl.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets: oktaConcurrency })
        : new HttpAgent({ keepAlive: true, maxSockets: oktaConcurrency });
    client.http.agent = agent;
    try {
      if (oauth) await signIn(client, clientFor);
      yield await readSettings(context, client, orgUrl.host);
      const admins = await administrators(context, client);
      const now = context.now();
      const items = pooled(users(context, client), oktaConcurrency, async (user) =>
        userItem(user, user.id ? await factorsOf(context, client, user.id) : [], admins.has(user.id ?? ''), now),
      );
      for await (const item of items) if (item) yield item;
    } finally {
      agent.destroy();
    }
  },
};
