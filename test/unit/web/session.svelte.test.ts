/// <reference types="vite/client" />
/**
 * Session as the request flow drives it, compiled by Svelte with real runes, over a scripted
 * identity client: a refresh the identity provider refuses ends the session with the
 * "your session has ended" notice, whether the SDK reports the sign-out before or after the
 * refusal arrives; being offline ends nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IdentityClient, SignedInUser } from '../../../hosting/src/lib/identity-client.ts';

const grace: SignedInUser = { uid: 'u-grace', email: 'grace@example.com', name: 'Grace' };

/** An identity client whose forced refresh fails with `code`, reporting the sign-out first or last. */
function scriptedClient(code: string, signOutFirst: boolean) {
  const listeners: ((user: SignedInUser | null) => void)[] = [];
  const signOuts: string[] = [];
  const tell = (user: SignedInUser | null) => listeners.forEach((listener) => listener(user));
  const client: IdentityClient = {
    usesEmulator: true,
    onUserChanged: (listener) => {
      listeners.push(listener);
      listener(grace);
      return () => undefined;
    },
    signInWithGoogle: async () => undefined,
    signInOnEmulator: async () => undefined,
    signOut: async () => {
      signOuts.push('signOut');
      tell(null);
    },
    idToken: async (forceRefresh) => {
      if (!forceRefresh) return 'token-1';
      const refusal = Object.assign(new Error(code), { code });
      // The SDK signs out on a refused refresh (user-token-expired, user-disabled) before rejecting.
      if (signOutFirst && code !== 'auth/network-request-failed') tell(null);
      throw refusal;
    },
  };
  return { client, signOuts };
}

let scripted: ReturnType<typeof scriptedClient>;
vi.mock('../../../hosting/src/lib/identity-client.ts', () => ({ connectIdentity: () => scripted.client }));

beforeEach(() => {
  vi.stubEnv('IDP_API_KEY', 'fake-api-key');
  vi.stubEnv('IDP_AUTH_DOMAIN', 'demo-evident.firebaseapp.com');
  vi.stubEnv('IDP_PROJECT_ID', 'demo-evident');
});
afterEach(() => vi.unstubAllEnvs());

async function signedInSession() {
  const { Session } = await import('../../../hosting/src/lib/session.svelte.ts');
  const session = new Session();
  await session.require(true);
  expect(session.state).toEqual({ status: 'signed-in', user: grace });
  return session;
}

describe('a session whose token refresh fails', () => {
  it.each([
    ['the SDK signs out before the refusal arrives', true],
    ['the refusal arrives before the SDK signs out', false],
  ])('ends with the session-ended notice when the provider refuses the refresh (%s)', async (_, signOutFirst) => {
    scripted = scriptedClient('auth/user-token-expired', signOutFirst);
    const session = await signedInSession();

    expect(await session.token(false)).toBe('token-1');
    expect(await session.token(true)).toBeUndefined();

    expect(session.state).toEqual({ status: 'signed-out', ended: true });
    expect(scripted.signOuts).toEqual(['signOut']);
  });

  it('keeps the session when the provider cannot be reached, and the caller sees the network error', async () => {
    scripted = scriptedClient('auth/network-request-failed', true);
    const session = await signedInSession();

    await expect(session.token(true)).rejects.toMatchObject({ code: 'auth/network-request-failed' });

    expect(session.state).toEqual({ status: 'signed-in', user: grace });
    expect(scripted.signOuts).toEqual([]);
  });
});
