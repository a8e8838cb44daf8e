/**
 * The access matrix, through Hosting on the emulators: every operation in the served OpenAPI
 * description × every kind of token, in the mode under test, with the exact status and body.
 * A new operation fails this test until it is given a sample request here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { expectedProblem } from '../support/problems.ts';
import { bearer, hosting, mode, tokenKinds, tokensOfEveryKind, type SignedIn, type TokenKind } from '../support/emulator.ts';

interface Sample {
  path: string;
  /** For docs pages: whether the page is gated. */
  gated?: boolean;
}

/** One request per operation (two for docs pages: an open one and a gated one). */
const samples: Record<string, Sample[]> = {
  getAuthConfig: [{ path: '/api/auth/config' }],
  getCaller: [{ path: '/api/auth/me' }],
  listDocs: [{ path: '/api/docs/index' }],
  getDocPage: [
    { path: '/api/docs/page/getting-started', gated: false },
    { path: '/api/docs/page/methodology', gated: true },
  ],
};

let spec: OpenAPIObject;
let user: SignedIn;
let tokens: Record<TokenKind, string | undefined>;

beforeAll(async () => {
  spec = (await (await fetch(`${hosting}/api/openapi.json`)).json()) as OpenAPIObject;
  ({ user, tokens } = await tokensOfEveryKind());
});

function operations(): { operationId: string; access: 'public' | 'protected' | 'optional' }[] {
  return Object.values(spec.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string; security?: Record<string, string[]>[] }>)
      .filter((operation) => operation.operationId)
      .map((operation) => ({
        operationId: operation.operationId!,
        access:
          operation.security?.length === 0
            ? 'public'
            : operation.security?.some((r) => Object.keys(r).length === 0)
              ? 'optional'
              : 'protected',
      })),
  );
}

const challenges: Partial<
  Record<TokenKind, { code: 'unauthenticated' | 'invalid_token' | 'token_expired'; detail: string; header: string }>
> = {
  none: {
    code: 'unauthenticated',
    detail: 'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
    header: 'Bearer realm="evident"',
  },
  expired: {
    code: 'token_expired',
    detail: 'The ID token has expired; refresh it and retry.',
    header: 'Bearer realm="evident", error="invalid_token", error_description="The token expired"',
  },
};
const invalid = {
  code: 'invalid_token' as const,
  detail: 'The bearer token could not be verified for this project; sign in again to get a valid ID token.',
  header: 'Bearer realm="evident", error="invalid_token", error_description="The token is invalid"',
};

describe(`access matrix in ${mode} mode`, () => {
  it('has a sample request for every operation in the description', () => {
    expect(
      operations()
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(Object.keys(samples).sort());
  });

  it('says the mode under test', async () => {
    const response = await fetch(`${hosting}/api/auth/config`);
    expect(await response.json()).toEqual({ authRequired: mode === 'protected' });
  });

  for (const kind of tokenKinds) {
    it(`answers every operation as the contract says with token: ${kind}`, async () => {
      for (const { operationId, access } of operations()) {
        for (const sample of samples[operationId] ?? []) {
          const where = `${operationId} ${sample.path} (${kind})`;
          const response = await fetch(hosting + sample.path, { headers: bearer(tokens[kind]) });
          const body = (await response.json()) as Record<string, unknown>;
          const guarded = mode === 'protected' && (access === 'protected' || sample.gated === true);

          if (guarded && kind !== 'valid') {
            const challenge = challenges[kind] ?? invalid;
            expect(response.status, where).toBe(401);
            expect(response.headers.get('www-authenticate'), where).toBe(challenge.header);
            expect(response.headers.get('content-type'), where).toBe('application/problem+json');
            expect(body, where).toEqual(
              expectedProblem(challenge.code, challenge.detail, sample.path, response.headers.get('x-request-id')!),
            );
            continue;
          }

          expect(response.status, where).toBe(200);
          expect(response.headers.get('www-authenticate'), where).toBeNull();
          const identified = kind === 'valid';
          switch (operationId) {
            case 'getAuthConfig':
              expect(body, where).toEqual({ authRequired: mode === 'protected' });
              break;
            case 'getCaller':
              expect(body, where).toEqual(
                identified
                  ? { authenticated: true, uid: user.uid, email: user.email, emailVerified: false, signInProvider: 'password' }
                  : { authenticated: false },
              );
              break;
            case 'listDocs': {
              const pages = body.pages as { slug: string; gated: boolean }[];
              expect(pages.find((page) => page.slug === 'getting-started')?.gated, where).toBe(false);
              // Gated pages are listed, marked, only where they can be read.
              const gated = pages.filter((page) => page.gated).map((page) => page.slug);
              expect(gated, where).toEqual(mode === 'public' || identified ? ['methodology'] : []);
              break;
            }
            case 'getDocPage':
              expect(body.slug, where).toBe(sample.path.split('/').pop());
              expect(body.gated, where).toBe(sample.gated);
              break;
            default:
              throw new Error(`no expectation for ${operationId}`);
          }
        }
      }
    });
  }
});
