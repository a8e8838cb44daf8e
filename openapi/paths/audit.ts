/**
 * The `audit` family: one download for an audit period. Served by its own function because it
 * runs long and streams (functions/src/audit/).
 */
import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import { access, eventStreamOf, jsonResponse, ref, responseRef, resumeParameters, streamEvent } from '../components.ts';
import { auditPackageIdPattern, auditPackageStates, datePattern, maxPeriodDays, printableTextPattern } from '@evident/contract';

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

const packageId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: auditPackageIdPattern } } as const;
const count = { type: 'integer', minimum: 0 } as const;
const date = { type: 'string', pattern: datePattern } as const;
const eventOf = (type: string, description: string, data: SchemaObject) => streamEvent(type, description, data, { timed: true });

const progress: SchemaObject = {
  type: 'object',
  required: ['reports', 'reportsTotal', 'files', 'bytes'],
  additionalProperties: false,
  properties: {
    reports: { ...count, description: 'Report days written so far.' },
    reportsTotal: { ...count, description: 'Report days in the period.' },
    files: { ...count, description: 'Files written into the zip so far.' },
    bytes: { ...count, description: 'Bytes of the zip stored so far.' },
  },
};

export const schemas = {
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
  AuditPackageRequest: {
    type: 'object',
    required: ['from', 'to'],
    additionalProperties: false,
    properties: {
      from: { ...date, description: 'The first day of the period.' },
      to: { ...date, description: 'The last day of the period, today at the latest.' },
    },
  },
  AuditPackageFile: {
    type: 'object',
    required: ['name', 'size', 'sha256'],
    additionalProperties: false,
    description: 'The zip once built.',
    properties: {
      name: { type: 'string', description: 'The name to save it under: `evident-audit-<from>-to-<to>.zip`.' },
      size: { ...count, description: 'Its length in bytes.' },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The SHA-256 of the whole zip, also its `ETag`.' },
    },
  },
  AuditPackage: {
    type: 'object',
    required: ['id', 'from', 'to', 'state', 'progress', 'requestedBy', 'requestedAt', 'expiresAt', 'lastEventId', 'links'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: auditPackageIdPattern },
      from: date,
      to: date,
      state: {
        type: 'string',
        enum: [...auditPackageStates],
        description: '`queued` until the job starts, `building` while it writes, then `ready` or `failed` (`problem` says why).',
      },
      progress,
      file: ref('AuditPackageFile'),
      problem: { type: 'string', pattern: printableTextPattern, description: 'Why the build failed.' },
      requestedBy: ref('Actor'),
      requestedAt: { type: 'string', format: 'date-time' },
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'When it lapses and is deleted (`AUDIT_PACKAGE_DAYS` after it was asked for).',
      },
      lastEventId: { ...count, description: 'The newest persisted event; 0 before the first.' },
      links: {
        type: 'object',
        required: ['self', 'events', 'download'],
        additionalProperties: false,
        properties: { self: { type: 'string' }, events: { type: 'string' }, download: { type: 'string' } },
      },
    },
  },
  AuditPackageList: {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', items: ref('AuditPackage'), description: 'Packages not yet lapsed, newest first.' } },
  },
  AuditPackageStartedEvent: eventOf('run.started', 'The job took the package and started writing it.', {
    type: 'object',
    required: ['reportsTotal'],
    additionalProperties: false,
    properties: { reportsTotal: count },
  }),
  AuditPackageProgressEvent: eventOf('run.progress', 'A part of the zip was stored: the totals so far.', { ...progress }),
  AuditPackageCompletedEvent: eventOf('run.completed', 'The zip is stored whole and can be downloaded.', {
    type: 'object',
    required: ['file', 'parts', 'partBytes'],
    additionalProperties: false,
    properties: {
      file: ref('AuditPackageFile'),
      parts: { ...count, description: 'How many stored parts hold the zip, in order.' },
      partBytes: { ...count, description: 'The length of every part but the last.' },
    },
  }),
  AuditPackageFailedEvent: eventOf('run.failed', 'The build failed; nothing of it can be downloaded.', {
    type: 'object',
    required: ['problem'],
    additionalProperties: false,
    properties: { problem: { type: 'string', pattern: printableTextPattern } },
  }),
  AuditPackageEvent: {
    description:
      'One event of a package\u2019s build, sent on the stream as `id`, `event: <type>` and `data: <this object as ' +
      'JSON>`. A build has exactly one terminal event: `run.completed` or `run.failed`.',
    oneOf: ['AuditPackageStartedEvent', 'AuditPackageProgressEvent', 'AuditPackageCompletedEvent', 'AuditPackageFailedEvent'].map(
      ref,
    ),
    discriminator: {
      propertyName: 'type',
      mapping: {
        'run.started': '#/components/schemas/AuditPackageStartedEvent',
        'run.progress': '#/components/schemas/AuditPackageProgressEvent',
        'run.completed': '#/components/schemas/AuditPackageCompletedEvent',
        'run.failed': '#/components/schemas/AuditPackageFailedEvent',
      },
    },
  },
  AuditPackageEventList: {
    type: 'object',
    required: ['events', 'ended'],
    additionalProperties: false,
    properties: {
      events: { type: 'array', items: ref('AuditPackageEvent') },
      ended: { type: 'boolean', description: 'True once the build\u2019s terminal event is in the list.' },
    },
  },
};

