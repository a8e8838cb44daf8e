/**
 * The `frameworks` family: how ready the organisation is for SOC 2, ISO/IEC 27001:2022 and NIST
 * SP 800-53 rev5, read from a day's report. The roll-up rules live in
 * functions/src/assessment/readiness.ts and docs/methodology.md.
 */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, jsonResponse, ref, responseRef } from '../components.ts';
import { controlIdPattern, datePattern, frameworkIdPattern, frameworkIds, requirementStatuses } from '@evident/contract';

export const tag = {
  name: 'frameworks',
  description:
    'Readiness per framework: each requirement the catalog maps controls to, met or not from those controls\u2019 ' +
    'statuses, the share met, and the requirements no control covers.',
};

const share = {
  oneOf: [{ type: 'number', minimum: 0, maximum: 100 }, { type: 'null' }],
  description:
    'Requirements met over requirements that apply (met, not met or unproven), 0\u2013100 with one decimal; null ' +
    'when none applies.',
} as const;

/** What every view of a framework's readiness has, stored in the report or served. */
const readinessFields = {
  framework: ref('FrameworkId'),
  name: { type: 'string', description: 'The framework\u2019s name and edition.' },
  share,
  counts: ref('RequirementCounts'),
  covered: {
    type: 'integer',
    minimum: 0,
    description: 'In-scope requirements at least one control maps to (before API 1.12.0: of all requirements).',
  },
  total: {
    type: 'integer',
    minimum: 0,
    description: 'Requirements in the framework\u2019s reference list (for NIST, the moderate baseline).',
  },
} as const;

/**
 * What the organisation's scope made of a framework, as the report was made: reports keep their
 * own scope, so a change of scope never rewrites history. Reports made before API 1.12.0 carry
 * none; they are served as in scope of every requirement a control covered.
 */
const scopeFields = {
  scope: {
    type: 'string',
    description: 'The scope in words: the SOC 2 categories, the ISO exclusions, the NIST baseline.',
  },
  inScope: {
    type: 'integer',
    minimum: 0,
    description: 'Requirements in scope, covered or not: what the share is over, less those scoped out by exceptions.',
  },
  outOfScope: {
    type: 'array',
    description: 'Requirements the scope leaves out, in the framework\u2019s order, each with why.',
    items: {
      type: 'object',
      required: ['id', 'reason'],
      additionalProperties: false,
      properties: { id: { type: 'string' }, reason: { type: 'string' } },
    },
  },
} as const;

