/**
 * The Google Workspace connector against the stand-in of the Directory and Cloud Identity Policy
 * APIs, through the real `@googleapis/admin` and `@googleapis/cloudidentity` SDKs: the tenant's
 * settings from its policies (the weakest one deciding), every user once, pages to the end, a rate
 * limit waited out, a 500 halfway, a revoked token, a missing scope and an unknown customer — and
 * every request and answer as Google's discovery documents describe them.
 */
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectorFailure, type CollectContext, type CollectedItem } from '../../../functions/src/connectors/connector.ts';
import { collector, policiesFilter } from '../../../functions/src/connectors/google-workspace/collect-google-workspace.ts';
import {
  directoryUserReadScope,
  policiesReadScope,
} from '../../../functions/src/connectors/google-workspace/directory-access.ts';
import { googleWorkspaceConnector } from '../../../functions/src/connectors/google-workspace/google-workspace-connector.ts';
import { schemaValidator } from '../../stand-ins/google-workspace/discovery.ts';
import {
  directoryDiscovery,
  startDirectoryStandIn,
  type DirectoryStandIn,
  type DirectoryStandInOptions,
} from '../../stand-ins/google-workspace/directory-stand-in.ts';
import { cloudIdentityDiscovery } from '../../stand-ins/google-workspace/policy-stand-in.ts';
import { emailOf, fixtureCustomerId, workspaceUser } from '../../stand-ins/google-workspace/workspace-fixtures.ts';
import { workspacePolicies } from '../../stand-ins/google-workspace/workspace-policies.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validIdpUser = ajv.compile(evidenceKinds['idp.user'].data);
const validIdpSettings = ajv.compile(evidenceKinds['idp.settings'].data);

let standIn: DirectoryStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function directory(options: Omit<DirectoryStandInOptions, 'now'>): Promise<DirectoryStandIn> {
  standIn = await startDirectoryStandIn({ ...options, now });
  return standIn;
}

function contextFor(target: DirectoryStandIn, settings: CollectContext['settings'] = { adminEmail: 'admin@example.com' }) {
  const called: [string, number][] = [];
  const rateLimited: number[] = [];
  const context: CollectContext = {
    settings,
    secrets: {},
    signal: new AbortController().signal,
    progress: {
      called: (resource, entries) => called.push([resource, entries]),
      rateLimited: (seconds) => rateLimited.push(seconds),
    },
    now: () => now,
    standIn: { endpoint: target.endpoint, token: target.token },
  };
  return { context, called, rateLimited };
}

const users = (items: CollectedItem[]) => items.filter((item) => item.kind === 'idp.user');
const settingsOf = (items: CollectedItem[]) => items.filter((item) => item.kind === 'idp.settings');

/** Every item the collector yields, and the failure that ended it if any. */
async function collected(context: CollectContext): Promise<{ items: CollectedItem[]; failure?: unknown }> {
  const items: CollectedItem[] = [];
  try {
    for await (const item of collector.collect(context)) items.push(item);
    return { items };
  } catch (failure) {
    return { items, failure };
  }
}

