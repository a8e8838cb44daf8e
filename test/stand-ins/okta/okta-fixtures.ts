/**
 * A deterministic Okta org of N users for the Okta stand-in, with the cases the tests name:
 * `person0` an administrator with a security key, `person1` who never signed in and has no factor,
 * `person2` suspended, `person3` a contractor, `person4` deprovisioned, `person5` with only a
 * security question, `person6` an administrator with push only. Everyone else follows a pattern
 * (push for most, a passkey for every 7th, nothing for every 3rd; an administrator every 500th).
 */
export const fixtureNow = new Date('2026-11-27T12:00:00.000Z');
const dayMs = 24 * 60 * 60 * 1000;

export type Json = Record<string, unknown>;

export interface OktaOrg {
  /** Sorted by id, as Okta pages them. */
  users: Json[];
  factors: Map<string, Json[]>;
  adminIds: string[];
  policies: Json[];
  rules: Map<string, Json[]>;
  apps: Json[];
}

export const userId = (index: number): string => `00u${String(index).padStart(17, '0')}`;
export const loginOf = (index: number): string => `person${index}@acme.example`;

const iso = (date: Date): string => date.toISOString();

function factor(userIndex: number, type: string, provider: string, profile: Json, status = 'ACTIVE'): Json {
  return {
    id: `${type === 'webauthn' ? 'fwf' : type === 'push' ? 'opf' : 'ufs'}${String(userIndex).padStart(17, '0')}`,
    factorType: type,
    provider,
    vendorName: provider,
    status,
    created: '2026-01-05T09:00:00.000Z',
    lastUpdated: '2026-01-05T09:00:00.000Z',
    profile,
  };
}
const push = (i: number) =>
  factor(i, 'push', 'OKTA', { deviceType: 'SmartPhone_IPhone', name: 'iPhone', platform: 'IOS', version: '17.2' });
const webauthn = (i: number) => factor(i, 'webauthn', 'FIDO', { authenticatorName: 'YubiKey 5 NFC', credentialId: `cred-${i}` });
const question = (i: number) =>
  factor(i, 'question', 'OKTA', {
    question: 'name_of_first_plush_toy',
    questionText: 'What is the name of your first stuffed animal?',
  });

function factorsOf(index: number): Json[] {
  switch (index) {
    case 0:
      return [webauthn(index), push(index)];
    case 1:
    case 4:
      return [];
    case 5:
      return [question(index)];
    case 2:
    case 3:
    case 6:
      return [push(index)];
    default:
      if (index % 7 === 0) return [webauthn(index)];
      return index % 3 === 0 ? [] : [push(index)];
  }
}

function statusOf(index: number): string {
  return index === 2 ? 'SUSPENDED' : index === 4 ? 'DEPROVISIONED' : 'ACTIVE';
}

function user(index: number): Json {
  const id = userId(index);
  const lastLogin = index === 1 ? null : iso(new Date(fixtureNow.getTime() - (index % 120) * dayMs - 3 * 60 * 60 * 1000));
  return {
    id,
    status: statusOf(index),
    created: '2025-03-01T08:00:00.000Z',
    activated: '2025-03-01T08:05:00.000Z',
    statusChanged: '2025-03-01T08:05:00.000Z',
    lastLogin,
    lastUpdated: '2026-10-01T10:00:00.000Z',
    passwordChanged: '2026-06-01T10:00:00.000Z',
    type: { id: 'oty1abcdefghijklmn0h7' },
    profile: {
      firstName: 'Person',
      lastName: String(index),
      email: loginOf(index),
      login: loginOf(index),
      ...(index === 3 ? { userType: 'Contractor' } : index % 10 === 8 ? { userType: 'Employee' } : {}),
    },
    _links: { self: { href: `https://acme.okta.com/api/v1/users/${id}` } },
  };
}

function passwordPolicy(id: string, name: string, status: string, minLength: number, maxAttempts: number, system: boolean): Json {
  return {
    id,
    type: 'PASSWORD',
    name,
    status,
    system,
    priority: system ? 2 : 1,
    created: '2025-03-01T08:00:00.000Z',
    lastUpdated: '2026-09-01T08:00:00.000Z',
    conditions: { people: { groups: { include: ['00g1everyone000000000'] } }, authProvider: { provider: 'OKTA' } },
    settings: {
      password: {
        complexity: { minLength, minLowerCase: 1, minUpperCase: 1, minNumber: 1, minSymbol: 0, excludeUsername: true },
        age: { maxAgeDays: 0, expireWarnDays: 0, minAgeMinutes: 0, historyCount: 4 },
        lockout: { maxAttempts, autoUnlockMinutes: 0, showLockoutFailures: false },
      },
    },
  };
}

