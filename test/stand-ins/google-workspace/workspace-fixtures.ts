/**
 * The stand-in's Workspace: user `index` of a customer, built from its index alone, so a page
 * is built when it is asked for and any test can say what a given user looks like. Every fifth
 * user is not enrolled in 2-step verification, every thirtieth never signed in, every fortieth
 * is suspended, every seventh a contractor; one in a hundred is a super administrator and one
 * in a hundred a delegated administrator.
 */
import type { admin_directory_v1 } from '@googleapis/admin';

export const fixtureCustomerId = 'C03az79cb';
export const fixtureDomain = 'example.com';
/** The Directory API's way of saying "never signed in". */
export const neverSignedIn = '1970-01-01T00:00:00.000Z';

const dayMs = 86_400_000;
const created = Date.parse('2024-01-01T09:00:00.000Z');

export function emailOf(index: number): string {
  return `user${String(index).padStart(5, '0')}@${fixtureDomain}`;
}

/** The user at `index` as users.list answers it with `projection=full`, signed in relative to `now`. */
export function workspaceUser(index: number, now: Date): admin_directory_v1.Schema$User {
  const email = emailOf(index);
  const givenName = `User${index}`;
  return {
    kind: 'admin#directory#user',
    id: String(100_000_000_000_000_000_000n + BigInt(index)),
    etag: `"etag-${index}"`,
    primaryEmail: email,
    name: { givenName, familyName: 'Example', fullName: `${givenName} Example` },
    isAdmin: index % 100 === 0,
    isDelegatedAdmin: index % 100 === 50,
    lastLoginTime: index % 30 === 29 ? neverSignedIn : new Date(now.getTime() - (index % 90) * dayMs - 3_600_000).toISOString(),
    creationTime: new Date(created + index * 60_000).toISOString(),
    agreedToTerms: index % 30 !== 29,
    suspended: index % 40 === 39,
    archived: false,
    changePasswordAtNextLogin: false,
    ipWhitelisted: false,
    emails: [{ address: email, primary: true }],
    organizations: [
      {
        name: 'Example Ltd',
        primary: true,
        type: 'work',
        department: 'Engineering',
        description: index % 7 === 6 ? 'Contractor' : 'Employee',
      },
    ],
    customerId: fixtureCustomerId,
    orgUnitPath: '/',
    isMailboxSetup: true,
    isEnrolledIn2Sv: index % 5 !== 4,
    isEnforcedIn2Sv: index % 10 < 5,
    includeInGlobalAddressList: true,
    customSchemas: { Employment: { startDate: '2024-01-01' } },
  };
}
