/**
 * Risk acceptance in evaluation: what the exceptions in force on a report's day cover. A pure
 * function of the controls' results and those exceptions (exceptions/exception-store.ts reads them).
 *
 * An exception covers the `fail` and `error` findings of its control for its subject, or every one
 * of them when it names no subject; each covered finding is marked `accepted` with the exception
 * and the day it counts again. A control whose failures are all covered, with no stale or missing
 * evidence besides, is `riskAccepted`: it keeps its status (`failing`: the checks still fail),
 * and counts for neither the score nor readiness, like a scoped-out control, until the exception
 * expires. An exception is in force on the days before its `expiresOn`, in the report's time zone.
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
}

/** Whether an exception is in force on `date`: before the day it expires. */
export const inForceOn = (exception: Pick<ActiveException, 'expiresOn'>, date: string): boolean => date < exception.expiresOn;

const failed = (finding: Finding) => finding.outcome === 'fail' || finding.outcome === 'error';

/** A subject's own exception before a whole-control one, then the one that lasts longest. */
function preferred(a: ActiveException, b: ActiveException): number {
  if ((a.subject === null) !== (b.subject === null)) return a.subject === null ? 1 : -1;
  if (a.expiresOn !== b.expiresOn) return a.expiresOn < b.expiresOn ? 1 : -1;
  return a.id < b.id ? -1 : 1;
}

export function applyExceptions(results: readonly ControlResult[], exceptions: readonly ActiveException[]): ControlResult[] {
  const byControl = new Map<string, ActiveException[]>();
  for (const exception of [...exceptions].sort(preferred)) {
    byControl.set(exception.controlId, [...(byControl.get(exception.controlId) ?? []), exception]);
  }
  // A result assembled before (an analysis republishing today's report) loses what exceptions
  // said then, so a revoked or expired one does not stay applied.
  return results.map(({ riskAccepted: _was, ...result }) => {
    const covering = byControl.get(result.id) ?? [];
    const findings = result.findings.map(({ accepted: _before, ...finding }): Finding => {
      const exception = failed(finding)
        ? covering.find((candidate) => candidate.subject === null || candidate.subject === finding.subject)
        : undefined;
      return exception ? { ...finding, accepted: { exception: exception.id, expiresOn: exception.expiresOn } } : finding;
    });
    const riskAccepted =
      covering.length > 0 &&
      result.status === 'failing' &&
      findings.every((finding) => !failed(finding) || finding.accepted !== undefined) &&
      !findings.some((finding) => finding.outcome === 'stale' || finding.outcome === 'missing');
    return { ...result, findings, ...(riskAccepted ? { riskAccepted } : {}) };
  });
}