describe('Google Workspace connector', () => {
  it('yields every user once as idp.user, following nextPageToken through pages of 500', async () => {
    const target = await directory({ users: 1_234 });
    const { context, called } = contextFor(target);
    const { items, failure } = await collected(context);

    expect(failure).toBeUndefined();
    expect(users(items).map((item) => item.subject)).toEqual(Array.from({ length: 1_234 }, (_, index) => emailOf(index)));
    expect(new Set(users(items).map((item) => item.subject)).size).toBe(1_234);
    // One page of policies, then three of users.
    expect(target.calls).toBe(4);
    expect(target.policyCalls).toBe(1);
    expect(called).toEqual([
      ['security policies', 5],
      ['users', 500],
      ['users', 500],
      ['users', 234],
    ]);
    expect(
      target.queries.map((query) => [
        query.get('customer'),
        query.get('maxResults'),
        query.get('projection'),
        query.has('pageToken'),
      ]),
    ).toEqual([
      ['my_customer', '500', 'basic', false],
      ['my_customer', '500', 'basic', true],
      ['my_customer', '500', 'basic', true],
    ]);
    expect(target.violations).toEqual([]);
    expect(items.map((item) => item.kind)).toEqual(['idp.settings', ...Array<string>(1_234).fill('idp.user')]);
    expect(items.every((item) => item.collectedAt === now.toISOString())).toBe(true);
    expect(users(items).filter((item) => !validIdpUser(item.data))).toEqual([]);
  });

  it('maps 2-step verification, administrators, suspension, sign-ins and contractors from the API', async () => {
    const target = await directory({ users: 60 });
    const { items } = await collected(contextFor(target).context);
    const data = (index: number) => items.find((item) => item.subject === emailOf(index))?.data;

    expect(data(0)).toEqual({
      email: 'user00000@example.com',
      active: true,
      mfaEnabled: true,
      mfaEnforced: true,
      admin: true,
      lastLoginDaysAgo: 0,
      employmentStatus: 'active',
      suspended: false,
      archived: false,
      createdAt: '2024-01-01T09:00:00.000Z',
    });
    // Never signed in (the API's epoch), not enrolled nor enforced.
    expect(data(29)).toEqual({
      email: 'user00029@example.com',
      active: true,
      mfaEnabled: false,
      mfaEnforced: false,
      admin: false,
      employmentStatus: 'active',
      suspended: false,
      archived: false,
      createdAt: '2024-01-01T09:29:00.000Z',
    });
    expect(data(39)).toMatchObject({
      active: false,
      employmentStatus: 'leaver',
      suspended: true,
      lastLoginDaysAgo: 39,
      mfaEnabled: false,
    });
    expect(data(6)).toMatchObject({ active: true, employmentStatus: 'contractor', lastLoginDaysAgo: 6 });
    expect(data(50)).toMatchObject({ admin: true, employmentStatus: 'active' });
    expect(items.some((item) => 'phishingResistantMfa' in item.data)).toBe(false);
  });

  it('reads the customer the settings name', async () => {
    const target = await directory({ users: 3 });
    const { items } = await collected(
      contextFor(target, { adminEmail: 'admin@example.com', customer: fixtureCustomerId }).context,
    );

    expect(items.map((item) => item.subject)).toEqual([fixtureCustomerId, emailOf(0), emailOf(1), emailOf(2)]);
    expect(target.queries.map((query) => query.get('customer'))).toEqual([fixtureCustomerId]);
    expect(target.policyQueries.map((query) => query.get('filter'))).toEqual([policiesFilter(fixtureCustomerId)]);
  });

  it('waits out a 429 for as long as Retry-After says, then collects every user', async () => {
    // Call 2 is the first page of users (call 1 the policies).
    const target = await directory({ users: 1_000, faults: { rateLimitAtCall: 2 } });
    const { context, rateLimited } = contextFor(target);
    const { items, failure } = await collected(context);

    expect(failure).toBeUndefined();
    expect(rateLimited).toEqual([1]);
    expect(new Set(users(items).map((item) => item.subject)).size).toBe(1_000);
    expect(users(items)).toHaveLength(1_000);
    expect(settingsOf(items)).toHaveLength(1);
    expect(target.calls).toBe(4);
  });

  it('fails vendor_unavailable on a 500 that outlasts the retries, after yielding the pages before it', async () => {
    const target = await directory({ users: 1_500, faults: { failFromCall: 4 } });
    const { items, failure } = await collected(contextFor(target).context);

    expect(items.map((item) => item.subject)).toEqual([
      fixtureCustomerId,
      ...Array.from({ length: 1_000 }, (_, index) => emailOf(index)),
    ]);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('vendor_unavailable');
    // The policies, two pages of users, then the failing call and its three retries.
    expect(target.calls).toBe(7);
  });

  it('fails credential_rejected on a revoked token, without naming the token', async () => {
    const target = await directory({ users: 10, faults: { revoked: true } });
    const { items, failure } = await collected(contextFor(target).context);

    expect(items).toEqual([]);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('credential_rejected');
    expect((failure as ConnectorFailure).message).not.toContain(target.token);
    expect(target.calls).toBe(1);
  });

  it('fails permission_missing naming the scope when the delegation lacks it', async () => {
    const target = await directory({ users: 10, faults: { missingScope: directoryUserReadScope } });
    const { failure } = await collected(contextFor(target).context);

    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('permission_missing');
    expect((failure as ConnectorFailure).permission).toBe(directoryUserReadScope);
    expect((failure as ConnectorFailure).message).not.toContain(target.token);
  });

  it('fails permission_missing naming the policies scope when the delegation lacks it, before any user', async () => {
    const target = await directory({ users: 10, faults: { missingScope: policiesReadScope } });
    const { items, failure } = await collected(contextFor(target).context);

    expect(items).toEqual([]);
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('permission_missing');
    expect((failure as ConnectorFailure).permission).toBe(policiesReadScope);
    expect((failure as ConnectorFailure).message).toContain(policiesReadScope);
    expect(target.calls).toBe(1);
  });

  it('fails not_found for a customer Google does not know', async () => {
    const target = await directory({ users: 10 });
    const { failure } = await collected(contextFor(target, { adminEmail: 'admin@example.com', customer: 'C0nothing' }).context);

    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('not_found');
    expect((failure as ConnectorFailure).message).not.toContain(target.token);
  });

  it('fails not_configured without an administrator, before any call', async () => {
    const target = await directory({ users: 10 });
    const { failure } = await collected(contextFor(target, {}).context);

    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('not_configured');
    expect(target.calls).toBe(0);
  });

  it('declares the kinds it yields, its settings and the scopes it needs', async () => {
    expect(googleWorkspaceConnector.kinds).toEqual(['idp.settings', 'idp.user']);
    expect(googleWorkspaceConnector.settings.map((setting) => [setting.name, setting.required])).toEqual([
      ['adminEmail', true],
      ['customer', false],
      ['serviceAccount', false],
    ]);
    expect(googleWorkspaceConnector.permissions.some((permission) => permission.includes(directoryUserReadScope))).toBe(true);
    expect(googleWorkspaceConnector.permissions.some((permission) => permission.includes(policiesReadScope))).toBe(true);
    expect(googleWorkspaceConnector.permissions.some((permission) => permission.includes('cloudidentity.googleapis.com'))).toBe(
      true,
    );
    expect(await googleWorkspaceConnector.load()).toBe(collector);
  });
});