const packageAnswers = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '404': responseRef('AuditPackageNotFound'),
  '500': responseRef('InternalError'),
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
  '/api/audit/packages': {
    post: {
      operationId: 'startAuditPackage',
      summary: 'Build the audit package of a period in the background',
      description:
        `Hands the package of the days from \`from\` to \`to\` (at most ${maxPeriodDays} days) to a job on the task ` +
        'queue, which writes the zip (the contents `GET /api/audit/package` describes) to storage; follow its events, ' +
        'then download it with `Range` from `links.download`. The same period asked again while the reports behind ' +
        'it are unchanged answers the package already built or building (200), with its progress; a report ' +
        'published since makes a new one (202). A package is kept `AUDIT_PACKAGE_DAYS` days (14 by default).',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      'x-body-limit': 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('AuditPackageRequest') } } },
      responses: {
        '200': jsonResponse('The package of the same period and reports, built or building.', ref('AuditPackage')),
        '202': jsonResponse('The package, queued.', ref('AuditPackage'), {
          Location: { description: 'The package.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('NoReportInPeriod'),
        '500': responseRef('InternalError'),
        '503': responseRef('QueueUnavailable'),
      },
    },
    get: {
      operationId: 'listAuditPackages',
      summary: 'List the audit packages',
      description: 'The packages asked for and not yet lapsed, newest first, with their state.',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      responses: {
        '200': jsonResponse('The packages.', ref('AuditPackageList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/audit/packages/{id}': {
    get: {
      operationId: 'getAuditPackageBuild',
      summary: 'Get an audit package',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      parameters: [packageId],
      responses: { '200': jsonResponse('The package.', ref('AuditPackage')), ...packageAnswers },
    },
  },
  '/api/audit/packages/{id}/events': {
    get: {
      operationId: 'streamAuditPackageEvents',
      summary: 'Follow an audit package being built',
      description:
        'Server-sent events, as for analyses: every event after `Last-Event-ID`, then new ones as they are persisted; ' +
        '204 once the build has ended and every event was received. With `Accept: application/json` the events ' +
        'persisted so far come as one list.',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      parameters: [packageId, ...resumeParameters],
      responses: {
        '200': {
          description: 'The event stream, or the events as JSON.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
          content: {
            'text/event-stream': { schema: eventStreamOf('AuditPackageEvent') },
            'application/json': { schema: ref('AuditPackageEventList') },
          },
        },
        '204': { description: 'The build has ended and the client already has every event; do not reconnect.' },
        ...packageAnswers,
      },
    },
  },
  '/api/audit/packages/{id}/download': {
    get: {
      operationId: 'downloadAuditPackage',
      summary: 'Download a built audit package, whole or in ranges',
      description:
        'The zip, from storage. One `Range: bytes=<first>-<last>` (or `<first>-`, or `-<suffix>`) answers 206 with ' +
        'that part and `Content-Range`, so a long download resumes where it stopped and fits each request within ' +
        'Hosting\u2019s 60 seconds; `If-Range` with the `ETag` (the zip\u2019s SHA-256) answers the whole zip if it ' +
        'changed. A range outside the file answers 416.',
      tags: ['audit'],
      'x-beta': true,
      security: access.protected,
      parameters: [
        packageId,
        { name: 'Range', in: 'header', required: false, schema: { type: 'string', maxLength: 100 } },
        { name: 'If-Range', in: 'header', required: false, schema: { type: 'string', maxLength: 100 } },
      ],
      responses: {
        '200': {
          description: 'The whole zip.',
          headers: {
            'Content-Disposition': { schema: { type: 'string' } },
            ETag: { schema: { type: 'string' } },
            'Accept-Ranges': { schema: { type: 'string' } },
          },
          content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
        },
        '206': {
          description: 'The range asked for.',
          headers: {
            'Content-Range': { schema: { type: 'string' } },
            ETag: { schema: { type: 'string' } },
            'Accept-Ranges': { schema: { type: 'string' } },
          },
          content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
        },
        '409': responseRef('AuditPackageNotReady'),
        '416': responseRef('RangeNotSatisfiable'),
        ...packageAnswers,
      },
    },
  },
};
