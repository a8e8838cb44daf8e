/**
 * Another person than the one the `api` helper calls as, for what one person may not do alone
 * (four eyes: approving or refusing an exception someone requested). In protected mode a user
 * signed up for it; in public mode nobody signs in, so the call is anonymous like every other.
 */
import { bearer, mode, signUp } from './emulator.ts';

export interface AnotherPerson {
  /** The headers its calls carry (none in public mode). */
  headers: Record<string, string>;
  /** Its uid as records name it: `anonymous` in public mode. */
  uid: string;
}

export async function anotherPerson(): Promise<AnotherPerson> {
  if (mode !== 'protected') return { headers: {}, uid: 'anonymous' };
  const other = await signUp();
  return { headers: bearer(other.idToken), uid: other.uid };
}
