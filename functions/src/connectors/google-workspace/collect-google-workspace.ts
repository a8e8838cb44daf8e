/**
 * Collects a Google Workspace customer: first its security policies through the Cloud Identity
 * Policy API (policies.list, `settings/security.*` of the customer, 100 a page, the API's
 * largest) as one `idp.settings` item (workspace-settings.ts), then its accounts through the
 * Admin SDK Directory API (users.list, 500 a page, the API's largest), yielding each page's users
 * as it arrives. Both listings follow `nextPageToken` to the end, one page after another because
 * each page's token comes from the one before it.
 *
 * Credentials: the runtime's application default credentials, delegated to act as `adminEmail`
 * (delegated-credentials.ts); one token carries both scopes. In tests and the emulators,
 * `context.standIn` names a stand-in of both APIs and the token to show it; nothing then reaches
 * Google.
 */
import { admin, auth as adminAuth } from '@googleapis/admin';
import { cloudidentity, auth as cloudIdentityAuth, type MethodOptions } from '@googleapis/cloudidentity';
import type { CollectContext, CollectedItem, Collector } from '../connector.js';
import { calls, retryOptions, workspaceFailure } from './directory-failures.js';
import { settingsOf, workspaceAuth, type Authorise, type WorkspaceSettings } from './workspace-auth.js';
import { customerIdOf, settingsItem, type WorkspacePolicy } from './workspace-settings.js';
import { idpUserData, userFields } from './workspace-user.js';

/** The API's largest page for users.list (`maxResults` maximum in the discovery document). */
export const usersPageSize = 500;

/** The API's largest page for policies.list (`pageSize`: "The maximum allowed value is 100"). */
export const policiesPageSize = 100;

/** Only what the mapping reads, so a page of 500 users stays small (a partial response). */
const fields = `nextPageToken,users(${userFields.join(',')})`;
const policyFields = 'nextPageToken,policies(customer,setting)';

/**
 * The customer's security settings: the API's filter allows one customer clause and one
 * `setting.type` clause joined by `&&`; the regular expression is RE2 inside a CEL string, where
 * `\\.` is an escaped backslash before the dot.
 */
export function policiesFilter(customer: string): string {
  return `customer == "customers/${customer}" && setting.type.matches('^settings/security\\\\..*$')`;
}

/** Every security policy of the customer, page by page. */
async function readPolicies(
  context: CollectContext,
  settings: WorkspaceSettings,
  authorise: Authorise,
): Promise<WorkspacePolicy[]> {
  const identity = cloudidentity({
    version: 'v1',
    auth: authorise(new cloudIdentityAuth.OAuth2()),
    ...(context.standIn ? { rootUrl: context.standIn.endpoint } : {}),
  });
  // The same retries as the Directory calls; the two SDKs type their options apart, alike in shape.
  const options = retryOptions(context.progress, context.signal) as MethodOptions;
  const policies: WorkspacePolicy[] = [];
  let pageToken: string | undefined;
  do {
    context.signal.throwIfAborted();
    const page = await identity.policies
      .list(
        {
          filter: policiesFilter(settings.customer),
          pageSize: policiesPageSize,
          fields: policyFields,
          ...(pageToken ? { pageToken } : {}),
        },
        options,
      )
      .catch((error: unknown) => {
        throw context.signal.aborted ? error : workspaceFailure(error, calls.policies, settings);
      });
    context.progress.called('security policies', page.data.policies?.length ?? 0);
    policies.push(...(page.data.policies ?? []));
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken);
  return policies;
}

async function* collectUsers(
  context: CollectContext,
  settings: WorkspaceSettings,
  authorise: Authorise,
): AsyncGenerator<CollectedItem> {
  const directory = admin({
    version: 'directory_v1',
    auth: authorise(new adminAuth.OAuth2()),
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
        throw context.signal.aborted ? error : workspaceFailure(error, calls.users, settings);
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

/**
 * The tenant's settings first, then its people. The settings item's subject is the customer ID
 * the policies name (the `C…` ID Google gives `my_customer`), else the `customer` setting.
 */
async function* collectWorkspace(context: CollectContext): AsyncGenerator<CollectedItem> {
  const settings = settingsOf(context);
  const authorise = await workspaceAuth(context, settings);
  const policies = await readPolicies(context, settings, authorise);
  yield settingsItem(customerIdOf(policies) ?? settings.customer, policies, context.now());
  yield* collectUsers(context, settings, authorise);
}

export const collector: Collector = { collect: collectWorkspace };