function signOnRule(id: string, name: string, status: string, access: string, requireFactor: boolean, idle: number): Json {
  return {
    id,
    type: 'SIGN_ON',
    name,
    status,
    priority: 1,
    system: false,
    created: '2025-03-01T08:00:00.000Z',
    lastUpdated: '2026-09-01T08:00:00.000Z',
    actions: {
      signon: {
        access,
        requireFactor,
        ...(requireFactor ? { factorPromptMode: 'ALWAYS' } : {}),
        primaryFactor: 'PASSWORD_IDP_ANY_FACTOR',
        session: { maxSessionIdleMinutes: idle, maxSessionLifetimeMinutes: 0, usePersistentCookie: false },
      },
    },
  };
}

/** An app as Okta lists it, with what its sign-on mode's schema requires. */
function app(id: string, label: string, signOnMode: string, status = 'ACTIVE'): Json {
  const byMode: Record<string, Json> = {
    SAML_2_0: { name: 'githubcloud', settings: { app: {} } },
    OPENID_CONNECT: {
      name: 'oidc_client',
      settings: {
        oauthClient: {
          application_type: 'web',
          grant_types: ['authorization_code'],
          redirect_uris: ['https://evident.example/callback'],
        },
      },
      credentials: { oauthClient: { client_id: id, token_endpoint_auth_method: 'client_secret_basic' } },
    },
    BROWSER_PLUGIN: {
      name: 'template_swa',
      settings: {
        app: { url: 'https://payroll.example/login', usernameField: '#user', passwordField: '#pass', buttonField: '#go' },
      },
    },
  };
  return {
    id,
    label,
    signOnMode,
    status,
    created: '2025-05-01T08:00:00.000Z',
    lastUpdated: '2026-05-01T08:00:00.000Z',
    ...byMode[signOnMode],
  };
}

export interface OrgOptions {
  /** An active app signs people in with a stored password (SWA): the org does not enforce SSO. */
  passwordApp?: boolean;
}

/** The org's settings as the fixture builds them, and the `idp.settings` data they lead to. */
export const fixtureSettings = { mfaRequired: true, passwordMinLength: 10, sessionTimeoutMinutes: 120, lockoutThreshold: 10 };

export function buildOktaOrg(count: number, options: OrgOptions = {}): OktaOrg {
  const users = Array.from({ length: count }, (_, index) => user(index));
  const factors = new Map(users.map((each, index) => [each.id as string, factorsOf(index)]));
  const adminIds = Array.from({ length: count }, (_, index) => index)
    .filter((index) => index === 0 || index === 6 || (index > 0 && index % 500 === 0))
    .map(userId);
  const signOn = '00p1signon00000000000';
  const draft = '00p1signondraft000000';
  return {
    users,
    factors,
    adminIds,
    policies: [
      passwordPolicy('00p1password000000000', 'Default Policy', 'ACTIVE', 12, 10, true),
      passwordPolicy('00p1contractors000000', 'Contractors', 'ACTIVE', 10, 6, false),
      passwordPolicy('00p1legacy00000000000', 'Legacy', 'INACTIVE', 6, 0, false),
      { id: signOn, type: 'OKTA_SIGN_ON', name: 'Default Policy', status: 'ACTIVE', system: true, priority: 1 },
      { id: draft, type: 'OKTA_SIGN_ON', name: 'Draft', status: 'INACTIVE', system: false, priority: 2 },
    ],
    rules: new Map([
      [
        signOn,
        [
          signOnRule('0pr1office00000000000', 'Office network', 'ACTIVE', 'ALLOW', true, 60),
          signOnRule('0pr1block000000000000', 'Block legacy clients', 'ACTIVE', 'DENY', false, 120),
          signOnRule('0pr1old00000000000000', 'Old rule', 'INACTIVE', 'ALLOW', false, 1440),
          signOnRule('0pr1default0000000000', 'Default Rule', 'ACTIVE', 'ALLOW', true, 120),
        ],
      ],
      [draft, [signOnRule('0pr1draft000000000000', 'Draft rule', 'ACTIVE', 'ALLOW', false, 1440)]],
    ]),
    apps: [
      app('0oa1github00000000000', 'GitHub', 'SAML_2_0'),
      app('0oa1evident0000000000', 'Evident', 'OPENID_CONNECT'),
      app('0oa1payroll0000000000', 'Legacy payroll', 'BROWSER_PLUGIN', options.passwordApp === false ? 'INACTIVE' : 'ACTIVE'),
    ],
  };
}
