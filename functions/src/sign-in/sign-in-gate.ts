/**
 * The blocking functions' body: the sign-in policy applied to one Identity Platform event with
 * the settings of the moment. Loaded on the first sign-in, so the API's functions never load it.
 */
import { HttpsError, type AuthBlockingEvent } from 'firebase-functions/v2/identity';
import { allowedEmailDomains, allowedEmails, inEmulator, trustPasswordAccounts } from '../config.js';
import { logs } from '../logs.js';
import { attemptOf, decideSignIn, domainOf } from './sign-in-policy.js';

/** Returns when the attempt may go on; throws the refusal Identity Platform passes to the client. */
export function enforceSignInPolicy(trigger: 'beforeCreate' | 'beforeSignIn', event: AuthBlockingEvent): void {
  const attempt = attemptOf(event);
  const decision = decideSignIn(attempt, {
    allowedDomains: allowedEmailDomains(),
    allowedEmails: allowedEmails(),
    trustPasswordAccounts: trustPasswordAccounts(),
    // Locally the refusal names the demo's domains, so a person trying it knows which address to use.
    tellWhoMay: inEmulator(),
  });
  if (decision.allowed) return;
  const domain = attempt.email?.includes('@') ? domainOf(attempt.email) : undefined;
  logs.signInRefused(trigger, decision.reason, attempt.providerId, domain);
  throw new HttpsError('permission-denied', decision.message);
}
