/** The `controls` family: the control catalog, each control with its latest assessed status. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  controlFrequencies,
  controlIdPattern,
  datePattern,
  type FrameworkId,
  frameworkIds as frameworkIdList,
  pageLimits,
  printableTextPattern,
  reconciliationKeyPattern,
  sampleLimits,
  subjectOutcomes,
} from '@evident/contract';

export const tag = {
  name: 'controls',
  description: 'The control catalog Evident assesses, with each control\u2019s status in the latest report.',
};

const frameworkIds = { type: 'array', items: { type: 'string' } } as const;

/** What every view of a control has; the detail adds its text, evidence, checks and result. */
const summaryFields = {
  id: { type: 'string', pattern: controlIdPattern },
  title: { type: 'string' },
  family: { type: 'string' },
  severity: ref('Severity'),
  frameworks: ref('FrameworkMappings'),
  automated: { type: 'boolean', description: 'True when checks evaluate it; false when it rests on attestations.' },
  owner: {
    type: 'string',
    description:
      'Who answers for it, as the newest report names them (the settings\u2019 first owner\u2019s address, else the ' +
      'catalog\u2019s role label); the catalog\u2019s before any report.',
  },
  owners: {
    type: 'array',
    items: ref('Owner'),
    description: 'The people the settings name for it, as of the newest report; absent when none.',
  },
  latest: { oneOf: [ref('LatestStatus'), { type: 'null' }], description: 'Null until a report exists.' },
} as const;

/** How each framework's ids are written, in the catalog's notation. */
const mappedIds: Record<FrameworkId, string> = {
  soc2: 'AICPA Trust Services Criteria (2017) ids, e.g. `CC6.1`.',
  iso27001: 'ISO/IEC 27001:2022 Annex A ids, e.g. `A.5.17`.',
  nist80053: 'NIST SP 800-53 rev5 ids, e.g. `ia-2.1`.',
};

