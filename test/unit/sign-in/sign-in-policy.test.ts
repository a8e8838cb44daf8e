/**
 * The sign-in policy: which accounts the identity project may issue a token to. Every refusal
 * reason, the domain matching rules and the verification rule, decided on plain attempts.
 */
import { describe, expect, it } from 'vitest';
import { attemptOf, decideSignIn, type SignInSettings } from '../../../functions/src/sign-in/sign-in-policy.ts';

const organisation: SignInSettings = { allowedDomains: ['example.com'], allowedEmails: [], trustPasswordAccounts: false };
const google = (email: string | undefined, emailVerified = true) => ({ email, emailVerified, providerId: 'google.com' });
const password = (email: string) => ({ email, emailVerified: false, providerId: 'password' });
const notAllowed = (email: string) => ({ allowed: false, reason: 'not_allowed', message: `${email} may not sign in here.` });

describe('decideSignIn by domain', () => {
  it('allows a verified address at an allowed domain', () => {
    expect(decideSignIn(google('ada@example.com'), organisation)).toEqual({ allowed: true });
  });

  it('compares domains without regard to case, in the address or the setting', () => {
    expect(decideSignIn(google('Ada@Example.COM'), organisation)).toEqual({ allowed: true });
    expect(decideSignIn(google('ada@example.com'), { ...organisation, allowedDomains: ['EXAMPLE.com'] })).toEqual({
      allowed: true,
    });
  });

  it('tolerates spaces, a leading @ and empty entries in the setting', () => {
    const settings = { ...organisation, allowedDomains: ['  @example.com ', '', ' '] };
    expect(decideSignIn(google('ada@example.com'), settings)).toEqual({ allowed: true });
  });

  it('refuses an address at another domain', () => {
    expect(decideSignIn(google('mallory@example.org'), organisation)).toEqual(notAllowed('mallory@example.org'));
  });

  it('refuses a subdomain unless it is listed itself', () => {
    expect(decideSignIn(google('ada@eu.example.com'), organisation)).toEqual(notAllowed('ada@eu.example.com'));
    const withSubdomain = { ...organisation, allowedDomains: ['example.com', 'eu.example.com'] };
    expect(decideSignIn(google('ada@eu.example.com'), withSubdomain)).toEqual({ allowed: true });
  });

  it('refuses domains that only look like an allowed one', () => {
    for (const email of ['mallory@badexample.com', 'mallory@example.com.evil.test', 'mallory@example.co']) {
      expect(decideSignIn(google(email), organisation)).toEqual(notAllowed(email));
    }
  });

  it('takes the domain after the last @', () => {
    expect(decideSignIn(google('"mallory@evil.test"@example.com'), organisation)).toEqual({ allowed: true });
    expect(decideSignIn(google('ada@example.com@evil.test'), organisation)).toEqual(notAllowed('ada@example.com@evil.test'));
  });
});

describe('decideSignIn by address', () => {
  const withAuditor: SignInSettings = { ...organisation, allowedEmails: ['Auditor@Partner.test'] };

  it('allows a listed address at any domain, without regard to case', () => {
    expect(decideSignIn(google('auditor@partner.test'), withAuditor)).toEqual({ allowed: true });
  });

  it('allows only the listed address at its domain', () => {
    expect(decideSignIn(google('someone@partner.test'), withAuditor)).toEqual(notAllowed('someone@partner.test'));
  });

  it('works with no domain at all', () => {
    const onlyAuditor = { ...withAuditor, allowedDomains: [] };
    expect(decideSignIn(google('auditor@partner.test'), onlyAuditor)).toEqual({ allowed: true });
    expect(decideSignIn(google('ada@example.com'), onlyAuditor)).toEqual(notAllowed('ada@example.com'));
  });

  it('still needs the listed address verified', () => {
    expect(decideSignIn(google('auditor@partner.test', false), withAuditor)).toEqual({
      allowed: false,
      reason: 'email_unverified',
      message: 'auditor@partner.test is not verified; sign in with a verified address.',
    });
  });
});

describe('decideSignIn and verification', () => {
  it('refuses an allowed address its provider has not verified', () => {
    expect(decideSignIn(google('ada@example.com', false), organisation)).toEqual({
      allowed: false,
      reason: 'email_unverified',
      message: 'ada@example.com is not verified; sign in with a verified address.',
    });
  });

  it('refuses a password account whose address was never verified', () => {
    expect(decideSignIn(password('ada@example.com'), organisation)).toEqual({
      allowed: false,
      reason: 'email_unverified',
      message: 'ada@example.com is not verified; sign in with a verified address.',
    });
  });

  it('allows a password account once its address is verified', () => {
    expect(decideSignIn({ ...password('collector@example.com'), emailVerified: true }, organisation)).toEqual({
      allowed: true,
    });
  });

  it('tells an outsider they are not allowed, not that verifying would help', () => {
    expect(decideSignIn(google('mallory@example.org', false), organisation)).toEqual(notAllowed('mallory@example.org'));
  });

  describe('when password accounts are trusted (the emulators only)', () => {
    const emulated = { ...organisation, trustPasswordAccounts: true };

    it('allows an unverified password account at an allowed domain', () => {
      expect(decideSignIn(password('ada@example.com'), emulated)).toEqual({ allowed: true });
    });

    it('still refuses a password account at another domain', () => {
      expect(decideSignIn(password('mallory@example.org'), emulated)).toEqual(notAllowed('mallory@example.org'));
    });

    it('still refuses an unverified address from any other provider', () => {
      expect(decideSignIn(google('ada@example.com', false), emulated)).toMatchObject({ reason: 'email_unverified' });
      expect(decideSignIn({ email: 'ada@example.com', emailVerified: false }, emulated)).toMatchObject({
        reason: 'email_unverified',
      });
    });
  });
});

