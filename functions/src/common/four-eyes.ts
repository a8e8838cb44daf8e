/**
 * The four-eyes rule: what one person requested (an exception today; a piece of manual evidence
 * in the audit fieldwork) is reviewed by another. One decision, used wherever a review is
 * recorded: may this reviewer review what that requester asked for, in this mode?
 *
 * People are told apart by the uid of their ID token. A caller without a token is `anonymous`,
 * which says nothing about who they are, so two anonymous callers are not "the same person" and
 * not known to be different either. In public mode no one needs to sign in, so a review there is
 * never known to be independent; only a reviewer signed in as the requester is refused, since
 * that much is certain. In protected mode the reviewer is signed in; the requester may still be
 * `anonymous` when the request was made while the server ran in public mode.
 */

/** A person as records name them (the `Actor` of the API): `anonymous` without an ID token. */
export interface Person {
  uid: string;
}

export type ServerMode = 'protected' | 'public';

export type ReviewVerdict =
  | { outcome: 'independent' }
  /** Allowed, but the reviewer is not known to be another person; `caveat` says why, in a sentence. */
  | { outcome: 'not-independent'; caveat: string }
  /** The reviewer is the requester. */
  | { outcome: 'self' };

export const anonymousUid = 'anonymous';

export const caveats = {
  publicMode:
    'The server runs in public mode, where callers need not sign in, so the requester and the reviewer could not be ' +
    'told apart.',
  anonymousRequest:
    'The request was made without signing in (while the server ran in public mode), so the requester and the ' +
    'reviewer could not be told apart.',
  recordedAtOnce:
    'Recorded before requests and approvals were separate: the requester approved it at once, with no second person.',
} as const;

const known = (person: Person): boolean => person.uid !== anonymousUid;

export function reviewVerdict(requester: Person, reviewer: Person, mode: ServerMode): ReviewVerdict {
  if (known(requester) && known(reviewer) && requester.uid === reviewer.uid) return { outcome: 'self' };
  if (mode === 'public') return { outcome: 'not-independent', caveat: caveats.publicMode };
  // The reviewer of a protected operation is signed in; an anonymous requester asked in public mode.
  if (!known(requester) || !known(reviewer)) return { outcome: 'not-independent', caveat: caveats.anonymousRequest };
  return { outcome: 'independent' };
}