export const schemas = {
  FrameworkMappings: {
    type: 'object',
    required: [...frameworkIdList],
    additionalProperties: false,
    properties: Object.fromEntries(
      frameworkIdList.map((framework) => [framework, { ...frameworkIds, description: mappedIds[framework] }]),
    ),
  },
  EvidenceRequirement: {
    type: 'object',
    required: ['kind', 'freshnessDays'],
    additionalProperties: false,
    properties: {
      kind: ref('EvidenceKind'),
      freshnessDays: { type: 'integer', minimum: 1, description: 'Evidence older than this many days is stale.' },
    },
  },
  Check: {
    type: 'object',
    required: ['id', 'kind', 'mode', 'expression', 'pass', 'fail'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      kind: ref('EvidenceKind'),
      mode: {
        type: 'string',
        enum: ['each', 'all'],
        description: '`each`: per subject\u2019s newest item; `all`: once over them all.',
      },
      expression: { type: 'string', description: 'The CEL expression that must be true.' },
      where: { type: 'string', description: 'For `each`: a CEL filter choosing the items the check applies to.' },
      pass: { type: 'string', description: 'Message template when the check holds.' },
      fail: { type: 'string', description: 'Message template when it does not.' },
    },
  },
  Reconciliation: {
    type: 'object',
    required: ['id', 'description', 'population', 'coveredBy', 'expect', 'freshnessDays'],
    additionalProperties: false,
    description:
      'One population must cover another (docs/collectors.md \u00a7 Completeness): every subject of `population` needs ' +
      'a subject of `coveredBy` whose `key` equals `expect` filled from the population\u2019s item. Only fresh, current ' +
      'evidence counts on either side. A control whose reconciliation leaves subjects uncovered fails, naming them.',
    properties: {
      id: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      description: { type: 'string', description: 'What the reconciliation asks, in words.' },
      population: ref('ReconciledSide'),
      coveredBy: {
        allOf: [ref('ReconciledSide')],
        description: 'The population that must cover, with the `key` each of its items is matched by.',
      },
      expect: {
        type: 'string',
        description:
          'The key a covering item must have, as a template over the population\u2019s item: `{{subject}}`, ' +
          '`{{data.field}}`, or text around them (`{{subject}}/security-awareness`).',
      },
      freshnessDays: {
        type: 'integer',
        minimum: 1,
        description: 'Evidence older than this many days counts on neither side.',
      },
    },
  },
  ReconciledSide: {
    type: 'object',
    required: ['kind'],
    additionalProperties: false,
    properties: {
      kind: ref('EvidenceKind'),
      where: { type: 'string', description: 'A CEL filter over `item` and `data` choosing the subjects that count.' },
      key: {
        type: 'string',
        pattern: reconciliationKeyPattern,
        description: 'On `coveredBy`: what an item is matched by, `subject` or `data.<field>`.',
      },
    },
  },
  ScannerFeed: {
    type: 'object',
    required: ['frameworks', 'checks', 'freshnessDays'],
    additionalProperties: false,
    description:
      'The scanner checks whose findings (`scanner.finding` evidence) count for the control: a FAIL fails it for that ' +
      'resource, a PASS passes it, MANUAL and muted findings are shown and decide nothing.',
    properties: {
      frameworks: {
        type: 'array',
        items: { type: 'string', enum: [...frameworkIdList] },
        description:
          'Frameworks whose scanner mappings the control follows: a check mapped under one of its requirements there ' +
          'feeds it, and so does a finding that names such a requirement itself.',
      },
      checks: {
        type: 'array',
        description: 'Every check that feeds the control, by id.',
        items: {
          type: 'object',
          required: ['id', 'named', 'requirements'],
          additionalProperties: false,
          properties: {
            id: { type: 'string' },
            named: { type: 'boolean', description: 'The control names the check itself.' },
            requirements: {
              type: 'array',
              description: 'The control\u2019s requirements the scanner\u2019s mapping puts the check under.',
              items: {
                type: 'object',
                required: ['framework', 'id'],
                additionalProperties: false,
                properties: { framework: { type: 'string', enum: [...frameworkIdList] }, id: { type: 'string' } },
              },
            },
          },
        },
      },
      freshnessDays: { type: 'integer', minimum: 1, description: 'Findings older than this many days are stale.' },
    },
  },
  LatestStatus: {
    type: 'object',
    required: ['date', 'status'],
    additionalProperties: false,
    description: 'The control\u2019s result in the newest stored report.',
    properties: {
      date: { type: 'string', format: 'date' },
      status: ref('ControlStatus'),
      dueDate: { type: 'string', format: 'date', description: 'While failing, stale or missing: when it is due fixed.' },
      overdue: { type: 'boolean', description: 'While failing, stale or missing: whether it is past `dueDate`.' },
    },
  },
  ControlSummary: {
    type: 'object',
    required: Object.keys(summaryFields).filter((name) => name !== 'owners'),
    additionalProperties: false,
    properties: summaryFields,
  },
  ControlList: {
    type: 'object',
    required: ['catalogVersion', 'controls'],
    additionalProperties: false,
    properties: {
      catalogVersion: { type: 'string' },
      controls: { type: 'array', items: ref('ControlSummary') },
    },
  },
  ControlDetail: {
    type: 'object',
    required: [
      ...Object.keys(summaryFields).filter((name) => name !== 'owners'),
      'objective',
      'guidance',
      'evidence',
      'checks',
      'scanner',
      'reconciliations',
      'result',
    ],
    additionalProperties: false,
    properties: {
      ...summaryFields,
      objective: { type: 'string', description: 'Sanitised HTML.' },
      guidance: { type: 'string', description: 'Sanitised HTML.' },
      evidence: { type: 'array', items: ref('EvidenceRequirement') },
      checks: { type: 'array', items: ref('Check') },
      scanner: ref('ScannerFeed'),
      reconciliations: {
        type: 'array',
        items: ref('Reconciliation'),
        description: 'The populations the control declares must cover one another; empty when it declares none.',
      },
      result: {
        oneOf: [ref('ControlResult'), { type: 'null' }],
        description: 'The full result (findings, evidence) in the newest report; null until a report exists.',
      },
    },
  },
  OscalComponentDefinition: {
    type: 'object',
    required: ['component-definition'],
    description: 'An OSCAL 1.0.6 component definition document (https://pages.nist.gov/OSCAL/).',
    properties: { 'component-definition': { type: 'object' } },
  },
  HistorySide: {
    type: 'object',
    required: ['date', 'status', 'findings'],
    additionalProperties: false,
    description: 'The control in one report on one side of a change.',
    properties: {
      date: { type: 'string', format: 'date' },
      status: ref('ControlStatus'),
      findings: { type: 'array', items: ref('Finding'), description: 'The findings that were not a pass.' },
    },
  },
  HistoryChange: {
    type: 'object',
    required: ['date', 'from', 'to', 'evidence'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date', description: 'The first day of the new status.' },
      from: {
        oneOf: [ref('HistorySide'), { type: 'null' }],
        description: 'The report before the change; null when none before it assessed the control.',
      },
      to: ref('HistorySide'),
      evidence: {
        type: 'object',
        required: ['added', 'removed'],
        additionalProperties: false,
        description: 'Evidence items the result considered after the change and not before, and the other way round.',
        properties: {
          added: { type: 'array', items: { type: 'string' } },
          removed: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  ControlHistory: {
    type: 'object',
    required: ['controlId', 'from', 'to', 'days', 'summary', 'changes'],
    additionalProperties: false,
    properties: {
      controlId: { type: 'string', pattern: controlIdPattern },
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
      days: {
        type: 'array',
        description: 'Every day of the period, oldest first; `status` is null on a day without a report.',
        items: {
          type: 'object',
          required: ['date', 'status'],
          additionalProperties: false,
          properties: { date: { type: 'string', format: 'date' }, status: { oneOf: [ref('ControlStatus'), { type: 'null' }] } },
        },
      },
      summary: {
        type: 'object',
        required: ['daysWithReport', 'daysPassing', 'passingShare', 'longestNonPassingStreak', 'fixes', 'meanTimeToFixDays'],
        additionalProperties: false,
        properties: {
          daysWithReport: { type: 'integer', minimum: 0, description: 'Days whose report assessed the control.' },
          daysPassing: { type: 'integer', minimum: 0 },
          passingShare: {
            oneOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'null' }],
            description: 'Days passing over days assessed and applicable; null when there were none.',
          },
          longestNonPassingStreak: {
            oneOf: [
              {
                type: 'object',
                required: ['days', 'from', 'to'],
                additionalProperties: false,
                properties: {
                  days: { type: 'integer', minimum: 1, description: 'Calendar days from its first report to its last.' },
                  from: { type: 'string', format: 'date' },
                  to: { type: 'string', format: 'date' },
                },
              },
              { type: 'null' },
            ],
            description: 'Consecutive reports failing, stale or missing evidence (days without a report do not break it).',
          },
          fixes: { type: 'integer', minimum: 0, description: 'Non-passing runs that a passing report ended.' },
          meanTimeToFixDays: {
            oneOf: [{ type: 'number', minimum: 0 }, { type: 'null' }],
            description: 'Mean days from a run\u2019s first day to the passing report that ended it; null without a fix.',
          },
        },
      },
      changes: { type: 'array', items: ref('HistoryChange'), description: 'Every change of status, oldest first.' },
    },
  },
  SampleSuggestion: {
    type: 'object',
    required: ['frequency', 'minimum', 'maximum'],
    additionalProperties: false,
    description: 'How often the control operates, derived from the catalog, and the sample sizes suggested for it.',
    properties: {
      frequency: { type: 'string', enum: [...controlFrequencies] },
      minimum: { type: 'integer', minimum: 1 },
      maximum: { type: 'integer', minimum: 1 },
    },
  },
  ControlSample: {
    type: 'object',
    required: ['controlId', 'from', 'to', 'seed', 'seedChosen', 'size', 'suggestion', 'population', 'sample'],
    additionalProperties: false,
    description:
      'A reproducible sample of the days in the period that have a report, by the published method (docs/sampling.md): ' +
      'each day `YYYY-MM-DD` ranked by the SHA-256 of `<seed>\\n<day>` as lowercase hex, ascending; the first `size` days.',
    properties: {
      controlId: { type: 'string', pattern: controlIdPattern },
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
      seed: { type: 'string', description: 'The seed the days were ranked with.' },
      seedChosen: {
        type: 'boolean',
        description: 'False when the request gave none and the seed is the period itself, `<from>..<to>`.',
      },
      size: { type: 'integer', minimum: 1, description: 'The size asked for, else the suggestion\u2019s upper end.' },
      suggestion: ref('SampleSuggestion'),
      population: { type: 'integer', minimum: 0, description: 'The days of the period that have a report.' },
      sample: {
        type: 'array',
        description: 'The sampled days in rank order: `size` of them, or every day when the population is smaller.',
        items: {
          type: 'object',
          required: ['rank', 'date', 'digest', 'status', 'evidence'],
          additionalProperties: false,
          properties: {
            rank: { type: 'integer', minimum: 1 },
            date: { type: 'string', format: 'date' },
            digest: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of `<seed>\\n<date>`.' },
            status: {
              oneOf: [ref('ControlStatus'), { type: 'null' }],
              description: 'The control\u2019s status that day; null when that day\u2019s report did not assess it.',
            },
            evidence: { type: 'array', items: { type: 'string' }, description: 'The evidence items its result considered.' },
          },
        },
      },
    },
  },
  ControlSubjectSample: {
    type: 'object',
    required: ['controlId', 'date', 'kind', 'runId', 'count', 'sha256', 'seed', 'seedChosen', 'size', 'suggestion', 'sample'],
    additionalProperties: false,
    description:
      'A reproducible sample of the subjects of a control\u2019s population on a day, by the published method ' +
      '(docs/sampling.md): each subject ranked by the SHA-256 of `<seed>\\n<subject>` as lowercase hex, ascending; ' +
      'the first `size` subjects. Anyone holding the population\u2019s CSV re-derives it.',
    properties: {
      controlId: { type: 'string', pattern: controlIdPattern },
      date: { type: 'string', format: 'date' },
      kind: ref('EvidenceKind'),
      runId: { type: 'string', description: 'The run id of the report version whose population was sampled.' },
      count: { type: 'integer', minimum: 0, description: 'How many subjects the population has.' },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The population\u2019s SHA-256, as its page gives it.' },
      seed: { type: 'string', description: 'The seed the subjects were ranked with.' },
      seedChosen: {
        type: 'boolean',
        description: 'False when the request gave none and the seed is `<date>/<kind>`, which the organisation can foresee.',
      },
      size: { type: 'integer', minimum: 1, description: 'The size asked for, else the suggestion\u2019s upper end.' },
      suggestion: ref('SampleSuggestion'),
      sample: {
        type: 'array',
        description: 'The sampled subjects in rank order: `size` of them, or every subject when the population is smaller.',
        items: {
          type: 'object',
          required: ['rank', 'subject', 'digest', 'outcome', 'evidenceId'],
          additionalProperties: false,
          properties: {
            rank: { type: 'integer', minimum: 1 },
            subject: { type: 'string' },
            digest: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of `<seed>\\n<subject>`.' },
            outcome: { type: 'string', enum: [...subjectOutcomes] },
            evidenceId: { type: 'string', description: 'The evidence item its outcome rests on.' },
          },
        },
      },
    },
  },
  ControlPopulationPage: {
    type: 'object',
    required: ['controlId', 'date', 'kind', 'runId', 'count', 'sha256', 'subjects', 'hasMore'],
    additionalProperties: false,
    description:
      'A page of the subjects of one evidence kind a control\u2019s checks ran on in a day\u2019s report, in subject ' +
      'order, each with its outcome: the population an auditor samples subjects from (docs/sampling.md).',
    properties: {
      controlId: { type: 'string', pattern: controlIdPattern },
      date: { type: 'string', format: 'date' },
      kind: ref('EvidenceKind'),
      runId: {
        type: 'string',
        description:
          'The run id of the report version the population belongs to: the day\u2019s current report on the first ' +
          'page, and the same version on every page a cursor continues, even if the report is republished meanwhile.',
      },
      count: { type: 'integer', minimum: 0, description: 'How many subjects the whole population has.' },
      sha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description:
          'SHA-256 (hex) of all its subjects as the sampling method publishes it (docs/sampling.md): sorted by their ' +
          'UTF-8 bytes, each followed by a line feed (`LC_ALL=C sort -u | sha256sum`).',
      },
      subjects: {
        type: 'array',
        description: 'This page\u2019s subjects, in that order.',
        items: {
          type: 'object',
          required: ['subject', 'outcome', 'evidenceId'],
          additionalProperties: false,
          properties: {
            subject: { type: 'string' },
            outcome: {
              type: 'string',
              enum: [...subjectOutcomes],
              description: '`error`: its evidence could not be evaluated; `out_of_scope`: the checks\u2019 scope left it out.',
            },
            evidenceId: { type: 'string', description: 'The evidence item its outcome rests on.' },
          },
        },
      },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
} as const;

const controlIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: controlIdPattern },
} as const;

/** A day bounding a period, in the report time zone. */
const periodBound = (name: 'from' | 'to', description: string) =>
  ({ name, in: 'query', required: false, description, schema: { type: 'string', pattern: datePattern } }) as const;

/** The control and the period of both forms of its history (JSON and CSV), and how either is refused. */
const historyParameters = [
  controlIdParameter,
  periodBound('from', 'The first day of the period, `YYYY-MM-DD`.'),
  periodBound('to', 'The last day of the period, `YYYY-MM-DD`; today when absent.'),
];
/** The period, size and seed of both forms of a sample (JSON and CSV). */
const sampleParameters = [
  ...historyParameters,
  {
    name: 'size',
    in: 'query',
    required: false,
    description: 'How many days to sample; the upper end of the suggestion for how often the control operates when absent.',
    schema: { type: 'integer', ...sampleLimits.size },
  } as const,
  {
    name: 'seed',
    in: 'query',
    required: false,
    description:
      'The seed that ranks the days, chosen by the auditor (printable characters); the period itself, `<from>..<to>`, ' +
      'when absent, which the audited organisation can foresee.',
    schema: { type: 'string', ...sampleLimits.seed, pattern: printableTextPattern },
  } as const,
];
/** The control, day and kind of both forms of a population (JSON and CSV). */
const populationParameters = [
  controlIdParameter,
  {
    name: 'date',
    in: 'query',
    required: false,
    description: 'The report\u2019s day, `YYYY-MM-DD`; today in the report time zone when absent.',
    schema: { type: 'string', pattern: datePattern },
  } as const,
  {
    name: 'kind',
    in: 'query',
    required: true,
    description: 'The evidence kind of subjects, one the control\u2019s checks read (`result.populations` lists them).',
    schema: ref('EvidenceKind'),
  } as const,
];
const subjectSampleParameters = [
  ...populationParameters,
  {
    name: 'size',
    in: 'query',
    required: false,
    description: 'How many subjects to sample; the upper end of the suggestion for how often the control operates when absent.',
    schema: { type: 'integer', ...sampleLimits.size },
  } as const,
  {
    name: 'seed',
    in: 'query',
    required: false,
    description:
      'The seed that ranks the subjects, chosen by the auditor (printable characters); `<date>/<kind>` when absent, ' +
      'which the audited organisation can foresee.',
    schema: { type: 'string', ...sampleLimits.seed, pattern: printableTextPattern },
  } as const,
];
const populationProblems = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '404': responseRef('PopulationNotFound'),
  '500': responseRef('InternalError'),
};
const historyProblems = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '404': responseRef('ControlNotFound'),
  '500': responseRef('InternalError'),
};

