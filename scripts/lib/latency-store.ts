/**
 * An object store wrapper for benchmarks and tests that counts calls by kind and charges each
 * request the Cloud Storage driver would make for them Cloud Storage's latency in virtual time,
 * so a run reports what its access pattern would cost against the bucket (`elapsedMs`) however
 * fast this machine serves the inner store.
 *
 * The model: every request takes `latencyMs` of virtual time, and at most `maxInFlight` are in
 * flight at once; later ones wait for a slot, first come first served. A call is the requests
 * the driver makes for it (functions/src/storage/cloud-storage-requests.ts, held to the driver by
 * its tests): one, or for a `read` whose custom metadata headers cannot carry, two one after the
 * other (`requests` counts them; `counts`, the calls). A call reaches the
 * inner store, and its promise settles, only when the virtual clock gets to its completion
 * time. The clock is a discrete-event clock: it jumps to the earliest pending completion when
 * the process has nothing else to do — on `setImmediate`, after the microtasks that the last
 * completions set off have run, including every call they made — and completes together all
 * calls due at that time. So 1,000 reads issued 32 at a time cost 32 × 25 ms, and 250 at once
 * through 100 slots cost 3 × 25 ms.
 *
 * Its limits: CPU time is not simulated (computing between calls costs no virtual time). A
 * caller awaiting real I/O or a timer is charged nothing for the wait itself, but the clock
 * runs on through other calls in flight meanwhile, so its next call starts at whatever
 * virtual time they reached; the inner store's own work, by contrast, is awaited before the
 * clock moves on. Cloud Storage's latency varies, lists and large objects take longer, and a
 * single object takes about one write a second: none of that is modelled.
 */
import { cloudStorageRequests } from '../../functions/src/storage/cloud-storage-requests.ts';
import type {
  ListOptions,
  ObjectInfo,
  ObjectPage,
  ObjectStore,
  StoredObject,
  WriteOptions,
} from '../../functions/src/storage/object-store.ts';

export type Operation = 'read' | 'stat' | 'create' | 'replace' | 'delete' | 'list';
export type OperationCounts = Record<Operation, number>;

export interface LatencyOptions {
  /** Virtual milliseconds every call takes (default 25). */
  latencyMs?: number;
  /** Calls in flight at once; later ones wait for a slot, in order (default 100). */
  maxInFlight?: number;
}

interface Call {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Virtual time at which it completes, once it has a slot. */
  completesAt: number;
}

/** A first-in first-out queue whose `shift` is O(1), for the millions of calls a benchmark may queue. */
class Queue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}

const noCalls = (): OperationCounts => ({ read: 0, stat: 0, create: 0, replace: 0, delete: 0, list: 0 });

export class LatencyStore implements ObjectStore {
  readonly inner: ObjectStore;
  readonly latencyMs: number;
  readonly maxInFlight: number;
  #now = 0;
  #origin = 0;
  #counts = noCalls();
  #requests = noCalls();
  readonly #waiting = new Queue<Call>();
  /** Calls holding a slot, in order of completion: every call takes the same time, so that is the order they started in. */
  readonly #inFlight = new Queue<Call>();
  /** Completed calls whose work in the inner store has not settled yet. */
  #settling = 0;
  #tickPending = false;

  constructor(inner: ObjectStore, options: LatencyOptions = {}) {
    this.inner = inner;
    this.latencyMs = options.latencyMs ?? 25;
    this.maxInFlight = options.maxInFlight ?? 100;
    if (!(this.latencyMs >= 0)) throw new RangeError('latencyMs must be 0 or more');
    if (!Number.isInteger(this.maxInFlight) || this.maxInFlight < 1)
      throw new RangeError('maxInFlight must be a positive integer');
  }

  /** Calls made since construction or the last `reset`, by kind. */
  get counts(): OperationCounts {
    return { ...this.#counts };
  }

  /** Requests charged since construction or the last `reset`, by the kind of call that made them. */
  get requests(): OperationCounts {
    return { ...this.#requests };
  }

  /** Virtual milliseconds since construction or the last `reset`. */
  get elapsedMs(): number {
    return this.#now - this.#origin;
  }

  /** Starts counting calls and time from zero; calls in flight carry on. */
  reset(): void {
    this.#counts = noCalls();
    this.#requests = noCalls();
    this.#origin = this.#now;
  }

  read(name: string): Promise<StoredObject> {
    return this.#call('read', () => this.inner.read(name));
  }

  stat(name: string): Promise<ObjectInfo> {
    return this.#call('stat', () => this.inner.stat(name));
  }

  create(name: string, data: Buffer | string, options?: WriteOptions): Promise<ObjectInfo> {
    return this.#call('create', () => this.inner.create(name, data, options));
  }

  replace(name: string, data: Buffer | string, ifGeneration: string, options?: WriteOptions): Promise<ObjectInfo> {
    return this.#call('replace', () => this.inner.replace(name, data, ifGeneration, options));
  }

  delete(name: string, options?: { ifGeneration?: string }): Promise<void> {
    return this.#call('delete', () => this.inner.delete(name, options));
  }

  list(prefix: string, options?: ListOptions): Promise<ObjectPage> {
    return this.#call('list', () => this.inner.list(prefix, options));
  }

  /** A call: its first request reaches the inner store; the driver's further requests for it follow. */
  async #call<T>(operation: Operation, run: () => Promise<T>): Promise<T> {
    this.#counts[operation] += 1;
    this.#requests[operation] += 1;
    const result = await this.#request(run);
    for (let more = cloudStorageRequests(operation, result) - 1; more > 0; more--) {
      this.#requests[operation] += 1;
      await this.#request(async () => undefined);
    }
    return result;
  }

  /** One request's latency, after which `run` reaches the inner store. */
  #request<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: Call = { run, resolve: resolve as (value: unknown) => void, reject, completesAt: 0 };
      if (this.#inFlight.length < this.maxInFlight) this.#start(call);
      else this.#waiting.push(call);
      this.#scheduleTick();
    });
  }

  #start(call: Call): void {
    call.completesAt = this.#now + this.latencyMs;
    this.#inFlight.push(call);
  }

  /** Asks for the clock to move once the process is idle; not while completed work is still settling. */
  #scheduleTick(): void {
    if (this.#tickPending || this.#settling > 0 || this.#inFlight.length === 0) return;
    this.#tickPending = true;
    setImmediate(() => this.#tick());
  }

  /** Moves the clock to the next completion, frees the slots of the calls due then and runs them. */
  #tick(): void {
    this.#tickPending = false;
    const next = this.#inFlight.peek();
    if (next === undefined) return;
    this.#now = next.completesAt;
    const due: Call[] = [];
    while (this.#inFlight.peek()?.completesAt === this.#now) due.push(this.#inFlight.shift()!);
    while (this.#waiting.length > 0 && this.#inFlight.length < this.maxInFlight) this.#start(this.#waiting.shift()!);
    this.#settling += due.length;
    // Started in order, so the inner store sees the calls' effects in the order they were made.
    for (const call of due) {
      let work: Promise<unknown>;
      try {
        work = call.run();
      } catch (error) {
        work = Promise.reject(error);
      }
      work.then(call.resolve, call.reject).finally(() => {
        this.#settling -= 1;
        this.#scheduleTick();
      });
    }
  }
}
