/**
 * What is stored of an exception, and how records of every age are read. An exception is
 * requested (its record), then reviewed once by another person (its review: approved or
 * refused, common/four-eyes.ts), and may be revoked. Records written before requests were
 * reviewed name an `approver` and no `requestedBy`; they stay as written (history is not
 * rewritten) and read as requested and approved at once by that person, not independently.
 */
import { caveats } from '../common/four-eyes.js';
import type { Actor } from '../assessment/model.js';

export interface ExceptionRecord {
  id: string;
  controlId: string;
  /** Null: the whole control. */
  subject: string | null;
  justification: string;
  /** The first day the findings it covers count again. */
  expiresOn: string;
  /** When it was requested. */
  createdAt: string;
  requestedBy: Actor;
}

/** A record as written before requests were reviewed: its requester was its approver. */
type RecordedAtOnce = Omit<ExceptionRecord, 'requestedBy'> & { approver: Actor };

export type Decision = 'approved' | 'refused';

export interface Review {
  decision: Decision;
  at: string;
  by: Actor;
  /** The approver's comment, or why it was refused. */
  comment: string | null;
  /** Whether the reviewer is known to be another person than the requester. */
  independent: boolean;
  /** Why it is not independent; null when it is. */
  caveat: string | null;
}

export interface Revocation {
  at: string;
  by: Actor;
  reason: string | null;
}

export interface StoredException {
  record: ExceptionRecord;
  review: Review | undefined;
  revocation: Revocation | undefined;
}

/** The approval a record written before reviews carries in itself: its approver's, at its creation. */
export const approvalAtOnce = (approver: Actor, at: string): Review => ({
  decision: 'approved',
  at,
  by: approver,
  comment: null,
  independent: false,
  caveat: caveats.recordedAtOnce,
});

/** A record as stored, of either age, with the approval an old one carries (undefined for a new one). */
export function readRecord(data: Buffer): { record: ExceptionRecord; approvedAtOnce: Review | undefined } {
  const stored = JSON.parse(data.toString('utf8')) as ExceptionRecord | RecordedAtOnce;
  if (!('approver' in stored)) return { record: stored, approvedAtOnce: undefined };
  const { approver, ...rest } = stored;
  return { record: { ...rest, requestedBy: approver }, approvedAtOnce: approvalAtOnce(approver, stored.createdAt) };
}
