/**
 * Who the identity project may issue a token to. The server accepts every valid token of the
 * project and has no roles, so the only place to keep strangers out is here: the blocking
 * functions run this before Identity Platform creates an account and before it issues a token.
 *
 * An attempt is allowed when the account has an email address, the address is on the allow-list
 * or at an allowed domain, and the address is verified. Pure: the settings come in as an
 * argument, and the answer is a decision the caller acts on.
 */

export interface SignInSettings {
  /** Domains whose addresses may sign in: the part after the last `@`, exactly; subdomains are not included. */
  allowedDomains: readonly string[];
  /** Single addresses that may sign in whatever their domain (contractors, auditors). */
  allowedEmails: readonly string[];
  /**
   * Whether a password account counts as verified although its email is not. Only ever true in
   * the emulators (see `trustPasswordAccounts` in config.ts), whose password sign-ups cannot be verified.
   */
  trustPasswordAccounts: boolean;
  /**
   * Whether a refusal also says who may sign in. Only in the emulators (see the gate), whose
   * settings are the demo's committed ones and whose user is the person running them; a
   * deployment never tells a stranger which domains it lets in.
   */
  tellWhoMay?: boolean;
}

/** What the policy looks at in an attempt: the account's email and who vouched for it. */
export interface SignInAttempt {
  email?: string | undefined;
  emailVerified: boolean;
  /** `password`, `google.com`, `phone`, …; undefined when Identity Platform does not say. */
  providerId?: string | undefined;
}

export type RefusalReason = 'no_email' | 'not_allowed' | 'policy_unset' | 'email_unverified';

export type SignInDecision = { allowed: true } | { allowed: false; reason: RefusalReason; message: string };

/** The fields of a blocking event the policy reads (firebase-functions' `AuthBlockingEvent`). */
export interface BlockingEventFacts {
  data?: { email?: string | undefined; emailVerified: boolean } | undefined;
  additionalUserInfo?: { providerId?: string | undefined } | undefined;
  credential?: { providerId: string } | null | undefined;
}

export function attemptOf(event: BlockingEventFacts): SignInAttempt {
  return {
    email: event.data?.email,
    emailVerified: event.data?.emailVerified === true,
    providerId: event.additionalUserInfo?.providerId ?? event.credential?.providerId ?? undefined,
  };
}

/** Lower-cases and trims each entry, drops empty ones, and a leading `@` on a domain. */
export function normaliseSettings(settings: SignInSettings): SignInSettings {
  const clean = (values: readonly string[], stripAt: boolean) =>
    values
      .map((value) => value.trim().toLowerCase())
      .map((value) => (stripAt && value.startsWith('@') ? value.slice(1) : value))
      .filter((value) => value.length > 0);
  return {
    allowedDomains: clean(settings.allowedDomains, true),
    allowedEmails: clean(settings.allowedEmails, false),
    trustPasswordAccounts: settings.trustPasswordAccounts,
    tellWhoMay: settings.tellWhoMay === true,
  };
}

/** The domain of an address: after the last `@`, since a quoted local part may hold one too. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function decideSignIn(attempt: SignInAttempt, rawSettings: SignInSettings): SignInDecision {
  const settings = normaliseSettings(rawSettings);
  const email = attempt.email?.trim().toLowerCase() ?? '';
  // Anonymous and phone accounts carry no address to check. (Identity Platform does not run
  // blocking functions for anonymous sign-in at all, hence the provider must stay off.)
  if (!email.includes('@')) {
    return refuse('no_email', 'Sign-in needs an account with an email address.');
  }
  // Checked before verification, so a stranger is not told that verifying would help.
  if (settings.allowedDomains.length === 0 && settings.allowedEmails.length === 0) {
    return refuse('policy_unset', outsider(attempt.email ?? email, settings));
  }
  if (!settings.allowedEmails.includes(email) && !settings.allowedDomains.includes(domainOf(email))) {
    return refuse('not_allowed', outsider(attempt.email ?? email, settings));
  }
  // A password sign-up's address is whatever was typed until the link sent to it is followed:
  // without this check anyone could sign up as a colleague.
  const vouched = attempt.emailVerified || (settings.trustPasswordAccounts && attempt.providerId === 'password');
  if (!vouched) {
    return refuse('email_unverified', `${attempt.email} is not verified; sign in with a verified address.`);
  }
  return { allowed: true };
}

/** The refusal of an address the settings do not let in; locally, with who they do let in. */
function outsider(email: string, settings: SignInSettings): string {
  const refusal = `${email} may not sign in here.`;
  return settings.tellWhoMay ? `${refusal} Locally, ${whoMayInWords(settings)}.` : refusal;
}

/** Who the settings let in, e.g. "addresses at example.com or example.net may sign in, and also ana@partner.test". */
function whoMayInWords({ allowedDomains, allowedEmails }: SignInSettings): string {
  const domains = allowedDomains.length > 0 ? `addresses at ${inWords(allowedDomains, 'or')}` : undefined;
  const emails = allowedEmails.length > 0 ? inWords(allowedEmails, 'and') : undefined;
  if (domains && emails) return `${domains} may sign in, and also ${emails}`;
  if (domains ?? emails) return `${domains ?? emails} may sign in`;
  return 'nobody may sign in until ALLOWED_EMAIL_DOMAINS or ALLOWED_EMAILS is set';
}

/** `a`, `a or b`, `a, b or c`. */
function inWords(values: readonly string[], conjunction: 'and' | 'or'): string {
  return values.length === 1 ? values[0]! : `${values.slice(0, -1).join(', ')} ${conjunction} ${values.at(-1)!}`;
}

function refuse(reason: RefusalReason, message: string): SignInDecision {
  return { allowed: false, reason, message };
}
