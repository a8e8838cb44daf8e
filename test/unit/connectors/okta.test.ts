/**
 * The Okta connector against the Okta stand-in (test/stand-ins/okta), through @okta/okta-sdk-nodejs:
 * every user once with exact data, the Link-header pages followed to the end, a 429 waited out,
 * a 500 halfway, a revoked token, a withheld scope, and no secret in any failure.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { ConnectorFailure, type CollectContext, type CollectedItem } from '../../../functions/src/connectors/connector.ts';
import { collector } from '../../../functions/src/connectors/okta/collect-okta.ts';
import { oktaConnector } from '../../../functions/src/connectors/okta/okta-connector.ts';
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