describe('decideSignIn without an address', () => {
  const noEmail = { allowed: false, reason: 'no_email', message: 'Sign-in needs an account with an email address.' };

  it('refuses an anonymous account', () => {
    expect(decideSignIn({ emailVerified: false, providerId: 'anonymous' }, organisation)).toEqual(noEmail);
  });

  it('refuses a phone account', () => {
    expect(decideSignIn({ emailVerified: false, providerId: 'phone' }, organisation)).toEqual(noEmail);
  });

  it('refuses an empty or malformed address', () => {
    expect(decideSignIn(google(''), organisation)).toEqual(noEmail);
    expect(decideSignIn(google('example.com'), organisation)).toEqual(noEmail);
  });
});

describe('decideSignIn with nothing configured', () => {
  const unset: SignInSettings = { allowedDomains: [], allowedEmails: [], trustPasswordAccounts: true };

  it('refuses everyone, verified or not, with the same words as any outsider', () => {
    for (const attempt of [google('ada@example.com'), password('ada@example.com')]) {
      expect(decideSignIn(attempt, unset)).toEqual({
        allowed: false,
        reason: 'policy_unset',
        message: 'ada@example.com may not sign in here.',
      });
    }
  });

  it('counts settings of blanks as nothing', () => {
    expect(decideSignIn(google('ada@example.com'), { ...unset, allowedDomains: [' '], allowedEmails: [''] })).toMatchObject({
      reason: 'policy_unset',
    });
  });
});

describe('decideSignIn locally, where a refusal says who may sign in', () => {
  const local: SignInSettings = { ...organisation, tellWhoMay: true };

  it("names the demo's domain to an outsider", () => {
    expect(decideSignIn(google('stranger@example.org'), local)).toEqual({
      allowed: false,
      reason: 'not_allowed',
      message: 'stranger@example.org may not sign in here. Locally, addresses at example.com may sign in.',
    });
  });

  it('names every domain and address, as the policy compares them', () => {
    const settings = {
      ...local,
      allowedDomains: ['Example.com', '@example.net', 'example.org'],
      allowedEmails: [' Ana@Partner.test'],
    };
    expect(decideSignIn(google('stranger@example.info'), settings)).toMatchObject({
      message:
        'stranger@example.info may not sign in here. Locally, addresses at example.com, example.net or example.org may sign in, and also ana@partner.test.',
    });
    expect(
      decideSignIn(google('stranger@example.info'), { ...local, allowedDomains: [], allowedEmails: ['a@x.test', 'b@y.test'] }),
    ).toMatchObject({
      message: 'stranger@example.info may not sign in here. Locally, a@x.test and b@y.test may sign in.',
    });
  });

  it('says which settings let nobody in', () => {
    expect(decideSignIn(google('ada@example.com'), { ...local, allowedDomains: [] })).toEqual({
      allowed: false,
      reason: 'policy_unset',
      message:
        'ada@example.com may not sign in here. Locally, nobody may sign in until ALLOWED_EMAIL_DOMAINS or ALLOWED_EMAILS is set.',
    });
  });

  it('leaves the other refusals as they are', () => {
    expect(decideSignIn(google('ada@example.com', false), local)).toMatchObject({
      message: 'ada@example.com is not verified; sign in with a verified address.',
    });
  });
});

describe('attemptOf', () => {
  it('reads the address, its verification and the provider from a blocking event', () => {
    expect(
      attemptOf({
        data: { email: 'ada@example.com', emailVerified: true },
        additionalUserInfo: { providerId: 'google.com' },
        credential: { providerId: 'google.com' },
      }),
    ).toEqual({ email: 'ada@example.com', emailVerified: true, providerId: 'google.com' });
  });

  it('falls back to the credential for the provider, and to unverified when nothing is said', () => {
    expect(
      attemptOf({
        data: { email: 'ada@example.com', emailVerified: undefined as unknown as boolean },
        credential: { providerId: 'password' },
      }),
    ).toEqual({
      email: 'ada@example.com',
      emailVerified: false,
      providerId: 'password',
    });
  });

  it('reads an event without a user as an attempt without an address', () => {
    expect(attemptOf({})).toEqual({ email: undefined, emailVerified: false, providerId: undefined });
  });
});
