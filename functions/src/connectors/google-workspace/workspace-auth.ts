/**
 * The Google Workspace connector's settings and credentials: who it acts as, and the tokens that
 * act as them. The Directory API and the Cloud Identity Policy API come in two SDK packages, each
 * with its own OAuth2 client class; both clients draw on one token source, so a run exchanges
 * one delegation (carrying both scopes) however many clients use it.
 *
 * In a deployment the tokens are delegated (delegated-credentials.ts); in tests and the emulators
 * `context.standIn` hands over the stand-in's token and nothing reaches Google.
 */
import { auth } from '@googleapis/admin';
import { ConnectorFailure, type CollectContext } from '../connector.js';
import { delegatedTokens, type DelegatedToken } from './delegated-credentials.js';
import { workspaceScopes } from './directory-access.js';

const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

/** A delegated token is shared while it has this long to live; the SDKs refresh five minutes before expiry. */
const reuseMarginMs = 10 * 60_000;

export interface WorkspaceSettings {
  adminEmail: string;
  customer: string;
  serviceAccount: string | undefined;
}

export function settingsOf(context: CollectContext): WorkspaceSettings {
  const { adminEmail, customer, serviceAccount } = context.settings;
  if (typeof adminEmail !== 'string' || adminEmail === '') {
    throw new ConnectorFailure(
      'not_configured',
      'The setting "adminEmail" is required: the administrator the service account acts as.',
    );
  }
  return {
    adminEmail,
    customer: typeof customer === 'string' && customer !== '' ? customer : 'my_customer',
    serviceAccount: typeof serviceAccount === 'string' && serviceAccount !== '' ? serviceAccount : undefined,
  };
}

/** What both SDKs' OAuth2 clients offer (google-auth-library's OAuth2Client, of either version). */
export interface TokenClient {
  setCredentials(credentials: { access_token: string }): void;
  refreshHandler?: () => Promise<DelegatedToken>;
}

/** Gives an SDK's client the run's tokens, and returns it. */
export type Authorise = <Client extends TokenClient>(client: Client) => Client;

/** One token at a time for every client: a new delegation only when the last one is about to end. */
export function sharedTokens(refresh: () => Promise<DelegatedToken>, now: () => number = Date.now) {
  let current: Promise<DelegatedToken> | undefined;
  return async (): Promise<DelegatedToken> => {
    const held = current && (await current.catch(() => undefined));
    if (held && held.expiry_date - now() > reuseMarginMs) return held;
    current = refresh();
    return current;
  };
}

/** How the run's clients act as the administrator: delegated in a deployment, the stand-in's token in tests. */
export async function workspaceAuth(context: CollectContext, settings: WorkspaceSettings): Promise<Authorise> {
  if (context.standIn) {
    const token = context.standIn.token;
    return (client) => (client.setCredentials({ access_token: token }), client);
  }
  const runtime = new auth.GoogleAuth({ scopes: [cloudPlatformScope] });
  let serviceAccount = settings.serviceAccount;
  let refresh: () => Promise<DelegatedToken>;
  try {
    serviceAccount ??= (await runtime.getCredentials()).client_email;
    refresh = delegatedTokens(await runtime.getClient(), {
      serviceAccount: serviceAccount ?? '',
      subject: settings.adminEmail,
      scopes: workspaceScopes,
    });
  } catch {
    throw new ConnectorFailure(
      'not_configured',
      'No application default credentials of a service account were found to delegate.',
    );
  }
  if (!serviceAccount) {
    throw new ConnectorFailure('not_configured', 'The runtime credentials name no service account: set "serviceAccount".');
  }
  const tokens = sharedTokens(refresh);
  return (client) => {
    client.refreshHandler = tokens;
    return client;
  };
}
