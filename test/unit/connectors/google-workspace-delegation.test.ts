/**
 * Keyless domain-wide delegation against stand-ins of IAM Credentials `signJwt` and Google's
 * token endpoint: the assertion's claims, the token it buys, the SDK using it on the Directory
 * API stand-in, and the failures an administrator can act on.
 */
import { admin, auth } from '@googleapis/admin';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectorFailure } from '../../../functions/src/connectors/connector.ts';
import { delegatedTokens, type Delegation } from '../../../functions/src/connectors/google-workspace/delegated-credentials.ts';
import {
  directoryUserReadScope,
  tokenCreatorRole,
  workspaceScopes,
} from '../../../functions/src/connectors/google-workspace/directory-access.ts';
import { sharedTokens } from '../../../functions/src/connectors/google-workspace/workspace-auth.ts';
import {
  startDelegationStandIn,
  type DelegationStandIn,
  type DelegationStandInOptions,
} from '../../stand-ins/google-workspace/delegation-stand-in.ts';
import { startDirectoryStandIn, type DirectoryStandIn } from '../../stand-ins/google-workspace/directory-stand-in.ts';

const serviceAccount = 'evident@demo-project.iam.gserviceaccount.com';
const runtimeToken = 'runtime-access-token';
const delegatedToken = 'delegated-access-token';
const nowMs = Date.parse('2026-11-20T12:00:00.000Z');
const delegation: Delegation = { serviceAccount, subject: 'admin@example.com', scopes: workspaceScopes };

const running: (DelegationStandIn | DirectoryStandIn)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function google(options: Partial<DelegationStandInOptions> = {}) {
  const stand = await startDelegationStandIn({
    serviceAccount,
    runtimeToken,
    delegatedScopes: workspaceScopes,
    accessToken: delegatedToken,
    ...options,
  });
  running.push(stand);
  const runtime = new auth.OAuth2();
  runtime.setCredentials({ access_token: runtimeToken });
  return { stand, refresh: delegatedTokens(runtime, delegation, stand, () => nowMs) };
}

async function failureOf(promise: Promise<unknown>): Promise<ConnectorFailure> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ConnectorFailure);
  return failure as ConnectorFailure;
}

describe('keyless domain-wide delegation', () => {
  it('signs an assertion as the service account for the administrator and exchanges it for a token', async () => {
    const { stand, refresh } = await google();

    expect(await refresh()).toEqual({ access_token: delegatedToken, expiry_date: nowMs + 3_599_000 });
    expect(stand.exchanged).toEqual([
      {
        iss: serviceAccount,
        sub: 'admin@example.com',
        scope: workspaceScopes.join(' '),
        aud: stand.token,
        iat: nowMs / 1000,
        exp: nowMs / 1000 + 3600,
      },
    ]);
  });

  it('gives the SDK a token the Directory API accepts', async () => {
    const { refresh } = await google();
    const directory = await startDirectoryStandIn({ users: 7, now: new Date(nowMs), token: delegatedToken });
    running.push(directory);
    const client = new auth.OAuth2();
    client.refreshHandler = refresh;

    const page = await admin({ version: 'directory_v1', auth: client, rootUrl: directory.endpoint }).users.list({
      customer: 'my_customer',
    });

    expect(page.data.users).toHaveLength(7);
    expect(directory.violations).toEqual([]);
  });

  it('fails permission_missing naming the token creator role when the service account may not sign', async () => {
    const { refresh } = await google({ tokenCreator: false });
    const failure = await failureOf(refresh());

    expect(failure.reason).toBe('permission_missing');
    expect(failure.permission).toBe(`${tokenCreatorRole} on ${serviceAccount}`);
  });

  it('fails permission_missing naming the scope when the Admin console does not delegate it', async () => {
    const { refresh } = await google({ delegatedScopes: [] });
    const failure = await failureOf(refresh());

    expect(failure.reason).toBe('permission_missing');
    expect(failure.permission).toBe(`domain-wide delegation of ${workspaceScopes.join(',')}`);
    expect(failure.message).not.toContain(runtimeToken);
  });

  it('fails permission_missing naming both scopes when the Admin console delegates the Directory scope alone', async () => {
    const { stand, refresh } = await google({ delegatedScopes: [directoryUserReadScope] });
    const failure = await failureOf(refresh());

    expect(failure.reason).toBe('permission_missing');
    expect(failure.permission).toBe(
      'domain-wide delegation of https://www.googleapis.com/auth/admin.directory.user.readonly,https://www.googleapis.com/auth/cloud-identity.policies.readonly',
    );
    expect(stand.exchanged.map((claims) => claims.scope)).toEqual([workspaceScopes.join(' ')]);
  });

  it('exchanges one delegation for both SDK clients while its token lives', async () => {
    const { stand, refresh } = await google();
    const tokens = sharedTokens(refresh, () => nowMs);

    expect([await tokens(), await tokens()]).toEqual([
      { access_token: delegatedToken, expiry_date: nowMs + 3_599_000 },
      { access_token: delegatedToken, expiry_date: nowMs + 3_599_000 },
    ]);
    expect(stand.exchanged).toHaveLength(1);
  });
});
