/**
 * The `settings` family: what an organisation decides about its own assessment — who owns each
 * control, how long an open control may stay open, how fresh evidence must be, what is in its
 * audits' scope, its connectors' non-secret settings — edited without a redeploy. Every save is a
 * new numbered version (functions/src/settings/settings-store.ts), kept with who saved it, when
 * and why; each report names the version it was evaluated with. The catalog's checks stay code.
 */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  controlIdPattern,
  evidenceKindNames,
  nistBaselines,
  pageLimits,
  settingsLimits,
  severities,
  soc2Categories,
} from '@evident/contract';

export const tag = {
  name: 'settings',
  description:
    'The organisation\u2019s settings: owners, due-date policy, freshness overrides, audit scope and connector ' +
    'settings. Saved as numbered versions with who, when and why; reports name the version they used.',
};

const days = (limits: { minimum: number; maximum: number }, what: string) =>
  ({ type: 'integer', minimum: limits.minimum, maximum: limits.maximum, description: what }) as const;

const familyIdPattern = '^[a-z][a-z0-9-]{0,59}$';

const exclusions = {
  type: 'array',
  maxItems: settingsLimits.excludedRequirements,
  items: ref('ScopeExclusion'),
  description: 'Requirements left out of the scope, each with why. A requirement appears at most once.',
} as const;

const versionParameter = {
  name: 'version',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1, maximum: 999_999_999 },
} as const;

