/**
 * Where exceptions live in the object store. Four kinds of object:
 *
 * - `exceptions/expires=<YYYY-MM-DD>/<id>.json`: each exception, written create-only and never
 *   changed, named by the day it expires (its id names that day too, so one is one read);
 * - `exception-reviews/expires=<YYYY-MM-DD>/<id>.json`: its approval or refusal, create-only, so of
 *   two people reviewing it at once one wins and the other is refused by the store itself; its
 *   decision is in its metadata, so a listing of refused ones reads no object it does not show;
 * - `exception-revocations/expires=<YYYY-MM-DD>/<id>.json`: its revocation, create-only, so
 *   revoking twice is refused by the store itself;
 * - `exception-index/<controlId>.json`: the control's open exceptions (exception-index.ts),
 *   replaced by compare-and-swap; what the daily job, the active listing and the cap read.
 *
 * An exception id is `exc-<expiry day>-<10 hex>`, all of one length, so ids, names under either
 * prefix and expiry days sort alike: a listing in name order is a listing soonest expiry first,
 * and an id is the place to continue from. Records and revocations carry their control in their
 * metadata, so a listing by control skips the others without reading them.
 */
import { randomBytes } from 'node:crypto';
import { exceptionIdPattern } from '@evident/contract';
import type { WriteOptions } from '../storage/object-store.js';

export const recordsPrefix = 'exceptions/';
export const revocationsPrefix = 'exception-revocations/';
export const reviewsPrefix = 'exception-reviews/';
export const indexPrefix = 'exception-index/';

/** `exc-20270301-<10 hex>`: the day it expires, then randomness. */
export function newExceptionId(expiresOn: string): string {
  return `exc-${expiresOn.replaceAll('-', '')}-${randomBytes(5).toString('hex')}`;
}

const idShape = new RegExp(exceptionIdPattern);

/** Whether text is an exception id (a listing's place is one). */
export const isExceptionId = (text: string): boolean => idShape.test(text);

export const expiresOnOf = (id: string): string => `${id.slice(4, 8)}-${id.slice(8, 10)}-${id.slice(10, 12)}`;

/** The partition of the day `date` under a prefix: every name of an exception expiring on or after it sorts from here. */
export const dayStart = (prefix: string, date: string): string => `${prefix}expires=${date}/`;

export const recordName = (id: string): string => `${dayStart(recordsPrefix, expiresOnOf(id))}${id}.json`;
export const revocationName = (id: string): string => `${dayStart(revocationsPrefix, expiresOnOf(id))}${id}.json`;
export const reviewName = (id: string): string => `${dayStart(reviewsPrefix, expiresOnOf(id))}${id}.json`;
export const indexName = (controlId: string): string => `${indexPrefix}${controlId}.json`;

/** The id a record's or a revocation's name holds. */
export const idOfName = (name: string): string => name.slice(name.lastIndexOf('/') + 1, -'.json'.length);

/** The first name under `prefix` after the exception `id`'s: ids are of one length, so nothing between is another's. */
export const nameAfterId = (prefix: string, id: string): string => `${dayStart(prefix, expiresOnOf(id))}${id}.json!`;

/** How a record, a review or a revocation of the control is written: JSON, its control (and any more facts) in the metadata. */
export const writeOptionsFor = (controlId: string, more: Record<string, string> = {}): WriteOptions => ({
  contentType: 'application/json',
  metadata: { controlId, ...more },
});
