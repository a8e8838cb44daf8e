/**
 * Why evidence ingest refuses a request, as facts: which item (by its index in the request),
 * which of its fields, what limit or which other item. The HTTP core words them as problems
 * (http/domain-problems.ts) and knows where the items sit in the request body; the store and
 * the migration only need to tell one refusal from another.
 */

/** Something wrong with one item of a request, found before anything is written. */
export type EvidenceIssue =
  /** The item's id is that of an earlier item in the same request. */
  | { item: number; field: 'id'; repeats: number }
  /** The item's `data` nests deeper than the limit. */
  | { item: number; field: 'data'; maxDepth: number };

/** The request breaks a rule of its own items (400): every item at fault is listed. */
export class EvidenceRejected extends Error {
  readonly issues: readonly EvidenceIssue[];

  constructor(issues: readonly EvidenceIssue[]) {
    super(`${issues.length} evidence item(s) refused: ${issues.map((issue) => `item ${issue.item} ${issue.field}`).join(', ')}`);
    this.name = 'EvidenceRejected';
    this.issues = issues;
  }
}

/** Items whose `data` is larger than one item may be (413). */
export class EvidenceTooLarge extends Error {
  readonly items: readonly { item: number; bytes: number }[];
  readonly maxBytes: number;

  constructor(items: readonly { item: number; bytes: number }[], maxBytes: number) {
    super(`${items.length} evidence item(s) larger than ${maxBytes} bytes`);
    this.name = 'EvidenceTooLarge';
    this.items = items;
    this.maxBytes = maxBytes;
  }
}

/**
 * An item's id is taken by different content (409): it `exists` already, or another request
 * `raced` this one and stored it first.
 */
export class EvidenceConflict extends Error {
  readonly id: string;
  readonly how: 'exists' | 'raced';

  constructor(id: string, how: 'exists' | 'raced') {
    super(`evidence item ${id} ${how === 'exists' ? 'exists' : 'was just stored'} with different content`);
    this.name = 'EvidenceConflict';
    this.id = id;
    this.how = how;
  }
}

/**
 * The request stored nothing and may simply be sent again (503): it took longer than a commit
 * may (`too_slow`), or another request holds some of its items and has not finished (`peer_pending`).
 */
export class EvidenceInFlight extends Error {
  readonly why: 'too_slow' | 'peer_pending';

  constructor(why: 'too_slow' | 'peer_pending') {
    super(why === 'too_slow' ? 'the commit took too long and was withdrawn' : 'a concurrent request holds some items');
    this.name = 'EvidenceInFlight';
    this.why = why;
  }
}

/** The `Idempotency-Key` was first used for a request with other items (409). */
export class EvidenceKeyReused extends Error {
  constructor() {
    super('the idempotency key was used for a different request');
    this.name = 'EvidenceKeyReused';
  }
}

/** Where a scanner's file cannot be read: the line a finding starts on and, in an array, its index. */
export interface ScanProblem {
  line: number;
  index?: number;
  message: string;
}

/** A scanner's output that cannot be imported whole (400): every finding at fault, up to a limit. */
export class ScanUnreadable extends Error {
  readonly problems: readonly ScanProblem[];
  /** Problems found beyond those listed. */
  readonly more: number;

  constructor(problems: readonly ScanProblem[], more: number) {
    super(`${problems.length + more} finding(s) cannot be read`);
    this.name = 'ScanUnreadable';
    this.problems = problems;
    this.more = more;
  }
}

/** Which limit of one import a scanner's file crossed (`@evident/contract`). */
export type ScanLimit = 'findings' | 'items' | 'bytes';

/**
 * A scanner's file that makes more than one import may store (413): the limit it crossed, and
 * the line of the finding that crossed it. Reading stopped there; nothing was stored.
 */
export class ScanTooLarge extends Error {
  readonly limit: ScanLimit;
  readonly max: number;
  readonly line: number;

  constructor(limit: ScanLimit, max: number, line: number) {
    super(`the scan makes more than ${max} ${limit}`);
    this.name = 'ScanTooLarge';
    this.limit = limit;
    this.max = max;
    this.line = line;
  }
}
