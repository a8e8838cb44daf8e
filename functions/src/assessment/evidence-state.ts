/**
 * What evaluation needs from the whole history of evidence, in O(live subjects): for each kind
 * and subject (and, for attestations, each control and subject) the newest item collected before
 * the state's `asOf` — the item evaluate.ts would pick — plus every item collected at or after
 * `asOf`, which a later evaluation may still pick, and the items that carry the texts of a
 * scanner finding's other resources (`resourceCount`, common/ocsf-findings.ts) while one of
 * those names them.
 *
 * Folding is associative: the state of A ∪ B is the state of A with B added, in any order, so a
 * day's state is yesterday's checkpoint plus the items received since. Moving `asOf` forward
 * settles the items it passes. Evaluating a state's items gives the same report, byte for byte,
 * as evaluating every item ever received (test/unit/assessment/evidence-state.test.ts).
 *
 * The state holds at most a budget of bytes (the items as stored JSON): the daily job, the first
 * read of today and analyses hold it whole, and the functions' memory is set for it
 * (functions/src/index.ts). An item that would take the state past its budget is set aside, not
 * held, and counted by what reads it, so that every control reading such evidence fails with a
 * finding that says why (evaluate.ts) rather than pass on what was left: the report is still made
 * and announced, and shows where it is incomplete. Which items are set aside depends on the order
 * they are added in; a state over its budget is therefore never saved as a checkpoint
 * (evidence-snapshot.ts), so each run starts again from the last complete one.
 */
import type { EvidenceItem, SetAsideEvidence } from './model.js';
import { isTextCarrier, textsInOf } from './scanner-findings.js';

/**
 * The budget: 64 MiB of items as stored JSON, about 150,000 items of an identity provider's
 * users. Held parsed, with the evaluation's indexes and the garbage a run leaves until the next
 * collection, the daily job's heap peaks at up to four times as much (items of many small fields;
 * long strings cost about their own size). Node gives a process a quarter of its instance's memory
 * for its heap, so the functions that hold a state get 2 GiB (functions/src/index.ts).
 */
export const maxLiveEvidenceBytes = 64 * 1024 * 1024;
/** Distinct keys the set-aside counts keep; attestations beyond it count under every control. */
const maxSetAsideKeys = 1_000;

interface Entry {
  item: EvidenceItem;
  collected: number;
  bytes: number;
  /** The keys, lists and maps of the state that hold this entry; its bytes count while there is one. */
  holds: number;
}

/** The same order as evaluate.ts: later `collectedAt` wins, then the greater id. */
function isNewer(candidate: Entry, current: Entry | undefined): boolean {
  if (!current) return true;
  if (candidate.collected !== current.collected) return candidate.collected > current.collected;
  return candidate.item.id > current.item.id;
}

/**
 * The keys evaluation looks an item up by; none for an attestation that names no control. A
 * scanner finding is the newest of its check on its resource, whichever controls it counts for.
 */
function keysOf(item: EvidenceItem): string[] {
  if (item.kind === 'scanner.finding') return [`${item.kind}\u0001${String(item.data['check'])}\u0001${item.subject}`];
  if (item.kind !== 'attestation') return [`${item.kind}\u0001${item.subject}`];
  return (item.controls ?? []).map((control) => `attestation\u0001${control}\u0001${item.subject}`);
}

/** What reads an item, for counting it when it is set aside: its kind, or for an attestation each control it names. */
function readersOf(item: EvidenceItem): string[] {
  if (item.kind !== 'attestation') return [item.kind];
  return (item.controls ?? []).map((control) => `attestation\u0001${control}`);
}

/** An item's bytes as stored JSON, for a caller that did not read it from storage. */
export const storedBytes = (item: EvidenceItem) => Buffer.byteLength(JSON.stringify(item));

export class EvidenceState {
  #asOf: number;
  readonly #budget: number;
  #bytes = 0;
  readonly #newest = new Map<string, Entry>();
  #future: Entry[] = [];
  /** Every text carrier added, by id: whether one is still named is known only once all are added (`items`). */
  readonly #carriers = new Map<string, Entry>();
  readonly #setAside = new Map<string, number>();
  #setAsideItems = 0;
  #setAsideBytes = 0;

