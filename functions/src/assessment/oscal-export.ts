/**
 * The OSCAL export of a daily report (`GET /api/report/{date}/oscal`): the report as an OSCAL 1.0.6
 * Assessment Results document, so GRC tools that speak OSCAL can take in Evident's results.
 *
 * Shape of the mapping:
 * - one `result` for the report's day;
 * - one `finding` per control result, whose target is the Evident control's objective and whose
 *   status says whether it is satisfied;
 * - one `observation` per finding of the report (Evident's word for a check outcome or an evidence
 *   problem), listing the evidence items it rests on as `relevant-evidence`.
 *
 * The function is pure and deterministic: the same report always gives the same bytes, because the
 * endpoint serves the document with a strong ETag. That is why every UUID is a name-based (version 5)
 * UUID rather than a random one.
 */
import { plural } from '@evident/contract';
import { startOfDay } from './dates.js';
import type { ControlResult, ControlStatus, Finding, Report } from './model.js';
import {
  catalogResource,
  catalogResourceUuid,
  evidenceHref,
  exportNamespace,
  nonEmpty,
  oscalInstant,
  oscalString,
  oscalToken,
  oscalVersion,
  prop,
  unique,
  uuidV5,
  type Json,
} from './oscal-values.js';

export { oscalToken, oscalVersion, uuidV5, evidentNamespace } from './oscal-values.js';

export interface OscalExportOptions {
  /** The document title; defaults to one naming the day. */
  title?: string;
  /** The document version (`metadata.version`), for example the service version. */
  version: string;
  /**
   * NIST SP 800-53 rev5 ids per Evident control id (from the catalog's `frameworks.nist80053`). The
   * report carries only Evident's control ids, so without this map the reviewed controls are given as
   * "all controls of the plan" rather than a list.
   */
  nistByControl?: Record<string, string[]>;
}

// ---------------------------------------------------------------------------------------------
// Statuses

export const statusSentences: Record<ControlStatus, string> = {
  passing: 'is passing: fresh evidence satisfies every check.',
  failing: 'is failing: a check fails on fresh evidence.',
  stale: 'is stale: its evidence is older than the control\u2019s freshness window or has expired.',
  missing: 'is missing evidence: a required kind of evidence has never been received.',
  not_applicable: 'is not applicable: a current attestation scopes the control out.',
};

/**
 * OSCAL 1.0.6 knows two objective states, `satisfied` and `not-satisfied`, with the reasons `pass`,
 * `fail` and `other`. Evident's five statuses map onto them as follows:
 * - passing: satisfied, pass.
 * - failing: not-satisfied, fail.
 * - stale and missing: not-satisfied, other. Nothing failed, but the objective cannot be shown to be
 *   met, and Evident scores these exactly like failures; the remarks say why.
 * - not_applicable: satisfied, other, and the target's `implementation-status` is `not-applicable`,
 *   the value OSCAL defines for a scoped-out control. There is no "not applicable" objective state,
 *   and a scoped-out control is not a gap, so `not-satisfied` would overstate it.
 * The exact Evident status is always carried as the `evident-status` property as well.
 */
export function targetStatus(status: ControlStatus): Json {
  switch (status) {
    case 'passing':
      return { status: { state: 'satisfied', reason: 'pass' } };
    case 'failing':
      return { status: { state: 'not-satisfied', reason: 'fail' } };
    case 'stale':
      return {
        status: {
          state: 'not-satisfied',
          reason: 'other',
          remarks: 'The evidence is older than the control\u2019s freshness window or has expired.',
        },
      };
    case 'missing':
      return {
        status: {
          state: 'not-satisfied',
          reason: 'other',
          remarks: 'A required kind of evidence has never been received.',
        },
      };
    case 'not_applicable':
      return {
        status: { state: 'satisfied', reason: 'other', remarks: 'A current attestation scopes the control out.' },
        'implementation-status': { state: 'not-applicable' },
      };
  }
}