describe('Google Workspace settings (idp.settings)', () => {
  it('sends one item for the customer, from its top-level security policies', async () => {
    const target = await directory({ users: 2 });
    const { items, failure } = await collected(contextFor(target).context);
    const settings = settingsOf(items);

    expect(failure).toBeUndefined();
    expect(settings).toEqual([
      {
        kind: 'idp.settings',
        subject: fixtureCustomerId,
        collectedAt: now.toISOString(),
        data: { mfaRequired: true, passwordMinLength: 12, sessionTimeoutMinutes: 720, ssoEnforced: true, lockoutThreshold: 0 },
      },
    ]);
    expect(validIdpSettings(settings[0]!.data), ajv.errorsText(validIdpSettings.errors)).toBe(true);
    expect(target.policyQueries.map((query) => Object.fromEntries(query))).toEqual([
      {
        filter: `customer == "customers/my_customer" && setting.type.matches('^settings/security\\\\..*$')`,
        pageSize: '100',
        fields: 'nextPageToken,policies(customer,setting)',
      },
    ]);
    expect(target.violations).toEqual([]);
  });

  it('takes the weakest policy of each setting, an org unit that relaxes the top level included', async () => {
    const target = await directory({ users: 2, policies: workspacePolicies({ relaxedOrgUnit: true }) });
    const { items } = await collected(contextFor(target).context);

    // /Contractors: 2-step verification only announced for 2099, 8 characters, 24-hour sessions, less secure apps on.
    expect(settingsOf(items).map((item) => item.data)).toEqual([
      { mfaRequired: false, passwordMinLength: 8, sessionTimeoutMinutes: 1_440, ssoEnforced: false, lockoutThreshold: 0 },
    ]);
    expect(settingsOf(items).every((item) => validIdpSettings(item.data))).toBe(true);
  });

  it("assumes Google's defaults where no policy sets a value, and names the tenant by the customer setting", async () => {
    const target = await directory({ users: 1, policies: [] });
    const { items } = await collected(contextFor(target).context);

    expect(settingsOf(items)).toEqual([
      {
        kind: 'idp.settings',
        subject: 'my_customer',
        collectedAt: now.toISOString(),
        data: { mfaRequired: false, passwordMinLength: 8, sessionTimeoutMinutes: 20_160, ssoEnforced: true, lockoutThreshold: 0 },
      },
    ]);
  });

  it('follows nextPageToken through every page of policies, 100 a page', async () => {
    // 5 security policies at the top level and 230 org units with a login-challenge policy each.
    const target = await directory({ users: 1, policies: workspacePolicies({ relaxedOrgUnit: true, extraOrgUnits: 230 }) });
    const { context, called } = contextFor(target);
    const { items, failure } = await collected(context);

    expect(failure).toBeUndefined();
    expect(target.policyCalls).toBe(3);
    expect(target.calls).toBe(4);
    expect(called).toEqual([
      ['security policies', 100],
      ['security policies', 100],
      ['security policies', 39],
      ['users', 1],
    ]);
    expect(target.policyQueries.map((query) => [query.get('pageSize'), query.has('pageToken')])).toEqual([
      ['100', false],
      ['100', true],
      ['100', true],
    ]);
    // The relaxed org unit's policies sit on the first page, the weakest still decides.
    expect(settingsOf(items).map((item) => item.data.mfaRequired)).toEqual([false]);
    expect(target.violations).toEqual([]);
  });
});