  constructor(asOf: number, budgetBytes = maxLiveEvidenceBytes) {
    this.#asOf = asOf;
    this.#budget = budgetBytes;
  }

  get asOf(): number {
    return this.#asOf;
  }

  /** Bytes of the items held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** What was set aside to keep to the budget; undefined when nothing was. */
  get setAside(): SetAsideEvidence | undefined {
    if (this.#setAsideItems === 0) return undefined;
    return {
      items: this.#setAsideItems,
      bytes: this.#setAsideBytes,
      budgetBytes: this.#budget,
      byReader: new Map(this.#setAside),
    };
  }

  /** Adds an item; `bytes` is its size as stored, when the caller read it from storage. */
  add(item: EvidenceItem, bytes = storedBytes(item)): void {
    this.#place({ item, collected: Date.parse(item.collectedAt), bytes, holds: 0 });
  }

  #place(entry: Entry): void {
    const future = !(entry.collected < this.#asOf);
    const carrier = isTextCarrier(entry.item) && !this.#carriers.has(entry.item.id);
    const won = future ? [] : keysOf(entry.item).filter((key) => isNewer(entry, this.#newest.get(key)));
    if (!future && !carrier && won.length === 0) return;
    const growth = this.#growth(entry, won);
    if (growth > 0 && this.#bytes + growth > this.#budget) return this.#putAside(entry);
    if (future) {
      this.#future.push(entry);
      this.#hold(entry);
    }
    for (const key of won) {
      const displaced = this.#newest.get(key);
      this.#newest.set(key, entry);
      this.#hold(entry);
      if (displaced) this.#release(displaced);
    }
    if (carrier) {
      this.#carriers.set(entry.item.id, entry);
      this.#hold(entry);
    }
  }

  /** How many bytes holding `entry` under the keys it `won` would add, less those its displacing others frees. */
  #growth(entry: Entry, won: readonly string[]): number {
    const lost = new Map<Entry, number>();
    for (const key of won) {
      const displaced = this.#newest.get(key);
      if (displaced) lost.set(displaced, (lost.get(displaced) ?? 0) + 1);
    }
    let freed = 0;
    for (const [displaced, holds] of lost) if (displaced.holds === holds) freed += displaced.bytes;
    return (entry.holds === 0 ? entry.bytes : 0) - freed;
  }

  #hold(entry: Entry): void {
    if (entry.holds++ === 0) this.#bytes += entry.bytes;
  }

  #release(entry: Entry): void {
    if (--entry.holds === 0) this.#bytes -= entry.bytes;
  }

  #putAside({ item, bytes }: Entry): void {
    this.#setAsideItems++;
    this.#setAsideBytes += bytes;
    for (let reader of readersOf(item)) {
      if (!this.#setAside.has(reader) && this.#setAside.size >= maxSetAsideKeys) reader = 'attestation\u0001*';
      this.#setAside.set(reader, (this.#setAside.get(reader) ?? 0) + 1);
    }
  }

  /** Moves `asOf` forward (never back: items passed over earlier are gone). */
  advance(asOf: number): void {
    if (asOf < this.#asOf) throw new RangeError(`a state as of ${this.#asOf} cannot go back to ${asOf}`);
    this.#asOf = asOf;
    const future = this.#future;
    this.#future = [];
    // Let go of them all first, so placing them again never finds the state fuller than before.
    for (const entry of future) this.#release(entry);
    for (const entry of future) this.#place(entry);
  }

  /**
   * Each item the state holds, once, in a fixed order (for stable serialisation): the newest
   * per key, those collected after `asOf`, and the text carriers one of them names.
   */
  items(): EvidenceItem[] {
    const distinct = new Set<EvidenceItem>();
    for (const { item } of this.#newest.values()) distinct.add(item);
    for (const { item } of this.#future) distinct.add(item);
    const named = new Set<string>();
    for (const item of distinct) {
      const carrier = textsInOf(item);
      if (carrier !== undefined) named.add(carrier);
    }
    for (const [id, { item }] of this.#carriers) if (named.has(id)) distinct.add(item);
    return [...distinct].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.receivedAt < b.receivedAt ? -1 : 1));
  }
}
