/**
 * Who must act on a control that is not passing, and by when. A pure function of the control's
 * result today and its result in the previous report.
 *
 * A control is open while it is failing, stale or missing evidence. It is open since the first
 * day of the current open run: carried from the previous report while it stays open (whichever
 * of the three statuses), reset when it passes or is scoped out. Days without a report neither
 * break nor extend a run. Its due date is that day plus the days its severity allows (the
 * deployment's settings; 7, 30, 90 and 180 by default), and it is overdue on any later day.
 */
import { isOpenStatus, type Severity } from '@evident/contract';
export { defaultDueDays } from '@evident/contract';
import { addDays } from './dates.js';
import type { ControlResult } from './model.js';

export type DueDays = Readonly<Record<Severity, number>>;

export interface FollowUp {
  openSince: string;
  dueDate: string;
  overdue: boolean;
}

/**
 * The follow-up of a control on `date`, or undefined when it is not open. `previous` is its
 * result in the newest report before `date`, if that report assessed it; a result stored before
 * open runs were recorded counts as open since that report's day.
 */
export function followUpOf(
  date: string,
  result: Pick<ControlResult, 'status' | 'severity'>,
  previous: { date: string; result: Pick<ControlResult, 'status' | 'openSince'> | undefined } | undefined,
  dueDays: DueDays,
): FollowUp | undefined {
  if (!isOpenStatus(result.status)) return undefined;
  const carried =
    previous?.result && isOpenStatus(previous.result.status) ? (previous.result.openSince ?? previous.date) : undefined;
  const openSince = carried ?? date;
  const dueDate = addDays(openSince, dueDays[result.severity]);
  return { openSince, dueDate, overdue: date > dueDate };
}
