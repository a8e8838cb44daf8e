/**
 * The blocking functions' body: the policy applied with the deployed settings, a refusal thrown
 * as the `permission-denied` error Identity Platform passes on, and logged by its domain only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logEntries, logs } from '../../../functions/src/logs.ts';
import { enforceSignInPolicy } from '../../../functions/src/sign-in/sign-in-gate.ts';

type AuthBlockingEvent = Parameters<typeof enforceSignInPolicy>[1];
interface Refusal extends Error {
  code: string;
}

function event(email: string | undefined, emailVerified: boolean, providerId: string): AuthBlockingEvent {
  return {
    data: { uid: 'u1', email, emailVerified, disabled: false, providerData: [], metadata: {} },
    additionalUserInfo: { providerId, isNewUser: true },
  } as unknown as AuthBlockingEvent;
}

/** The error thrown: firebase-functions' `HttpsError`, which Identity Platform turns into the client's error. */
function refusal(run: () => void): Refusal {
  try {
    run();
  } catch (error) {
    if (error instanceof Error && error.constructor.name === 'HttpsError') return error as Refusal;
    throw error;
  }
  throw new Error('the attempt was allowed');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('enforceSignInPolicy', () => {
  it('lets an address at ALLOWED_EMAIL_DOMAINS through without logging', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com, example.net');
    const refused = vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    expect(enforceSignInPolicy('beforeCreate', event('ada@example.net', true, 'google.com'))).toBeUndefined();
    expect(refused).not.toHaveBeenCalled();
  });

  it('lets an address on ALLOWED_EMAILS through', () => {
    vi.stubEnv('ALLOWED_EMAILS', 'auditor@partner.test,other@partner.test');
    vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    expect(enforceSignInPolicy('beforeSignIn', event('other@partner.test', true, 'google.com'))).toBeUndefined();
  });

  it('refuses an outsider with permission-denied and logs the trigger, reason, provider and domain', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com');
    const refused = vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    const error = refusal(() => enforceSignInPolicy('beforeSignIn', event('mallory@example.org', true, 'google.com')));
    expect(error.code).toBe('permission-denied');
    expect(error.message).toBe('mallory@example.org may not sign in here.');
    expect(refused.mock.calls).toEqual([['beforeSignIn', 'not_allowed', 'google.com', 'example.org']]);
  });

  it('names the allowed domains in a refusal inside the emulators, and never outside them', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com');
    vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    vi.stubEnv('FUNCTIONS_EMULATOR', 'true');
    expect(refusal(() => enforceSignInPolicy('beforeCreate', event('mallory@example.org', true, 'google.com'))).message).toBe(
      'mallory@example.org may not sign in here. Locally, addresses at example.com may sign in.',
    );
    vi.stubEnv('FUNCTIONS_EMULATOR', '');
    expect(refusal(() => enforceSignInPolicy('beforeCreate', event('mallory@example.org', true, 'google.com'))).message).toBe(
      'mallory@example.org may not sign in here.',
    );
  });

  it('refuses everyone when neither setting is set', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', '');
    vi.stubEnv('ALLOWED_EMAILS', '');
    const refused = vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    const error = refusal(() => enforceSignInPolicy('beforeCreate', event('ada@example.com', true, 'google.com')));
    expect(error.code).toBe('permission-denied');
    expect(refused.mock.calls).toEqual([['beforeCreate', 'policy_unset', 'google.com', 'example.com']]);
  });

  it('ignores EVIDENT_TRUST_PASSWORD_ACCOUNTS outside the emulators', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com');
    vi.stubEnv('EVIDENT_TRUST_PASSWORD_ACCOUNTS', 'true');
    vi.stubEnv('FUNCTIONS_EMULATOR', '');
    vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    const error = refusal(() => enforceSignInPolicy('beforeCreate', event('ada@example.com', false, 'password')));
    expect(error.message).toBe('ada@example.com is not verified; sign in with a verified address.');
  });

  it('honours EVIDENT_TRUST_PASSWORD_ACCOUNTS inside the emulators', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com');
    vi.stubEnv('EVIDENT_TRUST_PASSWORD_ACCOUNTS', 'true');
    vi.stubEnv('FUNCTIONS_EMULATOR', 'true');
    expect(enforceSignInPolicy('beforeCreate', event('ada@example.com', false, 'password'))).toBeUndefined();
  });

  it('logs no domain for an account without an address', () => {
    vi.stubEnv('ALLOWED_EMAIL_DOMAINS', 'example.com');
    const refused = vi.spyOn(logs, 'signInRefused').mockImplementation(() => undefined);
    refusal(() => enforceSignInPolicy('beforeCreate', event(undefined, false, 'phone')));
    expect(refused.mock.calls).toEqual([['beforeCreate', 'no_email', 'phone', undefined]]);
  });
});

describe('the sign_in_refused log entry', () => {
  it('names the event and carries the facts, never the whole address', () => {
    expect(logEntries.signInRefused('beforeCreate', 'not_allowed', 'google.com', 'example.org')).toEqual({
      severity: 'WARNING',
      message: 'sign-in refused',
      event: 'sign_in_refused',
      trigger: 'beforeCreate',
      reason: 'not_allowed',
      provider: 'google.com',
      emailDomain: 'example.org',
    });
    expect(logEntries.signInRefused('beforeSignIn', 'no_email', undefined, undefined)).toEqual({
      severity: 'WARNING',
      message: 'sign-in refused',
      event: 'sign_in_refused',
      trigger: 'beforeSignIn',
      reason: 'no_email',
      provider: 'unknown',
      emailDomain: null,
    });
  });
});
