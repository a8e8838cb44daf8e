/** The `auth` family: the server's mode, and who it takes the caller to be. */
import { createFamily, type FamilyOptions } from '../http/create-family.js';

export function createAuthFamily(options: FamilyOptions = {}) {
  return createFamily(
    'auth',
    {
      getAuthConfig: (_input, { authRequired }) => ({
        status: 200,
        body: { authRequired },
        // Revalidated every time: clients read this first, and a mode change is only a restart away.
        cacheControl: 'no-cache',
      }),

      getCaller: (_input, { caller }) => ({
        status: 200,
        body: caller ? { authenticated: true, ...caller } : { authenticated: false },
      }),
    },
    options,
  );
}

export const handler = createAuthFamily();
