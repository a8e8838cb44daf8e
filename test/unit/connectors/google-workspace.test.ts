/**
 * The Google Workspace connector against the Directory API stand-in, through the real
 * `@googleapis/admin` SDK: every user once, pages to the end, a rate limit waited out, a 500
 * halfway, a revoked token, a missing scope and an unknown customer — and every request and
 * answer as Google's discovery document describes them.
 */
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectorFailure, type CollectContext, type CollectedItem } from '../../../functions/src/connectors/connector.ts';
import { collector } from '../../../functions/src/connectors/google-workspace/collect-google-workspace.ts';
import { directoryUserReadScope } from '../../../functions/src/connectors/google-workspace/directory-access.ts';
import { googleWorkspaceConnector } from '../../../functions/src/connectors/google-workspace/google-workspace-connector.ts';
import { schemaValidator } from '../../stand-ins/google-workspace/discovery.ts';
import {
  directoryDiscovery,
  startDirectoryStandIn,
  type DirectoryStandIn,
  type DirectoryStandInOptions,
} from '../../stand-ins/google-workspace/directory-stand-in.ts';
import { emailOf, fixtureCustomerId, workspaceUser } from '../../stand-ins/google-workspace/workspace-fixtures.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validIdpUser = ajv.compile(evidenceKinds['idp.user'].data);

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
    expect(items.map((item) => item.subject)).toEqual(Array.from({ length: 1_234 }, (_, index) => emailOf(index)));
    expect(new Set(items.map((item) => item.subject)).size).toBe(1_234);
    expect(target.calls).toBe(3);
    expect(called).toEqual([
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
    expect(items.every((item) => item.kind === 'idp.user' && item.collectedAt === now.toISOString())).toBe(true);
    expect(items.filter((item) => !validIdpUser(item.data))).toEqual([]);
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

    expect(items.map((item) => item.subject)).toEqual([emailOf(0), emailOf(1), emailOf(2)]);
    expect(target.queries.map((query) => query.get('customer'))).toEqual([fixtureCustomerId]);
  });

  it('waits out a 429 for as long as Retry-After says, then collects every user', async () => {
    const target = await directory({ users: 1_000, faults: { rateLimitAtCall: 2 } });
    const { context, rateLimited } = contextFor(target);
    const { items, failure } = await collected(context);

    expect(failure).toBeUndefined();
    expect(rateLimited).toEqual([1]);
    expect(new Set(items.map((item) => item.subject)).size).toBe(1_000);
    expect(items).toHaveLength(1_000);
    expect(target.calls).toBe(3);
  });

  it('fails vendor_unavailable on a 500 that outlasts the retries, after yielding the pages before it', async () => {
    const target = await directory({ users: 1_500, faults: { failFromCall: 3 } });
    const { items, failure } = await collected(contextFor(target).context);

    expect(items.map((item) => item.subject)).toEqual(Array.from({ length: 1_000 }, (_, index) => emailOf(index)));
    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('vendor_unavailable');
    // Two pages, then the failing call and its three retries.
    expect(target.calls).toBe(6);
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
    const target = await directory({ users: 10, faults: { missingScope: true } });
    const { failure } = await collected(contextFor(target).context);

    expect(failure).toBeInstanceOf(ConnectorFailure);
    expect((failure as ConnectorFailure).reason).toBe('permission_missing');
    expect((failure as ConnectorFailure).permission).toBe(directoryUserReadScope);
    expect((failure as ConnectorFailure).message).not.toContain(target.token);
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

  it('declares the kind it yields, its settings and the scope it needs', async () => {
    expect(googleWorkspaceConnector.kinds).toEqual(['idp.user']);
    expect(googleWorkspaceConnector.settings.map((setting) => [setting.name, setting.required])).toEqual([
      ['adminEmail', true],
      ['customer', false],
      ['serviceAccount', false],
    ]);
    expect(googleWorkspaceConnector.permissions.some((permission) => permission.includes(directoryUserReadScope))).toBe(true);
    expect(await googleWorkspaceConnector.load()).toBe(collector);
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
