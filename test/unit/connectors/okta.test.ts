/**
 * The Okta connector against the Okta stand-in (test/stand-ins/okta), through @okta/okta-sdk-nodejs:
 * every user once with exact data, the Link-header pages followed to the end, a 429 waited out,
 * a 500 halfway, a revoked token, a withheld scope, and no secret in any failure.
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { ConnectorFailure, type CollectContext, type CollectedItem } from '../../../functions/src/connectors/connector.ts';
import { collector } from '../../../functions/src/connectors/okta/collect-okta.ts';
import { oktaConnector } from '../../../functions/src/connectors/okta/okta-connector.ts';
import { requestedScopes } from '../../../functions/src/connectors/okta/okta-credential.ts';
import { fixtureNow, fixtureSettings, loginOf } from '../../stand-ins/okta/okta-fixtures.ts';
import { startOktaStandIn, type OktaStandIn, type OktaStandInOptions } from '../../stand-ins/okta/okta-stand-in.ts';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);
const validData = {
  'idp.user': ajv.compile(evidenceKinds['idp.user'].data),
  'idp.settings': ajv.compile(evidenceKinds['idp.settings'].data),
};

let standIn: OktaStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(options: OktaStandInOptions): Promise<OktaStandIn> {
  standIn = await startOktaStandIn(options);
  return standIn;
}

function contextFor(server: OktaStandIn, secret = server.token) {
  const progress = { called: vi.fn(), rateLimited: vi.fn() };
  const context: CollectContext = {
    settings: { orgUrl: server.url },
    secrets: { OKTA_CREDENTIAL: secret },
    signal: new AbortController().signal,
    progress,
    now: () => fixtureNow,
  };
  return { context, progress };
}

/** Runs the collector to its end or its failure: what it yielded, and how it ended. */
async function run(context: CollectContext): Promise<{ items: CollectedItem[]; failure?: unknown }> {
  const items: CollectedItem[] = [];
  try {
    for await (const item of collector.collect(context)) items.push(item);
  } catch (failure) {
    return { items, failure };
  }
  return { items };
}

const users = (items: CollectedItem[]) => items.filter((item) => item.kind === 'idp.user');