describe('Cloud Identity Policy API stand-in', () => {
  it('refuses and records a filter the API does not allow, and a page size it does not declare', async () => {
    const target = await directory({ users: 1 });
    const query = new URLSearchParams({ filter: 'setting.value.enabled == true', pageSize: 'ten' });
    const response = await fetch(`${target.endpoint}v1/policies?${query}`, {
      headers: { authorization: `Bearer ${target.token}` },
    });

    expect(response.status).toBe(400);
    expect(target.violations).toEqual([
      'policies.list: pageSize=ten is not an integer',
      'policies.list: filter clause not allowed: setting.value.enabled == true',
    ]);
  });

  it('serves policies that are Policy resources of the discovery document', () => {
    const validPolicy = schemaValidator(cloudIdentityDiscovery, 'Policy');
    const policies = workspacePolicies({ relaxedOrgUnit: true, extraOrgUnits: 3 });

    expect(policies).toHaveLength(13);
    expect(policies.filter((policy) => !validPolicy(policy))).toEqual([]);
  });
});

describe('Directory API stand-in', () => {
  it('refuses and records a request its discovery document does not allow', async () => {
    const target = await directory({ users: 10 });
    const response = await fetch(`${target.endpoint}admin/directory/v1/users?customer=my_customer&maxResults=501&colour=blue`, {
      headers: { authorization: `Bearer ${target.token}` },
    });

    expect(response.status).toBe(400);
    expect(target.violations).toEqual(['request: maxResults=501 is above 500', 'request: undeclared query parameter colour']);
  });
});

describe('Workspace fixtures', () => {
  it('are User resources of the discovery document, their organizations UserOrganization entries', () => {
    const validUser = schemaValidator(directoryDiscovery, 'User');
    const validOrganization = schemaValidator(directoryDiscovery, 'UserOrganization');
    const users = Array.from({ length: 200 }, (_, index) => workspaceUser(index, now));

    expect(users.filter((user) => !validUser(user))).toEqual([]);
    expect(
      users.flatMap((user) => user.organizations as unknown[]).filter((organization) => !validOrganization(organization)),
    ).toEqual([]);
  });
});