/**
 * How an observation was made. A check outcome comes from evaluating a check on collected evidence,
 * an automated test (NIST's own example marks automated tooling `TEST`). Stale, missing and not
 * applicable come from examining the evidence record and attestations, which is `EXAMINE`. OSCAL
 * defines no `AUTOMATED` method, so none is invented.
 */
function method(finding: Finding): string {
  const fromCheck = finding.check !== undefined || ['pass', 'fail', 'error'].includes(finding.outcome);
  return fromCheck ? 'TEST' : 'EXAMINE';
}

// ---------------------------------------------------------------------------------------------
// The document

export function toOscalAssessmentResults(report: Report, options: OscalExportOptions): Record<string, unknown> {
  const version = oscalString(options.version);
  if (version === undefined) throw new TypeError('The OSCAL document version must not be blank.');

  // Every UUID of one report hangs off its date and run: the same report gives the same UUIDs, and
  // two installations assessing the same day (different runs) do not collide.
  const scope = `report/${report.date}/${report.runId}`;
  const uuid = (name: string): string => uuidV5(exportNamespace, `${scope}/${name}`);

  const asOf = oscalInstant(report.asOf);
  const generatedAt = oscalInstant(report.generatedAt);
  const { observations, findings } = observeControls(report, options.nistByControl, uuid, asOf);

  // Evident has no OSCAL assessment plan: what plays its part is the control catalog the report was
  // evaluated with. `import-ap` is required, so it points at a back-matter resource describing that
  // catalog; a fragment reference to a back-matter resource is OSCAL's way of referring to something
  // that is not itself an OSCAL document, and unlike a bare "#" it resolves to something meaningful.
  const planUuid = catalogResourceUuid(report.catalogVersion);

  return {
    'assessment-results': {
      uuid: uuid('assessment-results'),
      metadata: {
        title: oscalString(options.title ?? '') ?? `Evident assessment results ${report.date}`,
        'last-modified': generatedAt,
        version,
        'oscal-version': oscalVersion,
      },
      'import-ap': {
        href: `#${planUuid}`,
        remarks:
          'Evident assesses against its own control catalog rather than an OSCAL assessment plan; the ' +
          'reference points at the back-matter resource describing the catalog version used.',
      },
      results: [
        {
          uuid: uuid('result'),
          title: `Evident assessment ${report.date}`,
          description:
            `Continuous assessment of ${plural(report.summary.controls, 'control')} for ${report.date} (${report.timeZone}), ` +
            `on the evidence collected up to ${asOf}. Score ${report.summary.score} of 100.`,
          // The result covers the assessed day: from its first instant in the report's time zone to the
          // report's cut-off, the instant after which evidence was not considered.
          start: startOfDay(report.timeZone, report.date).toISOString(),
          end: asOf,
          props: [
            ...prop('evident-run-id', report.runId),
            ...prop('evident-catalog-version', report.catalogVersion),
            ...prop('evident-time-zone', report.timeZone),
            ...prop('evident-score', String(report.summary.score)),
            ...prop('evident-generated-at', generatedAt),
            ...(report.diff.previousDate === null ? [] : prop('evident-previous-report', report.diff.previousDate)),
          ],
          'reviewed-controls': reviewedControls(report, options.nistByControl),
          ...nonEmpty('observations', observations),
          ...nonEmpty('findings', findings),
        },
      ],
      'back-matter': {
        resources: [
          catalogResource(report.catalogVersion, 'The controls, evidence requirements and checks the report was evaluated with.'),
        ],
      },
    },
  };
}

