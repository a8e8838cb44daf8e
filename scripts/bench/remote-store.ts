/**
 * An object store in another process, over Node's IPC channel, for the storage benchmark: the
 * store holding years of history lives in one process and the run being measured in another,
 * so the measured process's memory is the run's own. `serveStores` answers on one side;
 * `RemoteStore` asks on the other and rebuilds the store's errors as the functions' own classes
 * (the code under test tells them apart with `instanceof`).
 */
import type { ChildProcess } from 'node:child_process';
import type * as ObjectStoreModule from '../../functions/src/storage/object-store.ts';
import type {
  ListOptions,
  ObjectInfo,
  ObjectPage,
  ObjectStore,
  StoredObject,
  WriteOptions,
} from '../../functions/src/storage/object-store.ts';
import { compiled } from '../lib/compiled.ts';

type Operation = 'read' | 'stat' | 'create' | 'replace' | 'delete' | 'list';

interface Request {
  kind: 'store-call';
  id: number;
  store: string;
  operation: Operation;
  args: unknown[];
}

interface Reply {
  kind: 'store-reply';
  id: number;
  result?: unknown;
  error?: { name: string; message: string; objectName?: string; expected?: string };
}

interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Answers another process's calls on the named stores, until the channel closes. */
export function serveStores(child: ChildProcess, stores: Record<string, ObjectStore>): void {
  child.on('message', (message: unknown) => {
    const request = message as Request;
    if (request?.kind !== 'store-call') return;
    const store = stores[request.store]!;
    const method = store[request.operation] as (...args: unknown[]) => Promise<unknown>;
    method.apply(store, request.args).then(
      (result) => child.connected && child.send({ kind: 'store-reply', id: request.id, result } satisfies Reply),
      (error: Error & { objectName?: string }) =>
        child.connected &&
        child.send({
          kind: 'store-reply',
          id: request.id,
          error: { name: error.name, message: error.message, ...(error.objectName ? { objectName: error.objectName } : {}) },
        } satisfies Reply),
    );
  });
}

export async function remoteStore(channel: Channel, store: string): Promise<ObjectStore> {
  const { ObjectNotFound, PreconditionFailed } = await compiled<typeof ObjectStoreModule>('storage/object-store.js');
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (reason: unknown) => void }>();
  let next = 0;
  channel.on('message', (message) => {
    const reply = message as Reply;
    if (reply?.kind !== 'store-reply') return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (!reply.error) return waiter.resolve(reply.result);
    const { name, message: text, objectName = '' } = reply.error;
    if (name === 'ObjectNotFound') return waiter.reject(new ObjectNotFound(objectName));
    if (name === 'PreconditionFailed') return waiter.reject(new PreconditionFailed(objectName, ''));
    waiter.reject(Object.assign(new Error(text), { name }));
  });
  const call = <T>(operation: Operation, ...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      channel.send({ kind: 'store-call', id, store, operation, args } satisfies Request);
    });
  /** Buffers arrive as Uint8Arrays: made Buffers again, as the drivers give them. */
  const asBuffer = (object: StoredObject): StoredObject => ({ ...object, data: Buffer.from(object.data) });
  return {
    read: async (name: string) => asBuffer(await call<StoredObject>('read', name)),
    stat: (name: string) => call<ObjectInfo>('stat', name),
    create: (name: string, data: Buffer | string, options?: WriteOptions) => call<ObjectInfo>('create', name, data, options),
    replace: (name: string, data: Buffer | string, ifGeneration: string, options?: WriteOptions) =>
      call<ObjectInfo>('replace', name, data, ifGeneration, options),
    delete: (name: string, options?: { ifGeneration?: string }) => call<void>('delete', name, options),
    list: (prefix: string, options?: ListOptions) => call<ObjectPage>('list', prefix, options),
  };
}
