/**
 * Risk acceptance in evaluation: what the exceptions in force on a report's day cover. A pure
 * function of the controls' results and those exceptions (exceptions/exception-store.ts reads them).
 *
 * An exception covers the `fail` and `error` findings of its control for its subject, or every one
 * of them when it names no subject; each covered finding is marked `accepted` with the exception
 * and the day it counts again. A control whose failures are all covered, with no stale or missing
 * evidence besides, is `riskAccepted`: it keeps its status (`failing`: the checks still fail),
 * and counts for neither the score nor readiness, like a scoped-out control, until the exception
 * expires. An exception is in force on the days before its `expiresOn`, in the report's time zone;
 * only approved ones are handed in (a request awaiting review, or refused, covers nothing).
 */
import type { Actor, ControlResult, Finding } from './model.js';

export interface ActiveException {
  id: string;
  controlId: string;
  /** Null: the whole control. */
  subject: string | null;
  /** The first day the findings it covers count again. */
  expiresOn: string;
  approver: Actor;
  requestedBy: Actor;
  /** Whether the approver is known to be another person than the requester (common/four-eyes.ts). */
  independent: boolean;
}

/** Whether an exception is in force on `date`: before the day it expires. */
export const inForceOn = (exception: Pick<ActiveException, 'expiresOn'>, date: string): boolean => date < exception.expiresOn;

const failed = (finding: Finding) => finding.outcome === 'fail' || finding.outcome === 'error';

/** Of two exceptions for the same subject (or both for the whole control), whether `a` wins: it lasts longer, or has the smaller id. */
const outlasts = (a: ActiveException, b: ActiveException): boolean =>
  a.expiresOn !== b.expiresOn ? a.expiresOn > b.expiresOn : a.id < b.id;

/** What covers one control's findings: each subject's own exception, and a whole-control one. */
interface Covering {
  bySubject: Map<string, ActiveException>;
  whole: ActiveException | undefined;
}

/**
 * One pass over the exceptions, keeping per control and subject only the one that wins, so the
 * work is linear in their number (an exception each for tens of thousands of subjects is a
 * normal day, not a worst case).
 */
function coveringByControl(exceptions: readonly ActiveException[]): Map<string, Covering> {
  const byControl = new Map<string, Covering>();
  for (const exception of exceptions) {
    const { controlId, subject } = exception;
    let covering = byControl.get(controlId);
    if (!covering) byControl.set(controlId, (covering = { bySubject: new Map(), whole: undefined }));
    if (subject === null) {
      if (!covering.whole || outlasts(exception, covering.whole)) covering.whole = exception;
    } else {
      const current = covering.bySubject.get(subject);
      if (!current || outlasts(exception, current)) covering.bySubject.set(subject, exception);
    }
  }
  return byControl;
}

/** The exception a finding falls under: its subject's own before a whole-control one, then the one that lasts longest. */
const coveringOf = (covering: Covering, finding: Finding): ActiveException | undefined =>
  (finding.subject !== undefined ? covering.bySubject.get(finding.subject) : undefined) ?? covering.whole;

export function applyExceptions(results: readonly ControlResult[], exceptions: readonly ActiveException[]): ControlResult[] {
  const byControl = coveringByControl(exceptions);
  // A result assembled before (an analysis republishing today's report) loses what exceptions
  // said then, so a revoked or expired one does not stay applied.
  return results.map(({ riskAccepted: _was, ...result }) => {
    const covering = byControl.get(result.id);
    const findings = result.findings.map(({ accepted: _before, ...finding }): Finding => {
      const exception = covering && failed(finding) ? coveringOf(covering, finding) : undefined;
      return exception ? { ...finding, accepted: { exception: exception.id, expiresOn: exception.expiresOn } } : finding;
    });
    const riskAccepted =
      covering !== undefined &&
      result.status === 'failing' &&
      findings.every((finding) => !failed(finding) || finding.accepted !== undefined) &&
      !findings.some((finding) => finding.outcome === 'stale' || finding.outcome === 'missing');
    return { ...result, findings, ...(riskAccepted ? { riskAccepted } : {}) };
  });
}