describe('the Okta connector', () => {
  it('yields every user exactly once, with exact data for the named cases, and the settings', async () => {
    const server = await start({ users: 450 });
    const { context } = contextFor(server);
    const { items, failure } = await run(context);
    expect(failure).toBeUndefined();
    expect(server.violations).toEqual([]);

    const subjects = users(items).map((item) => item.subject);
    expect(subjects).toHaveLength(450);
    expect(new Set(subjects)).toEqual(new Set(Array.from({ length: 450 }, (_, index) => loginOf(index))));
    for (const item of items) {
      expect(item.collectedAt).toBe(fixtureNow.toISOString());
      expect(validData[item.kind as 'idp.user' | 'idp.settings'](item.data), `${item.subject}: ${ajv.errorsText()}`).toBe(true);
    }
    const dataOf = (index: number) => users(items).find((item) => item.subject === loginOf(index))?.data;
    const email = (index: number) => loginOf(index);
    expect(dataOf(0)).toEqual({
      email: email(0),
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: true,
      admin: true,
      lastLoginDaysAgo: 0,
      employmentStatus: 'active',
    });
    expect(dataOf(1)).toEqual({
      email: email(1),
      active: true,
      mfaEnabled: false,
      phishingResistantMfa: false,
      admin: false,
      employmentStatus: 'active',
    });
    expect(dataOf(2)).toEqual({
      email: email(2),
      active: false,
      mfaEnabled: true,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: 2,
      employmentStatus: 'active',
    });
    expect(dataOf(3)).toEqual({
      email: email(3),
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: 3,
      employmentStatus: 'contractor',
    });
    expect(dataOf(4)).toEqual({
      email: email(4),
      active: false,
      mfaEnabled: false,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: 4,
      employmentStatus: 'leaver',
    });
    expect(dataOf(5)).toEqual({
      email: email(5),
      active: true,
      mfaEnabled: false,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: 5,
      employmentStatus: 'active',
    });
    expect(dataOf(6)).toEqual({
      email: email(6),
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: false,
      admin: true,
      lastLoginDaysAgo: 6,
      employmentStatus: 'active',
    });
    expect(
      users(items)
        .filter((item) => item.data.admin)
        .map((item) => item.subject),
    ).toEqual([loginOf(0), loginOf(6)]);

    const settings = items.filter((item) => item.kind === 'idp.settings');
    expect(settings).toEqual([
      {
        kind: 'idp.settings',
        subject: new URL(server.url).host,
        collectedAt: fixtureNow.toISOString(),
        data: { ...fixtureSettings, ssoEnforced: false },
      },
    ]);
  });

  it('follows every page to the end in the fewest calls, never more than ten at once', async () => {
    const server = await start({ users: 450 });
    const { context, progress } = contextFor(server);
    const { failure } = await run(context);
    expect(failure).toBeUndefined();
    expect(Object.fromEntries(server.callsTo)).toEqual({
      '/api/v1/policies': 2,
      '/api/v1/policies/{policyId}/rules': 1,
      '/api/v1/apps': 1,
      '/api/v1/iam/assignees/users': 1,
      '/api/v1/users': 3,
      '/api/v1/users/{userId}/factors': 450,
    });
    expect(server.calls).toBe(458);
    expect(server.maxInFlight).toBeLessThanOrEqual(10);
    expect(progress.called.mock.calls.filter(([resource]) => resource === 'users').map(([, entries]) => entries)).toEqual([
      200, 200, 50,
    ]);
  });

  it('sees SSO enforced when no active app signs in with a stored password', async () => {
    const server = await start({ users: 10, passwordApp: false });
    const { items } = await run(contextFor(server).context);
    expect(items.find((item) => item.kind === 'idp.settings')?.data).toEqual({ ...fixtureSettings, ssoEnforced: true });
  });

  it('waits out a 429 for the time X-Rate-Limit-Reset gives, then yields every user', async () => {
    const server = await start({ users: 450, rateLimitAtCall: 6 });
    const { context, progress } = contextFor(server);
    const { items, failure } = await run(context);
    expect(failure).toBeUndefined();
    expect(progress.rateLimited.mock.calls).toEqual([[1, "Okta's rate limit on /api/v1/users"]]);
    expect(new Set(users(items).map((item) => item.subject)).size).toBe(450);
    expect(server.calls).toBe(459);
    expect(server.violations).toEqual([]);
  });

  it('fails as vendor_unavailable on a 500 halfway, after yielding only what came before', async () => {
    const server = await start({ users: 450, failFromCall: 200 });
    const { items, failure } = await run(contextFor(server).context);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('vendor_unavailable');
    expect((failure as ConnectorFailure).message).toMatch(
      /^Okta failed while listing (a user's factors|users) \(500 E0000009\)\.$/,
    );
    expect(items[0]?.kind).toBe('idp.settings');
    // Calls 1-5 read the settings and the administrators; of the 194 calls after them that were
    // answered, 2 read pages of users and at most 192 factors; ten were in flight when the first 500 came.
    expect(users(items).length).toBeGreaterThan(150);
    expect(users(items).length).toBeLessThanOrEqual(192);
    expect(new Set(users(items).map((item) => item.subject)).size).toBe(users(items).length);
  });

  it('fails as credential_rejected on a revoked token, without the token in the message', async () => {
    const server = await start({ users: 10 });
    const revoked = '00revoked-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const { items, failure } = await run(contextFor(server, revoked).context);
    expect(items).toEqual([]);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('credential_rejected');
    expect((failure as ConnectorFailure).message).toBe(
      'Okta refused the credential (401 E0000011) while listing policies: revoked, expired or mistyped.',
    );
    expect(JSON.stringify({ ...(failure as ConnectorFailure), message: (failure as ConnectorFailure).message })).not.toContain(
      revoked,
    );
  });

  it('fails as permission_missing naming okta.roles.read when that scope is withheld', async () => {
    const server = await start({ users: 10, withheldScope: 'okta.roles.read' });
    const { items, failure } = await run(contextFor(server).context);
    expect(items.map((item) => item.kind)).toEqual(['idp.settings']);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('permission_missing');
    expect((failure as ConnectorFailure).permission).toBe('okta.roles.read');
    expect((failure as ConnectorFailure).message).toBe(
      'Okta refused listing users with administrator roles (403 E0000006): grant the scope okta.roles.read and the Read-Only Administrator role.',
    );
    expect((failure as ConnectorFailure).message).not.toContain(server.token);
  });

  it('needs the org URL and the credential, and names the service app when a client ID is set', () => {
    const needs = (settings: Record<string, string>, secrets: string[]) => oktaConnector.needs!(settings, new Set(secrets));
    expect(needs({ orgUrl: 'https://acme.okta.com' }, ['OKTA_CREDENTIAL'])).toEqual([]);
    expect(needs({}, [])).toEqual([
      'the setting "orgUrl": The address of the Okta org, https only.',
      'the secret OKTA_CREDENTIAL: a Read-Only Administrator API token, or an OAuth service app\'s private key with the setting "clientId"',
    ]);
    expect(needs({ orgUrl: 'https://acme.okta.com', clientId: '0oa1b2c3' }, [])).toEqual([
      'the secret OKTA_CREDENTIAL: the private key (PEM or JWK) of the OAuth service app 0oa1b2c3',
    ]);
  });

  it('refuses a plain-http org URL that is not this machine, and a private key without a client ID', async () => {
    const progress = { called: vi.fn(), rateLimited: vi.fn() };
    const base = { signal: new AbortController().signal, progress, now: () => fixtureNow };
    const plain = await run({ ...base, settings: { orgUrl: 'http://acme.okta.com' }, secrets: { OKTA_CREDENTIAL: 'token' } });
    expect(plain.failure).toEqual(
      new ConnectorFailure('not_configured', 'The setting "orgUrl" must be an https address such as https://acme.okta.com.'),
    );
    const key = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----';
    const keyOnly = await run({ ...base, settings: { orgUrl: 'https://acme.okta.com' }, secrets: { OKTA_CREDENTIAL: key } });
    expect(keyOnly.failure).toEqual(
      new ConnectorFailure('not_configured', 'OKTA_CREDENTIAL holds a private key: set "clientId" to its service app.'),
    );
    expect(progress.called).not.toHaveBeenCalled();
  });
});

/** The service app's RSA key pair: the secret as PEM (PKCS#8) or as a JWK, and the public JWK Okta holds. */
const appKeys = (() => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'stand-in-key-1';
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid };
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    jwk: JSON.stringify(jwk),
    /** The parts of the private key a leak would show: the PEM's body and the JWK's private exponent. */
    secretParts: [privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64').slice(40, 104), String(jwk.d)],
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid },
  };
})();
const clientId = '0oa5tandin5erviceapp';

