/**
 * The signed-in person, when the server requires one. The identity SDK is imported the first
 * time a session is needed, so public mode never loads it. The SDK keeps the session across
 * reloads and refreshes the token; sign-out discards it.
 */
import type { IdentityClient, SignedInUser } from './identity-client.ts';
import { identitySettings } from './identity-settings.ts';
import { signInError } from './sign-in-errors.ts';

export type SessionState =
  | { status: 'not-needed' }
  | { status: 'unavailable'; missing: string[] }
  | { status: 'starting' }
  | { status: 'signed-out'; ended: boolean; error?: string }
  | { status: 'signed-in'; user: SignedInUser };

export class Session {
  #state = $state<SessionState>({ status: 'not-needed' });
  #client: Promise<IdentityClient> | undefined;
  #ended = false;
  /** The SDK's last word on who is signed in, kept while the server is public for a while. */
  #user: SignedInUser | null = null;
  #required = false;

  get state(): SessionState {
    return this.#state;
  }

  /** The build's identity settings; a `demo-` build signs in on the local auth emulator. */
  readonly settings = identitySettings(import.meta.env);

  get usesEmulator(): boolean {
    return this.settings.ok && this.settings.settings.emulator !== undefined;
  }

  /** Follows the server's mode: starts the identity SDK only when sign-in is required. */
  async require(authRequired: boolean): Promise<void> {
    this.#required = authRequired;
    if (!authRequired) {
      this.#state = { status: 'not-needed' };
      return;
    }
    if (this.#client) {
      if (this.#state.status === 'not-needed') this.#show(this.#user);
      return;
    }
    const settings = this.settings;
    if (!settings.ok) {
      this.#state = { status: 'unavailable', missing: settings.missing };
      return;
    }
    this.#state = { status: 'starting' };
    this.#client = import('./identity-client.ts').then(({ connectIdentity }) => connectIdentity(settings.settings));
    try {
      const client = await this.#client;
      client.onUserChanged((user) => this.#show(user));
    } catch (error) {
      this.#client = undefined;
      this.#state = { status: 'signed-out', ended: false, error: `Sign-in could not start: ${(error as Error).message}` };
    }
  }

  async signInWithGoogle(): Promise<void> {
    await this.#signIn((client) => client.signInWithGoogle());
  }

  async signInOnEmulator(email: string, name: string): Promise<void> {
    await this.#signIn((client) => client.signInOnEmulator(email, name));
  }

  async signOut(): Promise<void> {
    this.#ended = false;
    await (await this.#client)?.signOut();
  }

  /** The token for a protected call, or none when no one is signed in. */
  async token(forceRefresh: boolean): Promise<string | undefined> {
    if (this.#state.status !== 'signed-in' || !this.#client) return undefined;
    const client = await this.#client;
    try {
      return await client.idToken(forceRefresh);
    } catch (error) {
      // A refresh the identity provider refuses (the session revoked, the account disabled or
      // deleted) ends the session: the SDK signs itself out, possibly before this rejection
      // arrives, so the notice is set here whichever comes first. Being offline ends nothing.
      if (!forceRefresh || (error as { code?: string }).code === 'auth/network-request-failed') throw error;
      this.#ended = true;
      // Read again: the state may have changed while the refresh was awaited.
      const now = this.state;
      if (now.status === 'signed-out') this.#state = { ...now, ended: true };
      void client.signOut();
      return undefined;
    }
  }

  /** A 401 survived a config re-check and a token refresh: discard the session and ask again. */
  signInAgain(): void {
    if (this.#state.status !== 'signed-in') return;
    this.#ended = true;
    void this.#client?.then((client) => client.signOut());
  }

  #show(user: SignedInUser | null): void {
    this.#user = user;
    // While the server is public the session is kept, not shown; it shows again if that changes.
    if (!this.#required) return;
    this.#state = user ? { status: 'signed-in', user } : { status: 'signed-out', ended: this.#ended };
  }

  async #signIn(how: (client: IdentityClient) => Promise<void>): Promise<void> {
    const client = await this.#client;
    if (!client) return;
    // Only a sign-in clears "your session has ended": a token refresh still in flight from the
    // calls that were refused must not, or the notice would vanish as the session is discarded.
    this.#ended = false;
    try {
      await how(client);
    } catch (error) {
      this.#state = { status: 'signed-out', ended: false, error: signInError(error) };
    }
  }
}
