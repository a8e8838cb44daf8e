/**
 * One smoke run: the site it calls, the token it may send, and the result of each check. A check
 * is a named piece of work that fails on its first unmet expectation and never stops the run, so
 * an operator sees every problem of a deployment at once.
 */

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  name: string;
  outcome: Outcome;
  /** Why it failed or was skipped. */
  detail?: string;
}

export interface SmokeOptions {
  /** The site's origin, e.g. https://your-site.web.app */
  origin: string;
  /** A Firebase ID token of a user allowed to sign in, for the checks that need one. */
  token?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** An unmet expectation inside a check: its message is the check's detail. */
export class Mismatch extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

export function expectStatus(answer: Answer, status: number, where: string): void {
  const said = answer.text.length > 200 ? `${answer.text.slice(0, 200)}…` : answer.text;
  expectThat(answer.status === status, `${where} answered ${answer.status}, expected ${status}: ${said}`);
}

export function jsonOf<T>(answer: Answer, where: string): T {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new Mismatch(`${where} is not JSON (${answer.headers.get('content-type') ?? 'no content type'})`);
  }
}

export class SmokeRun {
  readonly results: CheckResult[] = [];
  readonly origin: string;
  readonly token: string | undefined;

  constructor(options: SmokeOptions) {
    this.origin = options.origin;
    this.token = options.token;
  }

  /** One request; `token` adds the bearer header. Redirects are not followed: a sign-in page is not the API. */
  async call(path: string, init: RequestInit & { token?: string | undefined } = {}): Promise<Answer> {
    const { token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(new URL(path, this.origin), { ...rest, headers, redirect: 'manual' });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Runs one check; an unmet expectation or a network error fails it, and the run goes on. */
  async check(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
      this.results.push({ name, outcome: 'passed' });
    } catch (error) {
      const detail = error instanceof Mismatch ? error.message : `the request failed: ${(error as Error).message}`;
      this.results.push({ name, outcome: 'failed', detail });
    }
  }

  skip(name: string, detail: string): void {
    this.results.push({ name, outcome: 'skipped', detail });
  }
}
