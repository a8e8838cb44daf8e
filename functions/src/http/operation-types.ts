/**
 * Types that tie each handler to its operation in the generated API types: the handler gets
 * exactly the operation's validated parameters and body, and must return one of its declared
 * success responses.
 */
import type { operations } from '../generated/api-types.js';
import type { FamilyOperations } from '../generated/families.js';
import type { Caller } from './bearer-token.js';
import type { MaybePromise } from './maybe-async.js';

export type OperationId = keyof operations;
export type Family = keyof FamilyOperations;

type Params<K extends OperationId, In extends string> =
  operations[K]['parameters'] extends Record<In, infer P>
    ? [P] extends [never | undefined]
      ? Record<string, never>
      : NonNullable<P>
    : Record<string, never>;

type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: infer C } }
  ? C[keyof C]
  : operations[K] extends { requestBody?: { content: infer C } }
    ? C[keyof C] | undefined
    : undefined;

export interface OperationInput<K extends OperationId> {
  path: Params<K, 'path'>;
  query: Params<K, 'query'>;
  headers: Params<K, 'header'>;
  body: RequestBody<K>;
}

type SuccessStatus<K extends OperationId> = Extract<keyof operations[K]['responses'], 200 | 201 | 202 | 204>;
/** JSON responses may also be sent as bytes already serialised (a stored report); other media types only so. */
type JsonContent<R> = R extends { content: { 'application/json': infer B } }
  ? B | Buffer
  : R extends { content: Record<string, unknown> }
    ? Buffer
    : undefined;

export interface ResultOptions {
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
