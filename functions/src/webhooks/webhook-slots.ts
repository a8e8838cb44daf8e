/**
 * A fixed number of slots under a prefix, each an empty object whose metadata says who holds it
 * (`<prefix><nn>`, nn from 00). A slot is taken with a generation precondition: created when it
 * does not exist, or replaced at the generation that was read when its holder is gone. Two
 * takers of one slot cannot both succeed, on one instance or many, so a count kept in slots
 * holds whatever the concurrency; and no slot is a hot object every taker writes, as a counter
 * would be (Cloud Storage takes about one write a second per object).
 */
import { listAll, PreconditionFailed, ObjectNotFound, type ObjectInfo, type ObjectStore } from '../storage/object-store.js';

/** A slot that may be taken: missing, or held at `generation` by a holder that is gone. */
export interface FreeSlot {
  number: number;
  generation?: string;
}

export class SlotSet {
  readonly #store: ObjectStore;
  readonly #prefix: string;
  readonly count: number;

  constructor(store: ObjectStore, prefix: string, count: number) {
    this.#store = store;
    this.#prefix = prefix;
    this.count = count;
  }

  #name(number: number): string {
    return `${this.#prefix}${String(number).padStart(2, '0')}`;
  }

  /** The slots held now, by number, with their metadata (one listing: at most `count` names). */
  async held(): Promise<Map<number, ObjectInfo>> {
    const found = new Map<number, ObjectInfo>();
    for (const info of await listAll(this.#store, this.#prefix)) {
      const number = Number(info.name.slice(this.#prefix.length));
      if (Number.isInteger(number) && number >= 0 && number < this.count) found.set(number, info);
    }
    return found;
  }

  /**
   * Takes one of `free`, trying them in random order so that concurrent takers seldom collide;
   * the number taken, or undefined when every one was taken by someone else first.
   */
  async take(free: readonly FreeSlot[], metadata: Record<string, string>): Promise<number | undefined> {
    for (const slot of shuffled(free)) {
      try {
        const name = this.#name(slot.number);
        if (slot.generation === undefined) await this.#store.create(name, '', { metadata });
        else await this.#store.replace(name, '', slot.generation, { metadata });
        return slot.number;
      } catch (error) {
        if (!(error instanceof PreconditionFailed || error instanceof ObjectNotFound)) throw error;
      }
    }
    return undefined;
  }

  /** Frees a slot, only at `generation` when given; whoever freed or took it since is left alone. */
  async release(number: number, generation?: string): Promise<void> {
    try {
      await this.#store.delete(this.#name(number), generation === undefined ? {} : { ifGeneration: generation });
    } catch (error) {
      if (!(error instanceof PreconditionFailed || error instanceof ObjectNotFound)) throw error;
    }
  }
}

function shuffled<T>(values: readonly T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
