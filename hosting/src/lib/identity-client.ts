/**
 * Sign-in through the Firebase JS SDK. This module is imported only when the server requires
 * sign-in, so public mode never downloads the SDK.
 *
 * Production signs in with Google in a popup. A `demo-` build signs in against the local auth
 * emulator with a Google credential the emulator accepts: the emulator's own account-chooser
 * page loads `gapi` from apis.google.com (firebase-tools, lib/emulator/auth/handlers.js), which
 * an offline machine cannot reach, while a credential sign-in needs nothing but the emulator.
 */
import { initializeApp } from 'firebase/app';
import {
  GoogleAuthProvider,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  onIdTokenChanged,
  signInWithCredential,
  signInWithPopup,
  signOut,
  type Auth,
} from 'firebase/auth';
import type { IdentitySettings } from './identity-settings.ts';

export interface SignedInUser {
  uid: string;
  email: string | null;
  name: string | null;
}

export interface IdentityClient {
  readonly usesEmulator: boolean;
  /** Reports the signed-in person (or null) now and on every change. */
  onUserChanged(listener: (user: SignedInUser | null) => void): () => void;
  /** Production: Google in a popup. */
  signInWithGoogle(): Promise<void>;
  /** Local runs: a Google identity the auth emulator accepts without a popup. */
  signInOnEmulator(email: string, name: string): Promise<void>;
  signOut(): Promise<void>;
  /** The current ID token; the SDK refreshes it before expiry, `forceRefresh` asks for a new one. */
  idToken(forceRefresh: boolean): Promise<string | undefined>;
}

export function connectIdentity(settings: IdentitySettings): IdentityClient {
  const app = initializeApp({ apiKey: settings.apiKey, authDomain: settings.authDomain, projectId: settings.projectId });
  const auth: Auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence],
    // The popup machinery is needed (and loaded) only where a popup can work.
    ...(settings.emulator ? {} : { popupRedirectResolver: browserPopupRedirectResolver }),
  });
  if (settings.emulator) connectAuthEmulator(auth, settings.emulator, { disableWarnings: true });

  return {
    usesEmulator: Boolean(settings.emulator),
    onUserChanged: (listener) =>
      onIdTokenChanged(auth, (user) => listener(user ? { uid: user.uid, email: user.email, name: user.displayName } : null)),
    signInWithGoogle: async () => {
      await signInWithPopup(auth, new GoogleAuthProvider());
    },
    signInOnEmulator: async (email, name) => {
      // The emulator takes an unsigned Google ID token's claims as the credential.
      const claims = { sub: `emulated-${email}`, email, email_verified: true, name };
      await signInWithCredential(auth, GoogleAuthProvider.credential(JSON.stringify(claims)));
    },
    signOut: () => signOut(auth),
    idToken: async (forceRefresh) => auth.currentUser?.getIdToken(forceRefresh),
  };
}
