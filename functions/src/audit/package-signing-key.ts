/**
 * The key audit packages are signed with, and where its public half is published.
 *
 * The private key is the secret `AUDIT_SIGNING_KEY` (config.ts), given only to the function that
 * builds packages; locally the emulator setup writes one of this machine's own into
 * `functions/.secret.local` (scripts/lib/emulators.ts). Each package build publishes the public
 * key it signs with, create-only, as `audit-signing-keys/<fingerprint>.json`, so
 * `GET /api/audit/signing-key` — public, served by a function that never holds the secret —
 * lists every key a package was ever signed with, newest first: a rotated key still verifies
 * the packages it signed.
 */
import type { KeyObject } from 'node:crypto';
import { listAll, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import { publishedKeyOf, type PublishedKey } from './package-signature.js';

export const signingKeysPrefix = 'audit-signing-keys/';

export type PublicationOfKey = PublishedKey & { publishedAt: string };

/** Publishes the public half of `key` unless it is published already; what is published. */
export async function publishSigningKey(store: ObjectStore, key: KeyObject, now: Date): Promise<PublishedKey> {
  const published = publishedKeyOf(key);
  const record: PublicationOfKey = { ...published, publishedAt: now.toISOString() };
  try {
    await store.create(`${signingKeysPrefix}${published.fingerprint}.json`, JSON.stringify(record), {
      contentType: 'application/json',
      metadata: { publishedAt: record.publishedAt },
    });
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
  }
  return published;
}

/** Every key published, newest first (there are a few: one per rotation). */
export async function publishedSigningKeys(store: ObjectStore): Promise<PublicationOfKey[]> {
  const listed = await listAll(store, signingKeysPrefix);
  const keys = await Promise.all(
    listed.map(async ({ name }) => JSON.parse((await store.read(name)).data.toString('utf8')) as PublicationOfKey),
  );
  return keys.sort((a, b) =>
    a.publishedAt > b.publishedAt ? -1 : a.publishedAt < b.publishedAt ? 1 : a.fingerprint < b.fingerprint ? -1 : 1,
  );
}
