/**
 * Collects Google Workspace accounts through the Admin SDK Directory API: users.list over the
 * whole customer, 500 users a page (the API's largest), following `nextPageToken` to the end and
 * yielding each page's users as it arrives. Pages are read one after another because each page's
 * token comes from the one before it.
 *
 * Credentials: the runtime's application default credentials, delegated to act as `adminEmail`
 * (delegated-credentials.ts). In tests and the emulators, `context.standIn` names a stand-in of
 * the Directory API and the token to show it; nothing then reaches Google.
 */
import { admin, auth } from '@googleapis/admin';
import { ConnectorFailure, type CollectContext, type CollectedItem, type Collector } from '../connector.js';
import { delegatedTokens } from './delegated-credentials.js';
import { directoryScopes } from './directory-access.js';
import { directoryFailure, retryOptions } from './directory-failures.js';
import { idpUserData, userFields } from './workspace-user.js';

/** The API's largest page for users.list (`maxResults` maximum in the discovery document). */
export const usersPageSize = 500;

/** Only what the mapping reads, so a page of 500 users stays small (a partial response). */
const fields = `nextPageToken,users(${userFields.join(',')})`;

const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

interface WorkspaceSettings {
  adminEmail: string;
  customer: string;
  serviceAccount: string | undefined;
}

function settingsOf(context: CollectContext): WorkspaceSettings {
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

/** An OAuth2 client whose tokens act as the administrator: delegated in a deployment, the stand-in's in tests. */
async function directoryAuth(context: CollectContext, settings: WorkspaceSettings) {
  const client = new auth.OAuth2();
  if (context.standIn) {
    client.setCredentials({ access_token: context.standIn.token });
    return client;
  }
  const runtime = new auth.GoogleAuth({ scopes: [cloudPlatformScope] });
  let serviceAccount = settings.serviceAccount;
  try {
    serviceAccount ??= (await runtime.getCredentials()).client_email;
    client.refreshHandler = delegatedTokens(await runtime.getClient(), {
      serviceAccount: serviceAccount ?? '',
      subject: settings.adminEmail,
      scopes: directoryScopes,
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
  return client;
}

async function* collectUsers(context: CollectContext): AsyncGenerator<CollectedItem> {
  const settings = settingsOf(context);
  const directory = admin({
    version: 'directory_v1',
    auth: await directoryAuth(context, settings),
    ...(context.standIn ? { rootUrl: context.standIn.endpoint } : {}),
  });
  const options = retryOptions(context.progress, context.signal);
  let pageToken: string | undefined;
  do {
    context.signal.throwIfAborted();
    const page = await directory.users
      .list(
        {
          customer: settings.customer,
          maxResults: usersPageSize,
          projection: 'basic',
          fields,
          ...(pageToken ? { pageToken } : {}),
        },
        options,
      )
      .catch((error: unknown) => {
        throw context.signal.aborted ? error : directoryFailure(error, settings);
      });
    const users = page.data.users ?? [];
    context.progress.called('users', users.length);
    const collectedAt = context.now();
    for (const user of users) {
      if (!user.primaryEmail) continue;
      yield {
        kind: 'idp.user',
        subject: user.primaryEmail,
        collectedAt: collectedAt.toISOString(),
        data: idpUserData(user, collectedAt),
      };
    }
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken);
}

export const collector: Collector = { collect: collectUsers };
