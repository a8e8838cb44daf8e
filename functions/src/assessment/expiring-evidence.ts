/**
 * Evidence about to go stale, for reminders: for every control and every kind of evidence it
 * requires, the newest item of each subject that is fresh now and goes stale in exactly one of
 * the reminder days (30, 7 and 1 by default). The daily job runs once a day, so each item is
 * reminded of once per reminder day. An item goes stale when its age passes the control's window
 * for its kind, or at its `expiresAt`, whichever is first (evaluate.ts).
 */
import { dayIn } from './dates.js';
import { entriesOf, indexEvidence, staleAtOf, type CompiledCatalog } from './evaluate.js';
import type { EvidenceItem } from './model.js';

const dayMs = 24 * 60 * 60 * 1000;

export interface ExpiringEvidence {
  controlId: string;
  kind: string;
  subject: string;
  evidenceId: string;
  /** The first day (report time zone) the item no longer counts. */
  staleOn: string;
  daysLeft: number;
}

export function expiringEvidence(
  compiled: CompiledCatalog,
  evidence: readonly EvidenceItem[],
  options: { asOf: Date; timeZone: string; reminderDays: readonly number[] },
): ExpiringEvidence[] {
  const asOf = options.asOf.getTime();
  const index = indexEvidence(evidence, options.asOf, compiled.scanner);
  const reminders: ExpiringEvidence[] = [];
  for (const control of compiled.catalog.controls) {
    for (const requirement of control.evidence) {
      for (const entry of entriesOf(control, requirement.kind, index)) {
        // The last instant it counts: its age may reach the window exactly, its expiry may not be reached.
        const lastFresh = staleAtOf(entry, requirement.freshnessDays) - 1;
        if (lastFresh < asOf) continue;
        const daysLeft = Math.ceil((lastFresh - asOf) / dayMs);
        if (!options.reminderDays.includes(daysLeft) || daysLeft >= requirement.freshnessDays) continue;
        const staleAt = lastFresh + 1;
        reminders.push({
          controlId: control.id,
          kind: requirement.kind,
          subject: entry.item.subject,
          evidenceId: entry.item.id,
          staleOn: dayIn(options.timeZone, new Date(staleAt)),
          daysLeft,
        });
      }
    }
  }
  return reminders;
}