/** One finding per control result of the report, and one observation per finding of each. */
function observeControls(
  report: Report,
  nistByControl: Record<string, string[]> | undefined,
  uuid: (name: string) => string,
  asOf: string,
): { observations: Json[]; findings: Json[] } {
  const changes = new Map(report.diff.changes.map((change) => [change.id, change.from]));
  const observations: Json[] = [];
  const findings: Json[] = [];
  for (const control of report.controls) {
    const observationUuids = control.findings.map((finding, index) => {
      const observation = toObservation(control, finding, uuid(`control/${control.id}/finding/${index}`), asOf);
      observations.push(observation);
      return observation.uuid as string;
    });
    findings.push(
      toFinding(control, {
        uuid: uuid(`control/${control.id}`),
        observationUuids,
        nist: nistByControl?.[control.id] ?? [],
        previousStatus: changes.get(control.id),
      }),
    );
  }
  return { observations, findings };
}

/**
 * The NIST SP 800-53 controls the report's controls map to, in report order without repeats. Without
 * the map (or when it names none of them) the selection is `include-all`: every control of the plan,
 * which here is the catalog the report was evaluated with.
 */
function reviewedControls(report: Report, nistByControl: Record<string, string[]> | undefined): Json {
  const ids = unique(report.controls.flatMap((control) => (nistByControl?.[control.id] ?? []).map(oscalToken)));
  if (ids.length === 0) {
    return {
      'control-selections': [
        {
          description: 'Every control of the Evident catalog the report was evaluated with.',
          'include-all': {},
        },
      ],
    };
  }
  return {
    'control-selections': [
      {
        description: 'NIST SP 800-53 rev5 controls that the assessed Evident controls map to.',
        'include-controls': ids.map((id) => ({ 'control-id': id })),
      },
    ],
  };
}

export function toObservation(control: ControlResult, finding: Finding, uuid: string, collected: string): Json {
  const about = finding.check !== undefined ? `check ${finding.check}` : (finding.kind ?? 'evidence');
  const evidence = unique(finding.evidence);
  return {
    uuid,
    title: `${control.id} ${about}: ${finding.outcome}`,
    description: oscalString(finding.message) ?? `${control.id} ${about}: ${finding.outcome}.`,
    props: [
      ...prop('evident-control', control.id),
      ...prop('evident-outcome', finding.outcome),
      ...(finding.check === undefined ? [] : prop('evident-check', finding.check)),
      ...(finding.kind === undefined ? [] : prop('evident-evidence-kind', finding.kind)),
      ...(finding.subject === undefined ? [] : prop('evident-subject', finding.subject)),
    ],
    methods: [method(finding)],
    ...nonEmpty(
      'relevant-evidence',
      evidence.map((id) => ({ href: evidenceHref(id), description: `Evidence item ${id}.` })),
    ),
    // The observation reflects the evidence as of the report's cut-off, whenever the run happened.
    collected,
  };
}

function toFinding(
  control: ControlResult,
  facts: { uuid: string; observationUuids: string[]; nist: string[]; previousStatus: ControlStatus | undefined },
): Json {
  return {
    uuid: facts.uuid,
    title: `${control.id}: ${control.title}`,
    description: `${control.id} ${statusSentences[control.status]}`,
    props: [
      ...prop('evident-control', control.id),
      ...prop('evident-status', control.status),
      ...prop('evident-severity', control.severity),
      ...prop('evident-family', control.family),
      ...(facts.previousStatus === undefined ? [] : prop('evident-previous-status', facts.previousStatus)),
      ...unique(facts.nist.map(oscalToken)).flatMap((id) => prop('nist-800-53-control', id)),
    ],
    // Every evidence item the result considered, including those no observation names (a passing
    // control may have no findings at all).
    ...nonEmpty(
      'links',
      unique(control.evidence).map((id) => ({ href: evidenceHref(id), rel: 'evidence' })),
    ),
    target: {
      // The target is the Evident control's own objective; the NIST controls it maps to are in the
      // reviewed controls and the `nist-800-53-control` properties.
      type: 'objective-id',
      'target-id': `${oscalToken(control.id)}_obj`,
      ...targetStatus(control.status),
    },
    ...nonEmpty(
      'related-observations',
      facts.observationUuids.map((id) => ({ 'observation-uuid': id })),
    ),
  };
}