export const schemas = {
  Owner: {
    type: 'object',
    required: ['email', 'role'],
    additionalProperties: false,
    description: 'A person who answers for a control, and the role they answer in.',
    properties: {
      email: { type: 'string', format: 'email', maxLength: 254, description: 'Their e-mail address.' },
      role: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description: 'The role label shown beside them (\u201cIT lead\u201d).',
      },
    },
  },
  OwnerAssignments: {
    type: 'object',
    required: ['controls', 'families'],
    additionalProperties: false,
    description:
      'Owners per control and per control family. A control\u2019s own owners win over its family\u2019s; with ' +
      'neither, the catalog\u2019s role label stands.',
    properties: {
      controls: {
        type: 'object',
        maxProperties: settingsLimits.ownerEntries,
        propertyNames: { pattern: controlIdPattern },
        additionalProperties: {
          type: 'array',
          minItems: 1,
          maxItems: settingsLimits.ownersPerEntry,
          items: ref('Owner'),
        },
      },
      families: {
        type: 'object',
        maxProperties: settingsLimits.ownerEntries,
        propertyNames: { pattern: familyIdPattern },
        additionalProperties: {
          type: 'array',
          minItems: 1,
          maxItems: settingsLimits.ownersPerEntry,
          items: ref('Owner'),
        },
      },
    },
  },
  DueDays: {
    type: 'object',
    required: [...severities],
    additionalProperties: false,
    description: 'Days a control of each severity may stay failing, stale or missing evidence before it is overdue.',
    properties: Object.fromEntries(
      severities.map((severity) => [severity, days(settingsLimits.dueDays, `Days for a ${severity} control.`)]),
    ),
  },
  FreshnessOverrides: {
    type: 'object',
    required: ['controls', 'kinds'],
    additionalProperties: false,
    description:
      'How many days evidence stays fresh, instead of the catalog\u2019s window: per control (every kind it reads) ' +
      'or per evidence kind (every control reading it). A control\u2019s override wins over its kinds\u2019.',
    properties: {
      controls: {
        type: 'object',
        maxProperties: settingsLimits.freshnessEntries,
        propertyNames: { pattern: controlIdPattern },
        additionalProperties: days(settingsLimits.freshnessDays, 'Days.'),
      },
      kinds: {
        type: 'object',
        maxProperties: evidenceKindNames.length,
        propertyNames: { enum: [...evidenceKindNames] },
        additionalProperties: days(settingsLimits.freshnessDays, 'Days.'),
      },
    },
  },
  ScopeExclusion: {
    type: 'object',
    required: ['requirement', 'reason'],
    additionalProperties: false,
    properties: {
      requirement: { type: 'string', minLength: 1, maxLength: 40, description: 'The requirement\u2019s id (`A.7.4`, `pe-3`).' },
      reason: { type: 'string', minLength: 3, maxLength: 1000, description: 'Why it does not apply.' },
    },
  },
  Scope: {
    type: 'object',
    required: ['soc2', 'iso27001', 'nist80053'],
    additionalProperties: false,
    description: 'What each framework\u2019s readiness counts. Every in-scope requirement counts, covered or not.',
    properties: {
      soc2: {
        type: 'object',
        required: ['categories', 'excluded'],
        additionalProperties: false,
        properties: {
          categories: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', enum: [...soc2Categories] },
            contains: { const: 'security' },
            description:
              'The trust services categories in the audit. `security` (the common criteria) is always in it; the ' +
              'others are optional.',
          },
          excluded: {
            ...exclusions,
            description:
              'Criteria of those categories left out, each with why: a criterion carved out to a subservice ' +
              'organisation (a cloud provider\u2019s data centres for CC6.4), say.',
          },
        },
      },
      iso27001: {
        type: 'object',
        required: ['excluded'],
        additionalProperties: false,
        properties: {
          excluded: { ...exclusions, description: 'Annex A controls the Statement of Applicability excludes, each with why.' },
        },
      },
      nist80053: {
        type: 'object',
        required: ['baseline', 'excluded'],
        additionalProperties: false,
        properties: {
          baseline: {
            type: 'string',
            enum: [...nistBaselines],
            description: 'The baseline assessed; Evident bundles the moderate baseline\u2019s reference list.',
          },
          excluded: { ...exclusions, description: 'Baseline controls tailored out, each with why.' },
        },
      },
    },
  },
  ConnectorSettings: {
    type: 'object',
    maxProperties: settingsLimits.connectors,
    propertyNames: { pattern: '^[a-z][a-z0-9-]{0,39}$' },
    description:
      'Each connector\u2019s non-secret settings (an organisation, a base URL, a project), by connector id. Secrets ' +
      'never go here: they live in Secret Manager, and a setting named like one is refused.',
    additionalProperties: {
      type: 'object',
      maxProperties: settingsLimits.connectorSettings,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,59}$' },
      additionalProperties: {
        oneOf: [{ type: 'string', maxLength: settingsLimits.connectorValueLength }, { type: 'number' }, { type: 'boolean' }],
      },
    },
  },
  OrganisationSettings: {
    type: 'object',
    required: ['owners', 'dueDays', 'freshness', 'scope', 'connectors'],
    additionalProperties: false,
    properties: {
      owners: ref('OwnerAssignments'),
      dueDays: ref('DueDays'),
      freshness: ref('FreshnessOverrides'),
      scope: ref('Scope'),
      connectors: ref('ConnectorSettings'),
    },
  },
  SettingsVersionSummary: {
    type: 'object',
    required: ['version', 'savedAt', 'savedBy', 'reason'],
    additionalProperties: false,
    properties: {
      version: {
        type: ['integer', 'null'],
        minimum: 1,
        description: 'The version\u2019s number, from 1; null for the defaults, before anything was saved.',
      },
      savedAt: { type: ['string', 'null'], format: 'date-time' },
      savedBy: { oneOf: [ref('Actor'), { type: 'null' }] },
      reason: { type: ['string', 'null'], description: 'Why it was changed, as the person saving it said.' },
    },
  },
  SettingsVersion: {
    type: 'object',
    required: ['version', 'savedAt', 'savedBy', 'reason', 'settings'],
    additionalProperties: false,
    properties: {
      version: { type: ['integer', 'null'], minimum: 1, description: 'Null for the defaults, before anything was saved.' },
      savedAt: { type: ['string', 'null'], format: 'date-time' },
      savedBy: { oneOf: [ref('Actor'), { type: 'null' }] },
      reason: { type: ['string', 'null'] },
      settings: ref('OrganisationSettings'),
    },
  },
  SettingsChange: {
    type: 'object',
    required: ['basedOn', 'reason', 'settings'],
    additionalProperties: false,
    properties: {
      basedOn: {
        type: ['integer', 'null'],
        minimum: 1,
        description:
          'The version this change was made from (`version` of `GET /api/settings`; null when it was the defaults). ' +
          'If a newer one was saved meanwhile the change is refused with 409 `settings_changed`.',
      },
      reason: {
        type: 'string',
        minLength: settingsLimits.reason.minLength,
        maxLength: settingsLimits.reason.maxLength,
        description: 'Why, for the record.',
      },
      settings: ref('OrganisationSettings'),
    },
  },
  SettingsVersionList: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('SettingsVersionSummary'), description: 'Newest first.' },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` to continue; present when `hasMore` is true.' },
    },
  },
} as const;

export const paths: PathsObject = {
  '/api/settings': {
    get: {
      operationId: 'getSettings',
      summary: 'The current settings',
      description:
        'The newest saved version of the settings, or the defaults (version null: the catalog\u2019s owners and ' +
        'freshness, the default due days, SOC 2 Security, all of ISO Annex A, the NIST moderate baseline) before ' +
        'anything was saved.',
      tags: ['settings'],
      security: access.protected,
      responses: {
        '200': jsonResponse('The settings.', ref('SettingsVersion')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
    put: {
      operationId: 'saveSettings',
      summary: 'Save a new version of the settings',
      description:
        'Stores the settings as the next version, with the caller and the reason. The next report (or analysis) ' +
        'uses it; reports already made keep the version they named. Owners must be e-mail addresses, controls and ' +
        'families must be the catalog\u2019s, excluded requirements must be the framework\u2019s; anything else ' +
        'answers 400 naming each mistake. Two people saving from the same version: the first is stored, the second ' +
        'answers 409 `settings_changed` and stores nothing.',
      tags: ['settings'],
      security: access.protected,
      'x-body-limit': 256 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('SettingsChange') } } },
      responses: {
        '200': jsonResponse('The version saved.', ref('SettingsVersion')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '409': responseRef('SettingsChanged'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/settings/versions': {
    get: {
      operationId: 'listSettingsVersions',
      summary: 'Every saved version of the settings',
      description: 'Who saved each version, when and why, newest first, paged. One `list` of the store per page.',
      tags: ['settings'],
      security: access.protected,
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.settingsVersions.maximum,
            default: pageLimits.settingsVersions.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of versions.', ref('SettingsVersionList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/settings/versions/{version}': {
    get: {
      operationId: 'getSettingsVersion',
      summary: 'One saved version of the settings',
      description: 'The settings as they were saved in that version: what a report naming it was evaluated with.',
      tags: ['settings'],
      security: access.protected,
      parameters: [versionParameter],
      responses: {
        '200': jsonResponse('The version.', ref('SettingsVersion')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('SettingsVersionNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
