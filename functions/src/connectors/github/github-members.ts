/**
 * The organisation's members as `repo.member` items: who they are, whether they own the
 * organisation, and whether they have two-factor authentication. GitHub gives no member's 2FA
 * status on its own: an owner may list the members without it (`filter=2fa_disabled`), so that
 * listing is read first, then the owners and the other members (`role=admin`, `role=member`), so
 * each member's role comes from the listing it is in, three paged listings in all.
 */
import type { Octokit } from 'octokit';
import type { CollectContext, CollectedItem } from '../connector.js';
import { ConnectorFailure } from '../connector.js';
import { failureOf, messageOf, statusOf, type GitHubCall } from './github-failures.js';

type Client = InstanceType<typeof Octokit>;

const perPage = 100;
/** What GitHub answers (422) when the credential is not an owner's: the 2FA filter is theirs alone. */
const ownersOnly = /only owners/i;

function membersCall(org: string): GitHubCall {
  return { resource: `the members of ${org}`, permission: 'members=read', organization: org };
}

/** Maps a refusal of the members listings, the owners-only 2FA filter's above all. */
function membersFailure(error: unknown, org: string): ConnectorFailure {
  if (statusOf(error) === 422 && ownersOnly.test(messageOf(error))) {
    const permission = 'organization owner';
    return new ConnectorFailure(
      'permission_missing',
      `GitHub lists the members of ${org} without two-factor authentication only to the organisation's owners: the credential must be an owner's token or a GitHub App with the permission members=read.`,
      permission,
    );
  }
  return failureOf(error, membersCall(org));
}

async function* membersListed(
  octokit: Client,
  org: string,
  query: { filter?: '2fa_disabled'; role?: 'admin' | 'member' },
  context: CollectContext,
): AsyncGenerator<string[]> {
  const pages = octokit.paginate.iterator(octokit.rest.orgs.listMembers, { org, ...query, per_page: perPage });
  try {
    for await (const { data } of pages) {
      context.progress.called('members', data.length);
      yield data.map((member) => member.login);
    }
  } catch (error) {
    throw membersFailure(error, org);
  }
}

/** The logins of the members without two-factor authentication (held: they are the few to find). */
export async function membersWithoutTwoFactor(octokit: Client, org: string, context: CollectContext): Promise<Set<string>> {
  const logins = new Set<string>();
  for await (const page of membersListed(octokit, org, { filter: '2fa_disabled' }, context))
    for (const login of page) logins.add(login);
  return logins;
}

/** Every member's item, page by page: the owners first, then the other members. */
export async function* memberItems(
  octokit: Client,
  org: string,
  withoutTwoFactor: Promise<Set<string>>,
  context: CollectContext,
): AsyncGenerator<CollectedItem> {
  for (const role of ['admin', 'member'] as const) {
    for await (const page of membersListed(octokit, org, { role }, context)) {
      const without = await withoutTwoFactor;
      const collectedAt = context.now().toISOString();
      for (const login of page) {
        yield {
          kind: 'repo.member',
          subject: `${org}/${login}`,
          collectedAt,
          data: { login, admin: role === 'admin', mfaEnabled: !without.has(login) },
        };
      }
    }
  }
}