const frameworkParameter = {
  name: 'framework',
  in: 'path',
  required: true,
  description: `One of ${frameworkIds.map((id) => `\`${id}\``).join(', ')}.`,
  schema: { type: 'string', pattern: frameworkIdPattern },
} as const;

const dateParameter = {
  name: 'date',
  in: 'query',
  required: false,
  description: 'The report\u2019s day, `YYYY-MM-DD` in the report time zone; today when absent.',
  schema: { type: 'string', pattern: datePattern },
} as const;

export const schemas = {
  FrameworkId: { type: 'string', enum: [...frameworkIds] },
  RequirementStatus: {
    type: 'string',
    enum: [...requirementStatuses],
    description:
      '`met`: every applicable control mapped to it passes. `not_met`: one of them fails. `unproven`: none fails, ' +
      'but one has stale or missing evidence, so it cannot be shown met; it counts against the share. ' +
      '`not_applicable`: every control mapped to it is scoped out; it is left out of the share. An in-scope ' +
      'requirement no control covers is `not_met`, with no controls.',
  },
  RequirementCounts: {
    type: 'object',
    required: [...requirementStatuses],
    additionalProperties: false,
    properties: Object.fromEntries(requirementStatuses.map((status) => [status, { type: 'integer', minimum: 0 }])),
  },
  RequirementResult: {
    type: 'object',
    required: ['id', 'status', 'controls'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      status: ref('RequirementStatus'),
      controls: { type: 'array', items: { type: 'string' }, description: 'The ids of the controls mapped to it.' },
    },
  },
  FrameworkReadiness: {
    type: 'object',
    required: [...Object.keys(readinessFields), 'requirements', 'gaps'],
    additionalProperties: false,
    description: 'One framework in a report.',
    properties: {
      ...readinessFields,
      ...scopeFields,
      requirements: {
        type: 'array',
        items: ref('RequirementResult'),
        description:
          'Every in-scope requirement, in the framework\u2019s order (before API 1.12.0: every covered one). One no ' +
          'control covers is `not_met` with no controls.',
      },
      gaps: {
        type: 'array',
        items: { type: 'string' },
        description: 'In-scope requirements no control maps to; they count as not met (before API 1.12.0: left out).',
      },
    },
  },
  ReadinessShares: {
    type: 'object',
    additionalProperties: false,
    description: 'Each framework\u2019s share of requirements met, for the trend.',
    properties: Object.fromEntries(frameworkIds.map((id) => [id, share])),
  },
  FrameworkSummary: {
    type: 'object',
    required: [...Object.keys(readinessFields), ...Object.keys(scopeFields), 'gaps'],
    additionalProperties: false,
    properties: {
      ...readinessFields,
      ...scopeFields,
      gaps: { type: 'integer', minimum: 0, description: 'How many in-scope requirements no control maps to.' },
    },
  },
  FrameworkList: {
    type: 'object',
    required: ['date', 'frameworks'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date', description: 'The report the readiness comes from.' },
      frameworks: { type: 'array', items: ref('FrameworkSummary') },
    },
  },
  FrameworkDetail: {
    type: 'object',
    required: ['date', ...Object.keys(readinessFields), ...Object.keys(scopeFields), 'requirements', 'gaps', 'trend'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date', description: 'The report the readiness comes from.' },
      ...readinessFields,
      ...scopeFields,
      requirements: {
        type: 'array',
        description:
          'Every in-scope requirement, in the framework\u2019s order, with its controls\u2019 statuses; one no control ' +
          'covers is `not_met` with no controls.',
        items: {
          type: 'object',
          required: ['id', 'title', 'status', 'controls'],
          additionalProperties: false,
          properties: {
            id: { type: 'string' },
            title: { type: ['string', 'null'], description: 'NIST\u2019s control title; null where the text is licensed.' },
            status: ref('RequirementStatus'),
            controls: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'title', 'status'],
                additionalProperties: false,
                properties: {
                  id: { type: 'string', pattern: controlIdPattern },
                  title: { type: 'string' },
                  status: ref('ControlStatus'),
                },
              },
            },
          },
        },
      },
      gaps: {
        type: 'array',
        description: 'In-scope requirements no control maps to, in the framework\u2019s order; each counts as not met.',
        items: {
          type: 'object',
          required: ['id', 'title'],
          additionalProperties: false,
          properties: { id: { type: 'string' }, title: { type: ['string', 'null'] } },
        },
      },
      trend: {
        type: 'array',
        description:
          'The share met on each day with a report in the year up to `date`, oldest first; days whose report ' +
          'predates readiness are left out.',
        items: {
          type: 'object',
          required: ['date', 'share'],
          additionalProperties: false,
          properties: { date: { type: 'string', format: 'date' }, share },
        },
      },
    },
  },
} as const;

const problems = (notFound: string) => ({
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '404': responseRef(notFound),
  '500': responseRef('InternalError'),
});

export const paths: PathsObject = {
  '/api/frameworks': {
    get: {
      operationId: 'listFrameworks',
      summary: 'Readiness for each framework',
      description:
        'Each framework\u2019s share of requirements met, its counts and its coverage, from the report of `date` ' +
        '(today by default, produced on first read like `GET /api/report/today`).',
      tags: ['frameworks'],
      security: access.protected,
      parameters: [dateParameter],
      responses: {
        '200': jsonResponse('Every framework\u2019s readiness.', ref('FrameworkList')),
        ...problems('ReportNotFound'),
      },
    },
  },
  '/api/frameworks/{framework}': {
    get: {
      operationId: 'getFramework',
      summary: 'Readiness for one framework',
      description:
        'Every requirement of the framework the catalog covers, with its status and its controls\u2019, the ' +
        'requirements no control covers, and the share met over the year up to `date`.',
      tags: ['frameworks'],
      security: access.protected,
      parameters: [frameworkParameter, dateParameter],
      responses: {
        '200': jsonResponse('The framework\u2019s readiness.', ref('FrameworkDetail')),
        ...problems('FrameworkOrReportNotFound'),
      },
    },
  },
};