async function startWithApp(options: Partial<OktaStandInOptions> & { grantedScopes?: string[] } = {}): Promise<OktaStandIn> {
  const { grantedScopes = requestedScopes(), ...rest } = options;
  return start({ users: 10, ...rest, serviceApp: { clientId, publicKey: appKeys.publicJwk, grantedScopes } });
}

function appContextFor(server: OktaStandIn, privateKey: string, appId = clientId) {
  const { context, progress } = contextFor(server, privateKey);
  return { context: { ...context, settings: { ...context.settings, clientId: appId } }, progress };
}

function expectNoKeyIn(failure: unknown): void {
  const shown = JSON.stringify({ ...(failure as ConnectorFailure), message: (failure as ConnectorFailure).message });
  for (const part of appKeys.secretParts) expect(shown).not.toContain(part);
}

describe('the Okta connector signed in as an OAuth service app', () => {
  it('collects every user with a PEM key, one access token for the whole run', async () => {
    const server = await startWithApp({ users: 450 });
    const { items, failure } = await run(appContextFor(server, appKeys.pem).context);
    expect(failure).toBeUndefined();
    expect(server.violations).toEqual([]);
    expect(new Set(users(items).map((item) => item.subject))).toEqual(
      new Set(Array.from({ length: 450 }, (_, index) => loginOf(index))),
    );
    expect(users(items)).toHaveLength(450);
    expect(Object.fromEntries(server.callsTo)).toEqual({
      '/oauth2/v1/token': 1,
      '/api/v1/policies': 2,
      '/api/v1/policies/{policyId}/rules': 1,
      '/api/v1/apps': 1,
      '/api/v1/iam/assignees/users': 1,
      '/api/v1/users': 3,
      '/api/v1/users/{userId}/factors': 450,
    });
  });

  it('collects every user with a JWK key (its kid sent and checked)', async () => {
    const server = await startWithApp({ users: 30 });
    const { items, failure } = await run(appContextFor(server, appKeys.jwk).context);
    expect(failure).toBeUndefined();
    expect(server.violations).toEqual([]);
    expect(
      users(items)
        .map((item) => item.subject)
        .sort(),
    ).toEqual(Array.from({ length: 30 }, (_, index) => loginOf(index)).sort());
    expect(server.callsTo.get('/oauth2/v1/token')).toBe(1);
  });

  it.each([
    ['an unknown client ID', appKeys.pem, '0oaunknownclient0000'],
    [
      'a key that is not the registered one',
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      clientId,
    ],
  ])('fails as credential_rejected for %s, before any Management API call', async (_case, key, appId) => {
    const server = await startWithApp();
    const { items, failure } = await run(appContextFor(server, key, appId).context);
    expect(items).toEqual([]);
    expect(failure).toEqual(
      new ConnectorFailure(
        'credential_rejected',
        "Okta refused the service app's client assertion (invalid_client): the client ID is unknown, or the private key is not the one registered for the app.",
      ),
    );
    expect(Object.fromEntries(server.callsTo)).toEqual({ '/oauth2/v1/token': 1 });
    expect(server.violations).toEqual([]);
    expectNoKeyIn(failure);
  });

  it('fails as permission_missing naming the one scope the app was not granted', async () => {
    const server = await startWithApp({ grantedScopes: requestedScopes().filter((scope) => scope !== 'okta.roles.read') });
    const { items, failure } = await run(appContextFor(server, appKeys.pem).context);
    expect(items).toEqual([]);
    expect(failure).toEqual(
      new ConnectorFailure(
        'permission_missing',
        'Okta would not grant the service app the scope okta.roles.read: grant it under Okta API Scopes.',
        'okta.roles.read',
      ),
    );
    expect((failure as ConnectorFailure).permission).toBe('okta.roles.read');
    // The request for every scope, then one per scope to find the refused one.
    expect(Object.fromEntries(server.callsTo)).toEqual({ '/oauth2/v1/token': 1 + requestedScopes().length });
    expect(server.violations).toEqual([]);
    expectNoKeyIn(failure);
  });

  it("fails as permission_missing naming the scope when the app's admin role lacks the permission (403)", async () => {
    const server = await startWithApp({ withheldScope: 'okta.policies.read' });
    const { items, failure } = await run(appContextFor(server, appKeys.jwk).context);
    expect(items).toEqual([]);
    expect(failure).toEqual(
      new ConnectorFailure(
        'permission_missing',
        'Okta refused listing policies (403 E0000006): grant the scope okta.policies.read and the Read-Only Administrator role.',
        'okta.policies.read',
      ),
    );
    expectNoKeyIn(failure);
  });

  it('refuses a key the SDK cannot sign with, without quoting it', async () => {
    const server = await startWithApp();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const unreadable = appKeys.pem.replace(/[A-Za-z]{8}\n/, 'AAAA\n');
    expect((await run(appContextFor(server, ec).context)).failure).toEqual(
      new ConnectorFailure(
        'credential_rejected',
        'OKTA_CREDENTIAL holds a private key of type ec: the Okta SDK signs with RSA keys only.',
      ),
    );
    const broken = await run(appContextFor(server, unreadable).context);
    expect(broken.failure).toEqual(
      new ConnectorFailure('credential_rejected', 'OKTA_CREDENTIAL is not a readable private key (PEM, or a JWK as JSON).'),
    );
    expectNoKeyIn(broken.failure);
    expect(server.calls).toBe(0);
  });
});