export const paths: PathsObject = {
  '/api/controls': {
    get: {
      operationId: 'listControls',
      summary: 'List controls with their latest status',
      tags: ['controls'],
      security: access.protected,
      parameters: [
        { name: 'status', in: 'query', required: false, schema: ref('ControlStatus') },
        { name: 'family', in: 'query', required: false, schema: { type: 'string', maxLength: 100 } },
        {
          name: 'framework',
          in: 'query',
          required: false,
          description: 'A framework requirement id the control maps to, e.g. `CC6.1`, `A.5.17` or `ia-2`.',
          schema: { type: 'string', maxLength: 50 },
        },
      ],
      responses: {
        '200': jsonResponse('The catalog.', ref('ControlList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/controls/oscal': {
    get: {
      operationId: 'getCatalogOscal',
      summary: 'Export the catalog as an OSCAL component definition',
      description:
        'The control catalog as an OSCAL 1.0.6 component definition: the NIST SP 800-53 rev5 controls it assesses, ' +
        'each with the Evident controls that do, and every Evident control with its objective, the evidence it ' +
        'needs, its framework ids, its owner and its checks.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      responses: {
        '200': jsonResponse('The OSCAL document.', ref('OscalComponentDefinition')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/controls/{id}': {
    get: {
      operationId: 'getControl',
      summary: 'Get one control with its latest result',
      tags: ['controls'],
      security: access.protected,
      parameters: [controlIdParameter],
      responses: {
        '200': jsonResponse('The control.', ref('ControlDetail')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ControlNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/controls/{id}/history': {
    get: {
      operationId: 'getControlHistory',
      summary: 'Get one control over a period',
      description:
        'The control\u2019s status on each day from `from` to `to`, the share of days it passed, its longest ' +
        'non-passing streak, how long fixes took, and every change of status with the findings and evidence on ' +
        'either side. Reads one report per day of the period. At most 366 days; `to` defaults to today and ' +
        '`from` to 89 days before `to`. A day that is not a calendar day, `from` after `to`, a `to` after today ' +
        'or a longer period answers 400.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: historyParameters,
      responses: {
        '200': jsonResponse('The control over the period.', ref('ControlHistory')),
        ...historyProblems,
      },
    },
  },
  '/api/controls/{id}/history.csv': {
    get: {
      operationId: 'exportControlHistory',
      summary: 'Export one control over a period as CSV',
      description:
        'The history of `GET /api/controls/{id}/history` as CSV (RFC 4180, CRLF line ends), one row a day: ' +
        '`date`, `status` (empty without a report), and on the day of a change `changed_from` (`none` for a first ' +
        'assessment), `reasons` (the findings that were not a pass, or for a fix the ones it resolved, separated ' +
        'by ` | `) and `evidence_added` (space-separated ids). A cell a spreadsheet would take for a formula is ' +
        'prefixed with an apostrophe. The same period rules and problems as the JSON.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: historyParameters,
      responses: {
        '200': {
          description: 'The CSV, named `<id>-<from>-to-<to>.csv` for saving.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...historyProblems,
      },
    },
  },
  '/api/controls/{id}/sample': {
    get: {
      operationId: 'getControlSample',
      summary: 'Sample the days of a period a control was tested',
      description:
        'A reproducible sample of the days from `from` to `to` that have a report (the population), for testing a ' +
        'control that operates daily: each day ranked by the SHA-256 of the seed, a line feed and the day, ascending ' +
        '(docs/sampling.md), the first `size` taken, each with the control\u2019s status and evidence that day. ' +
        'Lists the period\u2019s reports and reads only the sampled days\u2019 reports. The same period rules as the ' +
        'history (at most 366 days, `to` defaults to today and `from` to 89 days before it); a size outside 1\u201360 ' +
        'or a seed that is empty, longer than 200 characters or not printable answers 400.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: sampleParameters,
      responses: {
        '200': jsonResponse('The sample.', ref('ControlSample')),
        ...historyProblems,
      },
    },
  },
  '/api/controls/{id}/sample.csv': {
    get: {
      operationId: 'exportControlSample',
      summary: 'Export a sample of a control\u2019s days, or its population, as CSV',
      description:
        'The sample of `GET /api/controls/{id}/sample` as CSV (RFC 4180, CRLF line ends, every field quoted, formulas ' +
        'defused as in the history export): with `rows=sample`, one row per sampled day in rank order, `rank`, ' +
        '`date`, `sha256`, `status`, `evidence` (space-separated ids); with `rows=population`, one row per day of the ' +
        'period that has a report, oldest first, `date`, `status`, `sha256`, `rank`, `sampled` (`yes` or `no`), which ' +
        'reads every day\u2019s report. The same parameters and problems as the JSON.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: [
        ...sampleParameters,
        {
          name: 'rows',
          in: 'query',
          required: false,
          description: 'The sampled days, or every day of the population.',
          schema: { type: 'string', enum: ['sample', 'population'], default: 'sample' },
        } as const,
      ],
      responses: {
        '200': {
          description: 'The CSV, named `<id>-<from>-to-<to>-sample.csv` (or `-population.csv`) for saving.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...historyProblems,
      },
    },
  },
  '/api/controls/{id}/population': {
    get: {
      operationId: 'getControlPopulation',
      summary: 'Page the population a control was tested on in a day\u2019s report',
      description:
        'The subjects of one evidence kind the control\u2019s checks ran on in the day\u2019s report, in subject order, ' +
        'each with its outcome and the evidence item it rests on, `limit` at a time, with the population\u2019s count ' +
        'and SHA-256. Reads the report\u2019s run id and at most three stored objects a page, whatever the ' +
        'population\u2019s size. A date that is not a calendar day, or a cursor this API did not give out for this ' +
        'control, day and kind, answers 400; a day without a report, or a report that recorded no such population ' +
        '(a kind the control does not read, or a report made before reports recorded them), 404.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: [
        ...populationParameters,
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.populationSubjects.maximum,
            default: pageLimits.populationSubjects.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of the population.', ref('ControlPopulationPage')),
        ...populationProblems,
      },
    },
  },
  '/api/controls/{id}/population.csv': {
    get: {
      operationId: 'exportControlPopulation',
      summary: 'Export the population a control was tested on in a day\u2019s report as CSV',
      description:
        'Every subject of `GET /api/controls/{id}/population` as CSV (RFC 4180, CRLF line ends, every field quoted, ' +
        'formulas defused as in the history export), in subject order: `subject`, `outcome`, `evidence_id`. Sent as ' +
        'it is read, a stored chunk of subjects at a time. The population\u2019s count, SHA-256 (as the page gives it) ' +
        'and report run id are in the `Evident-Population-Count`, ' +
        '`Evident-Population-Sha256` and `Evident-Report-Run-Id` headers. The same parameters and problems as the JSON.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: populationParameters,
      responses: {
        '200': {
          description: 'The CSV, named `<id>-<date>-<kind>-population.csv` for saving.',
          headers: {
            'Content-Disposition': { schema: { type: 'string' } },
            'Evident-Population-Count': { schema: { type: 'integer', minimum: 0 } },
            'Evident-Population-Sha256': { schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
            'Evident-Report-Run-Id': { schema: { type: 'string' } },
          },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...populationProblems,
      },
    },
  },
  '/api/controls/{id}/population/sample': {
    get: {
      operationId: 'getControlSubjectSample',
      summary: 'Sample the subjects of the population a control was tested on in a day\u2019s report',
      description:
        'A reproducible sample of the subjects of `GET /api/controls/{id}/population`: each ranked by the SHA-256 of ' +
        'the seed, a line feed and the subject, ascending (docs/sampling.md), the first `size` taken, each with its ' +
        'outcome and evidence item. Reads the population\u2019s header and every stored chunk of it (a chunk holds ' +
        '2,000 subjects). A size outside 1\u201360, or a seed that is empty, longer than 200 characters or not ' +
        'printable, answers 400; otherwise the same parameters and problems as the population.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: subjectSampleParameters,
      responses: {
        '200': jsonResponse('The sample.', ref('ControlSubjectSample')),
        ...populationProblems,
      },
    },
  },
  '/api/controls/{id}/population/sample.csv': {
    get: {
      operationId: 'exportControlSubjectSample',
      summary: 'Export a sample of the subjects a control was tested on as CSV',
      description:
        'The sample of `GET /api/controls/{id}/population/sample` as CSV (RFC 4180, CRLF line ends, every field ' +
        'quoted, formulas defused as in the history export), one row per sampled subject in rank order: `rank`, ' +
        '`subject`, `sha256` (the digest that ranked it), `outcome`, `evidence_id`. The same parameters and problems.',
      tags: ['controls'],
      'x-beta': true,
      security: access.protected,
      parameters: subjectSampleParameters,
      responses: {
        '200': {
          description: 'The CSV, named `<id>-<date>-<kind>-sample.csv` for saving.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...populationProblems,
      },
    },
  },
};
