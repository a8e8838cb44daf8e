/**
 * Demo data: the last days of Acme, a twelve-person software company, as its collectors and its
 * people would have told Evident. Pure and deterministic — the same `today` gives the same items
 * with the same ids — so the seeding script, the tests and a screenshot all see the same story.
 * It is used by the local scripts and the tests only, never deployed with the functions.
 *
 * Every collector posts every subject once a day between 02:00 and 05:00 (in `timeZone`, UTC by
 * default), with a jitter derived from the subject, under a collection run it completes with its
 * counts (deliveries.ts, which the seed follows); Prowler scans the Google Cloud project at 01:00
 * and its findings are imported (prowler-scan.ts). Day 1 is 13 days before today:
 *
 *   day 1   policies and scoping decisions are imported as attestations; PPL-01 is scoped out.
 *           So are the records of governance, risk, assets and physical security (GOV, RSK, AST,
 *           PHY), all current but the annual risk assessment, which is nearly a year old.
 *           Known from the start: a Windows laptop behind on patches (END-03), a VPN host with
 *           old high findings (VUL-02), an exfiltration alert that never fires (LOG-04), a
 *           vendor whose SOC 2 report lapsed (VEN-02), and no attestation yet for the incident
 *           response plan (INC-01, INC-04), the penetration test (VUL-05), the disciplinary
 *           process (PPL-05) or an independent review of the controls (GOV-03, still missing).
 *   day 3   the scanner finds a 16-day-old critical on the reports worker image (VUL-01 fails).
 *   day 4   a contractor joins without MFA (IAM-01 fails) and before signing the policies
 *           (PPL-02 fails). The KMS and access-review collectors post for the last time.
 *   day 5   the incident response plan is submitted (INC-01, INC-04 pass); the contractor fails
 *           security awareness training (PPL-03 fails, and stays failing).
 *   day 6   the billing database misses its backup (BCK-01 fails); the contractor signs
 *           (PPL-02 fixed); the cryptography policy attestation turns a year old (ENC-05 stale).
 *   day 7   billing-service loses its branch protection for a hotfix (CHG-01, CHG-02, CHG-04 fail).
 *   day 8   the backup is rerun (BCK-01 fixed); status.acme.example's certificate failed to
 *           renew (ENC-03 fails); the penetration test is attested (VUL-05 passes).
 *   day 9   the contractor enrols MFA (IAM-01 fixed); the certificate is renewed (ENC-03 fixed).
 *   day 10  the reports worker is patched (VUL-01 fixed); a new cryptography policy is submitted
 *           (ENC-05 passes); the last access review passes 100 days (IAM-05 stale).
 *   day 11  protection returns on billing-service but still lets admins force-push (CHG-01 and
 *           CHG-04 fixed, CHG-02 still failing); the first tabletop exercise is recorded with open
 *           actions (INC-02, missing until now, fails); the KMS evidence is 7 days old (ENC-04 stale).
 *   day 12  the marketing bucket is opened to the internet (IAM-08 fails, and Prowler's nightly
 *           scan fails it too); a Chromebook's EDR agent stops reporting (END-02 fails).
 *   day 13  the annual risk assessment turns a year old (RSK-02 stale); the new one is under way.
 *           The HR system's collector crashes after sending five of its twelve people, and does
 *           not run again: its run is never completed and reads as abandoned six hours after it
 *           opened, so the HR system's controls cannot pass (PPL-02 fails today).
 *   day 14  today: every status appears — passing, failing, stale, missing and not applicable.
 *           The GitHub collector's token, renewed overnight, reaches four of the six repositories
 *           (not acme/mobile-app or acme/docs): its run completes with a population a third
 *           smaller than yesterday's, a drop that awaits acknowledgement on the Sources page.
 */
import { addDays, startOfDay } from '../../../functions/src/assessment/dates.ts';
import type { EvidenceInput } from '../../../functions/src/assessment/model.ts';
import { attestedByHand } from './attestations.ts';
import { DayBuilder, minuteMs, type DemoSubmission } from './day-builder.ts';
import { peopleCollectors } from './people-collectors.ts';
import { platformCollectors } from './platform-collectors.ts';
import { prowlerScanner } from './prowler-scan.ts';
import { securityCollectors } from './security-collectors.ts';

export interface DemoDay {
  date: string;
  /** Days before today: 0 for today. */
  ago: number;
  evidence: EvidenceInput[];
  submissions: DemoSubmission[];
}

export interface DemoOptions {
  /** The report time zone whose days the collectors follow; UTC by default. */
  timeZone?: string;
  /**
   * The current time, when `today` is the current day: today's collections are compressed to
   * before it, so no item is collected in the future.
   */
  now?: Date;
}

/**
 * Everything that reports on a day, in the order it arrives: the order of a day's items, and so
 * the batches the seed sends, follows this list.
 */
const sources: ((day: DayBuilder) => void)[] = [
  ...peopleCollectors,
  ...platformCollectors,
  ...securityCollectors,
  prowlerScanner,
  ...attestedByHand,
];

/**
 * The evidence and submissions of the `days` days ending with `today` (YYYY-MM-DD), oldest
 * first. The story is anchored on today, so it ends the same way whatever `days` is.
 */
export function demoHistory(today: string, days = 14, options: DemoOptions = {}): DemoDay[] {
  const timeZone = options.timeZone ?? 'UTC';
  const history: DemoDay[] = [];
  for (let index = 0; index < days; index++) {
    const ago = days - 1 - index;
    const date = addDays(today, -ago);
    const start = startOfDay(timeZone, date).getTime();
    const end = startOfDay(timeZone, addDays(date, 1)).getTime();
    const now = options.now?.getTime();
    // Today's collections end a minute before now; a day in the past has all of its hours.
    const limit = now !== undefined && now < end ? now - minuteMs - start : end - start - minuteMs;
    const builder = new DayBuilder({ today, date, ago, index, start, limit });
    for (const source of sources) source(builder);
    history.push({ date, ago, evidence: builder.evidence, submissions: builder.submissions });
  }
  return history;
}
