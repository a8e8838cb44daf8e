/**
 * Instances of the webhooks family for unit tests of what must hold across instances (the cap on
 * subscriptions, the limit on manual sends): each instance served on loopback over its own handle
 * on the store, with a stand-in queue and resolver, and a folder several can share as one bucket.
 * Everything made is closed and removed after each test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createWebhooksFamily } from '../../functions/src/families/webhooks.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';
import { WebhookKeys } from '../../functions/src/webhooks/webhook-keys.ts';
import { compileCatalogSources } from '../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { fakeVerifier, tableOf } from './families.ts';
import { serve, type Served } from './serve.ts';

export function webhookInstances(): {
  instance(store: () => Promise<ObjectStore>, now?: () => Date): Promise<Served>;
  sharedFolder(): Promise<string>;
} {
  const catalog = compileCatalogSources(paths.catalog);
  const keys = WebhookKeys.parse(WebhookKeys.generate());
  let servers: Served[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((served) => served.close()));
    servers = [];
    await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    async instance(store, now = () => new Date()) {
      const served = await serve(
        createWebhooksFamily({
          store,
          now,
          catalog: () => catalog,
          loadTable: tableOf('webhooks'),
          verifyToken: fakeVerifier(),
          queue: () => ({ enqueue: async () => undefined }),
          policy: () => ({ allowLoopback: false }),
          lookup: async () => [{ address: '93.184.215.14', family: 4 }],
          keys: () => keys,
        }),
      );
      servers.push(served);
      return served;
    },
    async sharedFolder() {
      const dir = await mkdtemp(join(tmpdir(), 'evident-webhooks-'));
      folders.push(dir);
      return dir;
    },
  };
}
