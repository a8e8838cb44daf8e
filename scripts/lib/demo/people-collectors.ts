/**
 * The demo's collectors that report on people: the identity provider, device management, the
 * training platform and the HR system. Each posts every subject once a day; the contractor who
 * joins on day 4 appears in each from then on.
 */
import { contractor, email, leaver, staff } from './acme.ts';
import { fixed, type DayBuilder } from './day-builder.ts';

/** The contractor starts on day 4 (ten days before today). */
const contractorJoined = (b: DayBuilder) => b.day.ago <= 10;

/** Okta: accounts and tenant settings. */
export function identityProvider(b: DayBuilder): void {
  const { ago, index } = b.day;
  const idp = 'okta-collector';
  for (const person of staff) {
    const subject = email(person.handle);
    b.add('idp.user', idp, subject, b.collectedAt(idp, 2, subject), {
      email: subject,
      active: true,
      mfaEnabled: true,
      phishingResistantMfa: person.admin || person.engineer,
      admin: person.admin,
      lastLoginDaysAgo: person.handle === 'liam.oconnor' ? b.vary(subject, 4) : b.vary(subject, 2),
      employmentStatus: 'active',
    });
  }
  if (contractorJoined(b)) {
    const subject = email(contractor);
    b.add('idp.user', idp, subject, b.collectedAt(idp, 2, subject), {
      email: subject,
      active: true,
      mfaEnabled: ago <= 5,
      phishingResistantMfa: false,
      admin: false,
      lastLoginDaysAgo: ago === 10 ? 0 : b.vary(subject, 2),
      employmentStatus: 'contractor',
    });
  }
  b.add('idp.user', idp, email(leaver), b.collectedAt(idp, 2, email(leaver)), {
    email: email(leaver),
    active: false,
    mfaEnabled: true,
    phishingResistantMfa: true,
    admin: false,
    lastLoginDaysAgo: 47 + index,
    employmentStatus: 'leaver',
  });
  b.add('idp.settings', idp, 'acme.okta.com', b.collectedAt(idp, 2, 'acme.okta.com'), {
    mfaRequired: true,
    passwordMinLength: 14,
    sessionTimeoutMinutes: 720,
    ssoEnforced: true,
    lockoutThreshold: 10,
  });
}

/** Device management: one laptop per employee (the contractor uses their own, unmanaged). */
export function deviceManagement(b: DayBuilder): void {
  const { ago, index } = b.day;
  const mdm = 'mdm-collector';
  for (const person of staff) {
    const behind = person.handle === 'priya.patel';
    const edrDown = person.handle === 'lucas.silva' && ago <= 2;
    b.add('endpoint.device', mdm, person.device, b.collectedAt(mdm, 2, person.device), {
      owner: email(person.handle),
      platform: person.platform,
      diskEncrypted: true,
      edrInstalled: true,
      edrHealthy: !edrDown,
      osSupported: true,
      // Patches land monthly; one Windows laptop has deferred them since before the demo began.
      osPatchAgeDays: behind ? 34 + index : (fixed(person.device, 28) + index) % 28,
      screenLockMinutes: person.platform === 'windows' ? 10 : 5,
      firewallEnabled: true,
    });
  }
}

/** Training platform: awareness for everyone, secure coding for engineers; the contractor fails on day 5. */
export function trainingPlatform(b: DayBuilder): void {
  const lms = 'lms-collector';
  for (const person of staff) {
    const courses = person.engineer ? ['security-awareness', 'secure-coding'] : ['security-awareness'];
    for (const course of courses) {
      const subject = `${email(person.handle)}/${course}`;
      const completedOn = b.daysAgo(20 + fixed(subject, 300));
      b.add(
        'training.completion',
        lms,
        subject,
        b.collectedAt(lms, 2, subject),
        { course, completedOn, passed: true, score: 78 + fixed(`${subject}/score`, 22) },
        { effectiveDate: completedOn },
      );
    }
  }
  if (b.day.ago <= 9) {
    const subject = `${email(contractor)}/security-awareness`;
    const completedOn = b.daysAgo(9);
    b.add(
      'training.completion',
      lms,
      subject,
      b.collectedAt(lms, 2, subject),
      { course: 'security-awareness', completedOn, passed: false, score: 58 },
      { effectiveDate: completedOn },
    );
  }
}

/** HR system: screening and policy acknowledgement. */
export function hrSystem(b: DayBuilder): void {
  const { ago } = b.day;
  const hris = 'hris-collector';
  for (const person of staff) {
    const subject = email(person.handle);
    b.add('people.screening', hris, subject, b.collectedAt(hris, 3, subject), {
      backgroundCheck: person.region === 'us' ? 'clear' : 'not-required',
      policiesAcknowledged: true,
      ndaSigned: true,
      startedOn: b.daysAgo(person.startedDaysAgo),
    });
  }
  if (contractorJoined(b)) {
    const subject = email(contractor);
    b.add('people.screening', hris, subject, b.collectedAt(hris, 3, subject), {
      backgroundCheck: ago <= 5 ? 'clear' : 'pending',
      policiesAcknowledged: ago <= 8,
      ndaSigned: ago <= 8,
      startedOn: b.daysAgo(10),
    });
  }
}

export const peopleCollectors = [identityProvider, deviceManagement, trainingPlatform, hrSystem];
