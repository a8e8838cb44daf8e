/**
 * An object store wrapper that records what was asked of the store underneath, so a test can
 * see exactly which objects a request read, listed or wrote — and hold an operation back or make
 * it fail, to stand in for a slow or dying writer at a precise point.
 */
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';

export type Operation = 'read' | 'stat' | 'create' | 'replace' | 'delete' | 'list';

export interface Call {
  op: Operation;
  name: string;
}

export class RecordingStore implements ObjectStore {
  calls: Call[] = [];
  /** Called before each operation; throw to make it fail, await to hold it back. */
  before: (call: Call) => void | Promise<void> = () => undefined;
  readonly #inner: ObjectStore;

  constructor(inner: ObjectStore) {
    this.#inner = inner;
  }

  /** The calls of one kind since the last `reset`. */
  of(op: Operation): string[] {
    return this.calls.filter((call) => call.op === op).map((call) => call.name);
  }

  reset(): void {
    this.calls = [];
  }

  async #record<T>(op: Operation, name: string, run: () => Promise<T>): Promise<T> {
    const call = { op, name };
    this.calls.push(call);
    await this.before(call);
    return run();
  }

  read(name: string) {
    return this.#record('read', name, () => this.#inner.read(name));
  }
  stat(name: string) {
    return this.#record('stat', name, () => this.#inner.stat(name));
  }
  create(...args: Parameters<ObjectStore['create']>) {
    return this.#record('create', args[0], () => this.#inner.create(...args));
  }
  replace(...args: Parameters<ObjectStore['replace']>) {
    return this.#record('replace', args[0], () => this.#inner.replace(...args));
  }
  delete(...args: Parameters<ObjectStore['delete']>) {
    return this.#record('delete', args[0], () => this.#inner.delete(...args));
  }
  list(...args: Parameters<ObjectStore['list']>) {
    return this.#record('list', args[0], () => this.#inner.list(...args));
  }
}
