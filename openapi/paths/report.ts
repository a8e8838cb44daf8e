/** The `report` family: the daily assessment, for today and any past date, and its OSCAL export. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  completenessReasons,
  controlStatuses,
  datePattern,
  expiringHorizonDays,
  maxAwaitingReviewListed,
  maxExpiringPerControl,
  maxUncoveredListed,
  pageLimits,
  severities,
} from '@evident/contract';

export const tag = {
  name: 'report',
  description:
    'The daily assessment report: every control evaluated against the evidence as of one date. Reports for past ' +
    'dates never change; today\u2019s report is produced on first request if the daily job has not run yet. ' +
    'Today\u2019s report may be published again by an analysis (`POST /api/analyses` with `publish`); every version ' +
    'of a day is kept, the daily job\u2019s included, and listed by `GET /api/report/{date}/versions`.',
};

const controlIdList = {
  type: 'array',
  items: { type: 'string' },
  description: 'Control ids.',
} as const;

export const schemas = {
  ControlStatus: {
    type: 'string',
    enum: [...controlStatuses],
    description:
      '`passing`: fresh evidence satisfies every check. `failing`: a check fails on fresh evidence. `stale`: the ' +
      'evidence is older than the control\u2019s freshness window or has expired. `missing`: a required kind of ' +
      'evidence has never been received. `not_applicable`: a current attestation scopes the control out.',
  },
  Severity: { type: 'string', enum: [...severities] },
  Finding: {
    type: 'object',
    required: ['outcome', 'message', 'evidence'],
    additionalProperties: false,
    properties: {
      outcome: {
        type: 'string',
        enum: ['pass', 'fail', 'stale', 'missing', 'error', 'not_applicable', 'info'],
        description:
          '`error`: the check could not be evaluated on this evidence (for example a field it reads is absent). ' +
          '`info`: shown, deciding nothing (a scanner finding marked MANUAL or muted).',
      },
      check: { type: 'string', description: 'The id of the check (a catalog check, or a scanner\u2019s), for check outcomes.' },
      kind: { type: 'string', description: 'The evidence kind the finding is about.' },
      subject: { type: 'string', description: 'The subject of the evidence, when the finding is about one subject.' },
      message: { type: 'string' },
      evidence: { type: 'array', items: { type: 'string' }, description: 'Ids of the evidence items the finding rests on.' },
      completeness: ref('CompletenessIssue'),
      accepted: {
        type: 'object',
        required: ['exception', 'expiresOn'],
        additionalProperties: false,
        description: 'On a `fail` or `error` an exception covers: the exception, and the day the finding counts again.',
        properties: { exception: { type: 'string' }, expiresOn: { type: 'string', format: 'date' } },
      },
    },
  },
  CompletenessIssue: {
    type: 'object',
    required: ['reason'],
    additionalProperties: false,
    description:
      'On a `fail` that is about the population rather than a subject (docs/collectors.md \u00a7 Completeness): ' +
      'why the control cannot pass on the population it has.',
    properties: {
      reason: {
        type: 'string',
        enum: [...completenessReasons],
        description:
          '`run_incomplete`: the newest run of a source the control reads ended incomplete (abandoned, counts that ' +
          'disagree, cancelled). `run_outdated`: the newest complete run of a source is older than the control\u2019s ' +
          'freshness window for the kind. `population_dropped`: the newest complete population shrank past the ' +
          'threshold since the one before, and nobody has acknowledged it. `reconciliation`: one population does not ' +
          'cover another as the control declares.',
      },
      source: { type: 'string', description: 'The source whose run the finding is about.' },
      runId: { type: 'string', description: 'The run the finding is about.' },
      reconciliation: { type: 'string', description: 'The id of the control\u2019s reconciliation that failed.' },
      uncovered: {
        type: 'object',
        required: ['count', 'subjects'],
        additionalProperties: false,
        description: 'For a reconciliation: the subjects of the population no subject of the other covers.',
        properties: {
          count: { type: 'integer', minimum: 1 },
          subjects: {
            type: 'array',
            items: { type: 'string' },
            maxItems: maxUncoveredListed,
            description: `The first ${maxUncoveredListed}, in subject order.`,
          },
        },
      },
    },
  },
  PopulationUsed: {
    type: 'object',
    required: ['kind', 'count', 'sha256', 'runs'],
    additionalProperties: false,
    description:
      'The population a control\u2019s checks of one evidence kind ran on: the subjects whose newest evidence was ' +
      'fresh and still in its source\u2019s population, counted and hashed, and the complete collection runs that ' +
      'define that population.',
    properties: {
      kind: { type: 'string' },
      count: { type: 'integer', minimum: 0, description: 'Subjects the checks ran on.' },
      sha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description:
          'SHA-256 (hex) over those subjects sorted by their UTF-8 bytes, each followed by a line feed, as the sampling ' +
          'method publishes it (docs/sampling.md): `LC_ALL=C sort -u | sha256sum` re-derives it.',
      },
      runs: {
        type: 'array',
        items: ref('PopulationRun'),
        description: 'Per source with a complete run of the kind: its newest complete run before the report\u2019s cut-off.',
      },
    },
  },
  PopulationRun: {
    type: 'object',
    required: ['source', 'runId', 'completedAt', 'count', 'sha256'],
    additionalProperties: false,
    properties: {
      source: { type: 'string' },
      runId: { type: 'string' },
      completedAt: { type: 'string', format: 'date-time' },
      count: { type: 'integer', minimum: 0, description: 'The subjects the run reported.' },
      sha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description: 'As `PopulationUsed.sha256`, over the run\u2019s subjects.',
      },
    },
  },
  ControlResult: {
    type: 'object',
    required: ['id', 'title', 'family', 'severity', 'status', 'findings', 'evidence'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      title: { type: 'string' },
      family: { type: 'string' },
      severity: ref('Severity'),
      status: ref('ControlStatus'),
      findings: { type: 'array', items: ref('Finding') },
      evidence: { type: 'array', items: { type: 'string' }, description: 'Every evidence item the result considered.' },
      owner: {
        type: 'string',
        description:
          'Who answers for the control, in one line: the first of `owners`\u2019 e-mail address, or the catalog\u2019s ' +
          'role label when the settings name nobody.',
      },
      owners: {
        type: 'array',
        items: ref('Owner'),
        description: 'The people the settings name for the control (its own, else its family\u2019s); absent when none.',
      },
      openSince: {
        type: 'string',
        format: 'date',
        description:
          'While failing, stale or missing evidence: the first day of the current run of those statuses, carried ' +
          'from report to report.',
      },
      dueDate: {
        type: 'string',
        format: 'date',
        description: 'While open: `openSince` plus the days the control\u2019s severity allows.',
      },
      overdue: { type: 'boolean', description: 'While open: whether the report\u2019s day is after `dueDate`.' },
      riskAccepted: {
        type: 'boolean',
        description:
          'True when the control is failing only on findings exceptions cover (and no evidence is stale or missing): ' +
          'it then counts for neither the score nor readiness, and has no due date, until the exception expires.',
      },
      populations: {
        type: 'array',
        items: ref('PopulationUsed'),
        description:
          'For each evidence kind of subjects the control\u2019s checks read (not attestations or scanner findings), in ' +
          'kind order: the population they ran on. Absent when the control reads none.',
      },
      expiring: {
        type: 'array',
        items: ref('ExpiringItem'),
        maxItems: maxExpiringPerControl,
        description:
          `The fresh evidence the control relies on that ages on its own and goes stale within ${expiringHorizonDays} days, ` +
          `soonest first, at most ${maxExpiringPerControl}. Evidence renewed in the last day (a collector\u2019s daily ` +
          'snapshot) is left out: its next collection renews it. Absent when there is none.',
      },
    },
  },
  ExpiringItem: {
    type: 'object',
    required: ['kind', 'subject', 'evidenceId', 'staleAt'],
    additionalProperties: false,
    properties: {
      kind: { type: 'string' },
      subject: { type: 'string' },
      evidenceId: { type: 'string' },
      staleAt: {
        type: 'string',
        format: 'date-time',
        description:
          'The instant the item no longer counts (its age passes the control\u2019s window for the kind, or it ' +
          'expires), unless newer evidence of the subject arrives first.',
      },
    },
  },
  StatusCounts: {
    type: 'object',
    required: [...controlStatuses],
    additionalProperties: false,
    properties: Object.fromEntries(controlStatuses.map((status) => [status, { type: 'integer', minimum: 0 }])),
  },
  ReportSummary: {
    type: 'object',
    required: ['score', 'counts', 'controls'],
    additionalProperties: false,
    properties: {
      score: {
        type: 'number',
        minimum: 0,
        maximum: 100,
        description:
          'Severity-weighted share of applicable controls that pass, 0–100 with one decimal. Weights: critical 10, ' +
          'high 5, medium 3, low 1; not-applicable and risk-accepted controls are left out.',
      },
      counts: ref('StatusCounts'),
      controls: { type: 'integer', minimum: 0, description: 'How many controls were evaluated.' },
      overdue: {
        type: 'integer',
        minimum: 0,
        description: 'Controls failing, stale or missing evidence past their due date.',
      },
      riskAccepted: { type: 'integer', minimum: 0, description: 'Controls failing only on accepted findings.' },
      readiness: {
        ...ref('ReadinessShares'),
        description: 'Each framework\u2019s share of requirements met; absent from reports made before API 1.4.0.',
      },
    },
  },
  StatusChange: {
    type: 'object',
    required: ['id', 'from', 'to'],
    additionalProperties: false,
    properties: { id: { type: 'string' }, from: ref('ControlStatus'), to: ref('ControlStatus') },
  },
  ReportDiff: {
    type: 'object',
    required: ['previousDate', 'newlyFailing', 'fixed', 'newlyStale', 'changes'],
    additionalProperties: false,
    properties: {
      previousDate: {
        type: ['string', 'null'],
        format: 'date',
        description: 'The report compared against: the latest one before this date, or null for the first report.',
      },
      newlyFailing: { ...controlIdList, description: 'Controls failing now that were not failing before.' },
      fixed: { ...controlIdList, description: 'Controls passing now that were failing before.' },
      newlyStale: { ...controlIdList, description: 'Controls stale now that were not stale before.' },
      changes: { type: 'array', items: ref('StatusChange'), description: 'Every control whose status changed.' },
    },
  },
  Report: {
    type: 'object',
    required: ['date', 'timeZone', 'asOf', 'generatedAt', 'runId', 'catalogVersion', 'summary', 'controls', 'diff'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date', description: 'The day assessed, in `timeZone`.' },
      timeZone: { type: 'string', description: 'The IANA time zone that defines the day.' },
      asOf: {
        type: 'string',
        format: 'date-time',
        description: 'Evidence collected after this instant was not considered; freshness is measured to it.',
      },
      generatedAt: { type: 'string', format: 'date-time' },
      runId: { type: 'string', description: 'The evaluation run that produced the report.' },
      catalogVersion: { type: 'string', description: 'Fingerprint of the control catalog the report was evaluated with.' },
      settingsVersion: {
        type: ['integer', 'null'],
        minimum: 1,
        description:
          'The version of the organisation\u2019s settings the report was evaluated with (`GET /api/settings/versions/' +
          '{version}`); null for the defaults. Absent from reports made before API 1.12.0.',
      },
      summary: ref('ReportSummary'),
      controls: { type: 'array', items: ref('ControlResult'), description: 'One result per control, in id order.' },
      diff: ref('ReportDiff'),
      exceptions: {
        type: 'array',
        items: ref('AppliedException'),
        description: 'The exceptions in force for the report\u2019s day, whether or not a finding needed them.',
      },
      frameworks: {
        type: 'array',
        items: ref('FrameworkReadiness'),
        description:
          'Readiness per framework from the controls\u2019 statuses (see the `frameworks` operations); absent from ' +
          'reports made before API 1.4.0.',
      },
      awaitingReview: ref('AwaitingReview'),
    },
  },
  AwaitingReview: {
    type: 'object',
    required: ['count', 'submissions'],
    additionalProperties: false,
    description:
      'Present only when `SUBMISSION_REVIEW` is `required`: the submissions whose attestations the report did not count ' +
      'because no one had accepted them by its `asOf` (rejected ones never count, and are not listed). Their controls ' +
      'rest on no attestation for those subjects until then.',
    properties: {
      count: { type: 'integer', minimum: 0, description: 'How many submissions await review.' },
      submissions: {
        type: 'array',
        maxItems: maxAwaitingReviewListed,
        description: `Oldest first, at most ${maxAwaitingReviewListed}.`,
        items: {
          type: 'object',
          required: ['submissionId', 'evidenceId', 'controlIds', 'subject', 'submittedAt'],
          additionalProperties: false,
          properties: {
            submissionId: { type: 'string' },
            evidenceId: { type: 'string' },
            controlIds: { type: 'array', items: { type: 'string' } },
            subject: { type: 'string' },
            submittedAt: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  },
  AppliedException: {
    type: 'object',
    required: ['id', 'controlId', 'subject', 'expiresOn', 'approver'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      controlId: { type: 'string' },
      subject: { type: ['string', 'null'] },
      expiresOn: { type: 'string', format: 'date' },
      approver: ref('Actor'),
      requestedBy: {
        ...ref('Actor'),
        description: 'Who requested it; absent from reports made before requests and approvals were separate.',
      },
      independent: {
        type: 'boolean',
        description:
          'Whether the approver is known to be another person than the requester (false in public mode, where callers ' +
          'need not sign in, and for exceptions recorded before requests were reviewed); absent from reports made before.',
      },
    },
  },
  ReportListEntry: {
    type: 'object',
    required: ['date', 'generatedAt', 'summary'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date' },
      generatedAt: { type: 'string', format: 'date-time' },
      summary: ref('ReportSummary'),
    },
  },
  ReportList: {
    type: 'object',
    required: ['timeZone', 'today', 'reports'],
    additionalProperties: false,
    properties: {
      timeZone: { type: 'string' },
      today: { type: 'string', format: 'date', description: 'Today\u2019s date in `timeZone`.' },
      reports: { type: 'array', items: ref('ReportListEntry'), description: 'Every stored report, oldest first.' },
    },
  },
  ReportVersion: {
    type: 'object',
    required: ['version', 'current', 'generatedAt', 'runId', 'publishedBy', 'summary', 'links'],
    additionalProperties: false,
    properties: {
      version: { type: 'integer', minimum: 1, description: 'The version\u2019s number within its day: 1 is the first report.' },
      current: { type: 'boolean', description: 'Whether this is the version `GET /api/report/{date}` serves now.' },
      generatedAt: { type: 'string', format: 'date-time' },
      runId: { type: 'string', description: 'The run that produced it: the daily job\u2019s, or the analysis\u2019s id.' },
      publishedBy: {
        type: 'string',
        enum: ['daily', 'analysis'],
        description:
          '`daily`: the daily job made it (on its schedule, on the first read of the day, or by a development ' +
          'trigger: see `trigger`). `analysis`: an analysis published it as today\u2019s report (its id is `runId`).',
      },
      trigger: {
        type: 'string',
        description:
          'For the daily job: what ran it (`schedule`, `first-read`, `dev-trigger`, `seed` …). Absent for reports ' +
          'stored before API 1.12.0.',
      },
      startedBy: { ...ref('Actor'), description: 'For an analysis: who started it.' },
      summary: ref('ReportSummary'),
      links: {
        type: 'object',
        required: ['self'],
        additionalProperties: false,
        properties: { self: { type: 'string', description: 'Where this version is read.' } },
      },
    },
  },
  ReportVersionPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('ReportVersion'), description: 'Oldest first; the current version last.' },
      hasMore: { type: 'boolean', description: 'True when more versions follow this page.' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
  OscalPoam: {
    type: 'object',
    required: ['plan-of-action-and-milestones'],
    description: 'An OSCAL 1.0.6 Plan of Action and Milestones document (https://pages.nist.gov/OSCAL/).',
    properties: { 'plan-of-action-and-milestones': { type: 'object' } },
  },
  OscalAssessmentResults: {
    type: 'object',
    required: ['assessment-results'],
    description:
      'An OSCAL 1.0.6 Assessment Results document (https://pages.nist.gov/OSCAL/): each control result is a finding ' +
      'with its observations and the evidence they rest on.',
    properties: { 'assessment-results': { type: 'object' } },
  },
} as const;

const dateParameter = {
  name: 'date',
  in: 'path',
  required: true,
  description: 'The day, `YYYY-MM-DD`, in the report time zone.',
  schema: { type: 'string', pattern: datePattern },
} as const;

const etagHeaders = {
  ETag: { description: 'Strong validator of the report bytes.', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'Past dates are immutable; today\u2019s report is revalidated.',
    schema: { type: 'string' },
  },
} as const;

const notModified = { description: 'The report has not changed since the `If-None-Match` ETag.' };
const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag from an earlier response; the answer is 304 when the report is unchanged.',
  schema: { type: 'string' },
} as const;

const versionParameter = {
  name: 'version',
  in: 'path',
  required: true,
  description: 'The version\u2019s number, as `GET /api/report/{date}/versions` lists it.',
  schema: { type: 'integer', minimum: 1 },
} as const;

export const paths: PathsObject = {
  '/api/report': {
    get: {
      operationId: 'listReports',
      summary: 'List report dates with their summaries',
      description: 'Every stored report\u2019s date and summary, oldest first: enough to draw the score trend.',
      tags: ['report'],
      security: access.protected,
      responses: {
        '200': jsonResponse('The stored reports.', ref('ReportList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/today': {
    get: {
      operationId: 'getTodayReport',
      summary: 'Get today\u2019s report',
      description:
        'Today\u2019s report in the report time zone. If the daily job has not produced it yet, it is evaluated now, ' +
        'once: concurrent first requests all receive the same report.',
      tags: ['report'],
      security: access.protected,
      parameters: [ifNoneMatch],
      responses: {
        '200': jsonResponse('Today\u2019s report.', ref('Report'), etagHeaders),
        '304': notModified,
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/{date}': {
    get: {
      operationId: 'getReport',
      summary: 'Get the report of a date',
      description:
        'The report of one day. A date that is not a calendar day (2026-02-30) answers 400; a date in the future, or a ' +
        'past day without a report, 404 `report_not_found`.',
      tags: ['report'],
      security: access.protected,
      parameters: [dateParameter, ifNoneMatch],
      responses: {
        '200': jsonResponse('The report of that day.', ref('Report'), etagHeaders),
        '304': notModified,
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/{date}/oscal': {
    get: {
      operationId: 'getReportOscal',
      summary: 'Export the report of a date as OSCAL Assessment Results',
      description: 'The report of one day as an OSCAL Assessment Results JSON document.',
      tags: ['report'],
      'x-beta': true,
      security: access.protected,
      parameters: [dateParameter, ifNoneMatch],
      responses: {
        '200': jsonResponse('The OSCAL document.', ref('OscalAssessmentResults'), etagHeaders),
        '304': notModified,
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/{date}/poam': {
    get: {
      operationId: 'getReportPoam',
      summary: 'Export the open work of a date as an OSCAL POA&M',
      description:
        'The controls failing, stale or missing evidence in the report of one day as an OSCAL Plan of Action and ' +
        'Milestones: per control a POA&M item and a risk with its first-seen day, owner, due date (the deadline and a ' +
        'milestone) and the observations behind it. With nothing open, one item says so (OSCAL requires an item).',
      tags: ['report'],
      'x-beta': true,
      security: access.protected,
      parameters: [dateParameter, ifNoneMatch],
      responses: {
        '200': jsonResponse('The OSCAL document.', ref('OscalPoam'), etagHeaders),
        '304': notModified,
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/{date}/versions': {
    get: {
      operationId: 'listReportVersions',
      summary: 'List the versions of the report of a date',
      description:
        'Every version of a day\u2019s report, oldest first, the current one last: the daily job\u2019s report and each ' +
        'one an analysis published over it, with who published it and why. A day never republished has one version. ' +
        'A past day\u2019s versions never change. The date answers as in `GET /api/report/{date}`.',
      tags: ['report'],
      security: access.protected,
      parameters: [
        dateParameter,
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.reportVersions.maximum,
            default: pageLimits.reportVersions.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of versions, oldest first.', ref('ReportVersionPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/report/{date}/versions/{version}': {
    get: {
      operationId: 'getReportVersion',
      summary: 'Get one version of the report of a date',
      description:
        'One version of a day\u2019s report, the bytes as stored. A version never changes once made, so it is served ' +
        'as immutable. A version the day does not have answers 404 `report_not_found`.',
      tags: ['report'],
      security: access.protected,
      parameters: [dateParameter, versionParameter, ifNoneMatch],
      responses: {
        '200': jsonResponse('That version of the report.', ref('Report'), etagHeaders),
        '304': notModified,
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
