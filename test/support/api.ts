/**
 * The integration tests' one way to call the API: through Hosting (or any origin given), JSON in
 * and out, with a bearer token in protected mode. The token belongs to a user signed up on the
 * Authentication emulator at the first call and kept for the file, so a test reads as the calls
 * it makes, whatever the mode.
 */
import { expect } from 'vitest';
import { bearer, hosting, mode, signUp, type SignedIn } from './emulator.ts';

export interface CallOptions {
  method?: string;
  /** Sent as JSON, unless it is a string, bytes or a form, which are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sends no token even in protected mode, for tests of what an anonymous caller gets. */
  anonymous?: boolean;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const raw = (body: unknown): body is string | Uint8Array | FormData =>
  typeof body === 'string' || body instanceof Uint8Array || body instanceof FormData;

export class Api {
  readonly origin: string;
  #user: Promise<SignedIn | undefined> | undefined;

  constructor(origin: string = hosting) {
    this.origin = origin;
  }

  /** The user whose token the calls carry: signed up once, in protected mode only. */
  user(): Promise<SignedIn | undefined> {
    this.#user ??= mode === 'protected' ? signUp() : Promise.resolve(undefined);
    return this.#user;
  }

  /** The headers that authorise a call in the mode under test (none in public mode). */
  async auth(): Promise<Record<string, string>> {
    return bearer((await this.user())?.idToken);
  }

  /** The raw answer to one call. */
  async fetch(path: string, options: CallOptions = {}): Promise<Response> {
    const { body } = options;
    const json = body !== undefined && !raw(body);
    return fetch(`${this.origin}${path}`, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(options.anonymous ? {} : await this.auth()),
        ...(json ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : (body as BodyInit) }),
    });
  }

  /** The raw answer to a call that must have `status` (200 by default), for bodies read as bytes or streams. */
  async response(path: string, options: CallOptions & { status?: number } = {}): Promise<Response> {
    const response = await this.fetch(path, options);
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    expect([`${method} ${path}`, response.status]).toEqual([`${method} ${path}`, options.status ?? 200]);
    return response;
  }

  /** The answer's status, headers and body (JSON when the answer says so, else text). */
  async call<T = unknown>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const response = await this.fetch(path, options);
    const type = response.headers.get('content-type') ?? '';
    const body = (/\bjson\b/.test(type) ? await response.json() : await response.text()) as T;
    return { status: response.status, headers: response.headers, body };
  }

  /** The body of an answer that must have `status` (200 by default); the path is named when it has not. */
  async json<T = unknown>(path: string, options: CallOptions & { status?: number } = {}): Promise<T> {
    const answer = await this.call<T>(path, options);
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    expect([`${method} ${path}`, answer.status]).toEqual([`${method} ${path}`, options.status ?? 200]);
    return answer.body;
  }

  get<T = unknown>(path: string, status = 200): Promise<T> {
    return this.json<T>(path, { status });
  }

  post<T = unknown>(path: string, body: unknown = {}, status = 200): Promise<T> {
    return this.json<T>(path, { method: 'POST', body, status });
  }
}

/** Calls through Hosting, as the web app and collectors make them. */
export const api = new Api();
