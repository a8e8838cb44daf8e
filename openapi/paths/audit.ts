/**
 * The `audit` family: one download for an audit period. Served by its own function because it
 * runs long and streams (functions/src/audit/).
 */
import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import { access, jsonResponse, ref, responseRef } from '../components.ts';
import { datePattern, maxPeriodDays } from '@evident/contract';

export const tag = {
  name: 'audit',
  description:
    'Audit packages: a period\u2019s reports, OSCAL documents, control histories, the evidence they cite and the ' +
    'files attached to it, in one zip with a SHA-256 manifest.',
};

const bound = (name: 'from' | 'to', description: string) =>
  ({ name, in: 'query', required: true, description, schema: { type: 'string', pattern: datePattern } }) as const;

const signingKey: SchemaObject = {
  type: 'object',
  required: ['algorithm', 'fingerprint', 'publicKey', 'publishedAt'],
  additionalProperties: false,
  properties: {
    algorithm: { type: 'string', const: 'Ed25519' },
    fingerprint: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'The SHA-256 of the public key\u2019s DER (SubjectPublicKeyInfo), as a package\u2019s manifest names it.',
    },
    publicKey: {
      type: 'string',
      description: 'The public key, SPKI PEM: `--key` of the verifier, or `openssl pkeyutl -verify -pubin -inkey`.',
    },
    publishedAt: { type: 'string', format: 'date-time', description: 'When a package was first signed with it.' },
  },
};

export const schemas: Record<string, SchemaObject> = {
  AuditSigningKey: signingKey,
  AuditSigningKeys: {
    type: 'object',
    required: ['keys'],
    additionalProperties: false,
    properties: {
      keys: {
        type: 'array',
        items: ref('AuditSigningKey'),
        description: 'Every key an audit package was signed with, newest first; empty before the first package.',
      },
    },
    examples: [
      {
        keys: [
          {
            algorithm: 'Ed25519',
            fingerprint: '2ac70e28fa7585744fc6f570b5ab9734fe769e0a146e166f8e61ba1ffc665e9c',
            publicKey:
              '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA+4mLdTcXk/U4NdQIlH5IUJkxwcDSlD2xCdG3OvGVd7w=\n-----END PUBLIC KEY-----\n',
            publishedAt: '2026-11-21T10:00:00.000Z',
          },
        ],
      },
    ],
  },
};

export const paths: PathsObject = {
  '/api/audit/signing-key': {
    get: {
      operationId: 'getAuditSigningKey',
      summary: 'Read the key audit packages are signed with',
      description:
        'The Ed25519 public keys audit packages\u2019 manifests are signed with (`manifest.sig` over `manifest.json`), ' +
        'newest first, each with its fingerprint. Public, so an auditor can check a package without an account: ' +
        '`node verify/verify.mjs . --key key.pem` in the unpacked package (docs/audit-verification.md).',
      tags: ['audit'],
      'x-beta': true,
      security: access.public,
      responses: {
        '200': jsonResponse('The published keys.', ref('AuditSigningKeys')),
        '400': responseRef('BadRequest'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/audit/package': {
    get: {
      operationId: 'getAuditPackage',
      summary: 'Download the audit package of a period',
      description:
        `A zip of everything about the days from \`from\` to \`to\` (at most ${maxPeriodDays} days, up to today in ` +
        'the report time zone):\n\n' +
        '- `README.txt`: what is where;\n' +
        '- `reports/<date>.json`: each day\u2019s report, the bytes stored (its last version);\n' +
        '- `versions/<date>/<n>.json`: each earlier version of a day\u2019s report that a publish replaced, as stored ' +
        '(`GET /api/report/{date}/versions`), with the evidence they rest on among `evidence/`;\n' +
        '- `oscal/assessment-results/<date>.json`: each as OSCAL Assessment Results;\n' +
        '- `oscal/poam-<date>.json`: the OSCAL POA&M as of the period\u2019s last report;\n' +
        '- `history/controls.csv`: every control over the period, one row each (days assessed and passing, the ' +
        'longest run not passing, fixes and their mean time);\n' +
        '- `history/<control>.csv`: one control a day, as `GET /api/controls/{id}/history.csv`;\n' +
        '- `catalog/catalog.json`, `inputs/`: the catalog the reports name, the report before the period, and per ' +
        'day the exceptions in force and the collection-run populations its evaluation saw;\n' +
        '- `evidence/<kind>/<subject>/<date>-<id>.json`: the evidence state at the start of the period and every ' +
        'item received after, up to the last report\u2019s making, so every item the reports\u2019 results rest on ' +
        '(`:` in an id written `%3A`);\n' +
        '- `attachments/<submission>/<n>-<name>`: the files of the submissions among that evidence;\n' +
        '- `manifest.json`: the period, who asked, each report\u2019s and each earlier version\u2019s run, each file\u2019s size and SHA-256, and ' +
        'any file that could not be included with why (an attachment whose bytes no longer match the SHA-256 ' +
        'recorded at submission is left out and listed there);\n' +
        '- `verify/verify.mjs`: the verifier for a plain Node, which re-derives every report byte for byte ' +
        '(docs/audit-verification.md); `index.html` and `evidence.html`: the package to read offline;\n' +
        '- `manifest.sig`: the manifest\u2019s Ed25519 signature (`GET /api/audit/signing-key`), when the package was signed;\n' +
        '- `SHA256SUMS`: the same digests and the manifest\u2019s, for `sha256sum -c`.\n\n' +
        'The archive is made while it is sent (chunked, no `Content-Length`): a failure after the first byte cuts ' +
        'the connection, so a client never holds a truncated archive as whole. Through Firebase Hosting a response ' +
        'must finish within 60 seconds; for long periods call the function\u2019s own URL.',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      parameters: [
        bound('from', 'The first day of the period, `YYYY-MM-DD`.'),
        bound('to', 'The last day of the period, `YYYY-MM-DD`, today at the latest.'),
      ],
      responses: {
        '200': {
          description: 'The package, named `evident-audit-<from>-to-<to>.zip` for saving.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('NoReportInPeriod'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
