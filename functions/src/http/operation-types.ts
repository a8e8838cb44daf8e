/**
 * Types that tie each handler to its operation in the generated API types: the handler gets
 * exactly the operation's validated parameters and body, and must return one of its declared
 * success responses.
 */
import type { Readable } from 'node:stream';
import type { StreamEvent } from '../common/event-feed.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { operations } from '../generated/api-types.js';
import type { FamilyOperations, QueryDefaults } from '../generated/families.js';
import type { Caller } from './bearer-token.js';
import type { EventStream } from './event-stream.js';

export type OperationId = keyof operations;
export type Family = keyof FamilyOperations;

/** A parameter location's values; generated types make the location optional when every parameter in it is. */
type Params<K extends OperationId, In extends string> =
  operations[K]['parameters'] extends Partial<Record<In, infer P>>
    ? [NonNullable<P>] extends [never]
      ? Record<string, never>
      : NonNullable<P>
    : Record<string, never>;

/** A body the core hands over raw (`x-raw-body`: the operations that take a file as NDJSON or CSV) is its bytes. */
type BodyOf<C> = C extends { 'application/x-ndjson': unknown } | { 'text/csv': unknown } ? Buffer : C[keyof C];

type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: infer C } }
  ? BodyOf<C>
  : operations[K] extends { requestBody?: { content: infer C } }
    ? BodyOf<C> | undefined
    : undefined;

/** Query parameters with a default are always there: the core fills them in. */
type Query<K extends OperationId> = K extends keyof QueryDefaults
  ? Params<K, 'query'> & { [P in QueryDefaults[K] & keyof Params<K, 'query'>]-?: NonNullable<Params<K, 'query'>[P]> }
  : Params<K, 'query'>;

export interface OperationInput<K extends OperationId> {
  path: Params<K, 'path'>;
  query: Query<K>;
  headers: Params<K, 'header'>;
  body: RequestBody<K>;
}

type SuccessStatus<K extends OperationId> = Extract<keyof operations[K]['responses'], 200 | 201 | 202 | 204 | 206>;
/**
 * JSON responses may also be sent as bytes already serialised (a stored report); an event
 * stream is an `EventStream` the core serves; other media types as bytes, or as a stream the
 * core sends chunked as it is produced (a download too large to hold).
 */
type ContentBody<C> =
  | (C extends { 'application/json': infer B } ? B | Buffer : never)
  | (C extends { 'text/event-stream': unknown } ? EventStream<StreamEvent> : never)
  | (Exclude<keyof C, 'application/json' | 'text/event-stream'> extends never ? never : Buffer | Readable);
type JsonContent<R> = R extends { content: infer C } ? ContentBody<C> : undefined;

export interface ResultOptions {
  /**
   * Headers of this answer besides those the core sets (X-Request-Id, Evident-Api-Version,
   * X-Content-Type-Options, Cache-Control, ETag, Content-Type, Content-Length: use the options
   * below for those).
   */
  headers?: Record<string, string>;
  /** A strong validator of the body; the core answers 304 when `If-None-Match` matches it. */
  etag?: string;
  /** Defaults to `no-store`. */
  cacheControl?: string;
  /** Defaults to `application/json`; set it for bodies given as bytes of another type. */
  contentType?: string;
}

export type OperationResult<K extends OperationId> = {
  [S in SuccessStatus<K>]: { status: S; body: JsonContent<operations[K]['responses'][S]> } & ResultOptions;
}[SuccessStatus<K>];

export interface RequestContext {
  requestId: string;
  /** The mode the server runs in for this request (`AUTH_REQUIRED`). */
  authRequired: boolean;
  /** Who sent the request, when it carried a valid ID token (in either mode). */
  caller: Caller | undefined;
  /** A request header the description does not declare (e.g. `Accept`), as received. */
  header(name: string): string | undefined;
  /**
   * Marks the response as protected: in protected mode it throws the 401 problem unless the
   * request carried a valid token; in public mode it does nothing.
   */
  protect(): void;
}

export type OperationHandler<K extends OperationId> = (
  input: OperationInput<K>,
  context: RequestContext,
) => MaybePromise<OperationResult<K>>;

export type FamilyHandlers<F extends Family> = { [K in FamilyOperations[F]]: OperationHandler<K> };
