/**
 * Why a collection run refuses a request, as facts; http/domain-problems.ts words them as
 * problems. Items are named by their index in the request, as evidence-errors.ts does.
 */
import type { collectionRunIncompleteReasons } from '@evident/contract';

/** No run has this id (404). */
export class RunNotFound extends Error {
  readonly runId: string;

  constructor(runId: string) {
    super(`no collection run ${runId}`);
    this.name = 'RunNotFound';
    this.runId = runId;
  }
}

/** The run ended, or expired unfinished, so it takes nothing more (409). */
export class RunEnded extends Error {
  readonly runId: string;
  readonly how: 'complete' | (typeof collectionRunIncompleteReasons)[number];
  /** When it ended, or expired. */
  readonly at: string;

  constructor(runId: string, how: RunEnded['how'], at: string) {
    super(`collection run ${runId} ended (${how}) at ${at}`);
    this.name = 'RunEnded';
    this.runId = runId;
    this.how = how;
    this.at = at;
  }
}

/** An item the run did not open: of another kind, or another source (400). */
export interface RunMismatchIssue {
  item: number;
  field: 'kind' | 'source';
  /** What the run has: its kinds, or its source. */
  expected: readonly string[] | string;
}

export class RunMismatch extends Error {
  readonly runId: string;
  readonly issues: readonly RunMismatchIssue[];

  constructor(runId: string, issues: readonly RunMismatchIssue[]) {
    super(`${issues.length} item(s) outside collection run ${runId}`);
    this.name = 'RunMismatch';
    this.runId = runId;
    this.issues = issues;
  }
}

/** The batch would take the run past what one run receives (409). */
export class RunFull extends Error {
  readonly runId: string;
  readonly limit: 'items' | 'batches';
  readonly max: number;

  constructor(runId: string, limit: 'items' | 'batches', max: number) {
    super(`collection run ${runId} would receive more than ${max} ${limit}`);
    this.name = 'RunFull';
    this.runId = runId;
    this.limit = limit;
    this.max = max;
  }
}

/** Declared counts that do not name exactly the run's kinds (400). */
export class RunCountsRefused extends Error {
  readonly missing: readonly string[];
  readonly extra: readonly string[];

  constructor(missing: readonly string[], extra: readonly string[]) {
    super(`declared counts miss ${missing.join(', ') || 'nothing'} and add ${extra.join(', ') || 'nothing'}`);
    this.name = 'RunCountsRefused';
    this.missing = missing;
    this.extra = extra;
  }
}

/** The run has no population drop of this kind to acknowledge (404). */
export class DropNotFound extends Error {
  readonly runId: string;
  readonly kind: string;

  constructor(runId: string, kind: string) {
    super(`collection run ${runId} has no population drop of ${kind}`);
    this.name = 'DropNotFound';
    this.runId = runId;
    this.kind = kind;
  }
}

/** The drop was acknowledged already; an acknowledgement is never rewritten (409). */
export class DropAcknowledged extends Error {
  readonly runId: string;
  readonly kind: string;
  readonly at: string;

  constructor(runId: string, kind: string, at: string) {
    super(`the population drop of ${kind} in collection run ${runId} was acknowledged at ${at}`);
    this.name = 'DropAcknowledged';
    this.runId = runId;
    this.kind = kind;
    this.at = at;
  }
}