describe('the Okta stand-in as an OAuth resource server', () => {
  it("answers 403 insufficient_scope, as Okta words it, to an access token without the operation's scope", async () => {
    const server = await startWithApp();
    const { Client } = await import('@okta/okta-sdk-nodejs');
    const client = new Client({
      orgUrl: server.url,
      authorizationMode: 'PrivateKey',
      clientId,
      scopes: ['okta.users.read'],
      privateKey: appKeys.pem,
    });
    const { access_token: accessToken, scope } = await client.oauth.getAccessToken();
    expect(scope).toBe('okta.users.read');
    const response = await fetch(`${server.url}/api/v1/policies?type=PASSWORD`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer authorization_uri="${server.url}/oauth2/v1/authorize", realm="${server.url}", scope="okta.policies.read", ` +
        'error="insufficient_scope", error_description="The access token provided does not contain the required scopes.", ' +
        'resource="/api/v1/policies"',
    );
    expect(await response.json()).toMatchObject({
      errorCode: 'E0000006',
      errorSummary: 'You do not have permission to perform the requested action',
    });
    const allowed = await fetch(`${server.url}/api/v1/users?limit=2`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(allowed.status).toBe(200);
    const unknown = await fetch(`${server.url}/api/v1/users?limit=2`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(unknown.status).toBe(401);
    expect(server.violations).toEqual([]);
  });

  it('refuses a client assertion for the wrong audience, expired, reused, or whose issuer is not its subject', async () => {
    const server = await startWithApp();
    const tokenUrl = `${server.url}/oauth2/v1/token`;
    const now = Math.floor(Date.now() / 1000);
    const signed = (claims: Record<string, unknown>) => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), appKeys.pem).toString('base64url')}`;
    };
    const claims = (extra: Record<string, unknown> = {}) => ({
      aud: tokenUrl,
      iss: clientId,
      sub: clientId,
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
      ...extra,
    });
    const ask = async (assertion: string) => {
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'okta.users.read',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const refused = (description: string) => ({ status: 401, body: { error: 'invalid_client', error_description: description } });
    expect(await ask(signed(claims({ aud: `${server.url}/oauth2/default/v1/token` })))).toEqual(
      refused('The audience claim for client_assertion must be the endpoint invoked for the request.'),
    );
    expect(await ask(signed(claims({ exp: now - 1 })))).toEqual(refused('The client_assertion token is expired.'));
    expect(await ask(signed(claims({ iss: 'someone-else' })))).toEqual(
      refused('The issuer and subject claims of the client_assertion must be the client_id.'),
    );
    const once = signed(claims());
    expect((await ask(once)).status).toBe(200);
    expect(await ask(once)).toEqual(refused('The client_assertion token has already been used.'));
    expect(server.violations).toEqual([]);

    const json = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(server.violations).toEqual(['POST /oauth2/v1/token sent application/json']);
  });
});
