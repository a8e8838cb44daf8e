/** The `auth` family: how a client learns the server's mode and who the server thinks it is. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, jsonResponse, ref, responseRef } from '../components.ts';

export const tag = {
  name: 'auth',
  description: 'Authentication mode and caller identity. Read `/api/auth/config` before anything else.',
};

export const schemas = {
  AuthConfig: {
    type: 'object',
    required: ['authRequired'],
    additionalProperties: false,
    properties: {
      authRequired: {
        type: 'boolean',
        description: 'True when protected operations need a bearer token (protected mode); false in public mode.',
      },
    },
    examples: [{ authRequired: false }],
  },
  Caller: {
    type: 'object',
    required: ['authenticated'],
    additionalProperties: false,
    properties: {
      authenticated: { type: 'boolean', description: 'True when the request carried a valid ID token.' },
      uid: { type: 'string', description: 'The user id from the token.' },
      email: { type: 'string', format: 'email' },
      emailVerified: { type: 'boolean' },
      name: { type: 'string' },
      signInProvider: { type: 'string', description: 'How the user signed in, e.g. `google.com` or `password`.' },
    },
    examples: [
      { authenticated: true, uid: 'h3R0…', email: 'ada@example.com', emailVerified: true, signInProvider: 'google.com' },
    ],
  },
} as const;

export const paths: PathsObject = {
  '/api/auth/config': {
    get: {
      operationId: 'getAuthConfig',
      summary: 'Read the authentication mode',
      description:
        'Tells a client whether it must sign in. Always public, in both modes; a client calls it first and ' +
        'signs in only when `authRequired` is true.',
      tags: ['auth'],
      security: access.public,
      responses: {
        '200': jsonResponse("The server's authentication mode.", ref('AuthConfig')),
        '400': responseRef('BadRequest'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/auth/me': {
    get: {
      operationId: 'getCaller',
      summary: 'Identify the caller',
      description:
        "Returns who the server takes the caller to be, from the bearer token. Useful to check a collector's " +
        'token. Protected mode: needs a valid token. Public mode: answers `authenticated: false` without one.',
      tags: ['auth'],
      security: access.protected,
      responses: {
        '200': jsonResponse("The caller's identity.", ref('Caller')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
