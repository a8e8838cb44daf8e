/**
 * What evaluation needs from the whole history of evidence, in O(live subjects): for each kind
 * and subject (and, for attestations, each control and subject) the newest item collected before
 * the state's `asOf` — the item evaluate.ts would pick — plus every item collected at or after
 * `asOf`, which a later evaluation may still pick.
 *
 * Folding is associative: the state of A ∪ B is the state of A with B added, in any order, so a
 * day's state is yesterday's checkpoint plus the items received since. Moving `asOf` forward
 * settles the items it passes. Evaluating a state's items gives the same report, byte for byte,
 * as evaluating every item ever received (test/unit/assessment/evidence-state.test.ts).
 */
import type { EvidenceItem } from './model.js';

interface Entry {
  item: EvidenceItem;
  collected: number;
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

export class EvidenceState {
  #asOf: number;
  readonly #newest = new Map<string, Entry>();
  #future: Entry[] = [];

  constructor(asOf: number) {
    this.#asOf = asOf;
  }

  get asOf(): number {
    return this.#asOf;
  }

  add(item: EvidenceItem): void {
    const entry = { item, collected: Date.parse(item.collectedAt) };
    if (!(entry.collected < this.#asOf)) {
      this.#future.push(entry);
      return;
    }
    for (const key of keysOf(item)) if (isNewer(entry, this.#newest.get(key))) this.#newest.set(key, entry);
  }

  /** Moves `asOf` forward (never back: items passed over earlier are gone). */
  advance(asOf: number): void {
    if (asOf < this.#asOf) throw new RangeError(`a state as of ${this.#asOf} cannot go back to ${asOf}`);
    this.#asOf = asOf;
    const future = this.#future;
    this.#future = [];
    for (const { item } of future) this.add(item);
  }

  /** Each item the state holds, once, in a fixed order (for stable serialisation). */
  items(): EvidenceItem[] {
    const distinct = new Set<EvidenceItem>();
    for (const { item } of this.#newest.values()) distinct.add(item);
    for (const { item } of this.#future) distinct.add(item);
    return [...distinct].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.receivedAt < b.receivedAt ? -1 : 1));
  }

  get size(): number {
    return this.#newest.size + this.#future.length;
  }

  /** A copy, for folding more items into one of the two without touching the other. */
  clone(): EvidenceState {
    const copy = new EvidenceState(this.#asOf);
    for (const [key, entry] of this.#newest) copy.#newest.set(key, entry);
    copy.#future = [...this.#future];
    return copy;
  }
}
