/**
 * A report's open work as an OSCAL 1.0.6 Plan of Action and Milestones
 * (`GET /api/report/{date}/poam`): one POA&M item per control failing, stale or missing evidence,
 * each with its risk and the observations behind it.
 *
 * Shape of the mapping, per open control:
 * - a `risk`, status `open` (`deviation-approved` when exceptions cover every failure, each named
 *   with its expiry, approver and requester, and whether the approval was independent), whose `deadline` is the end of the control's due day in the report's
 *   time zone; its `risk-log` starts on the first day of the open run (`openSince`: the first-seen
 *   date), and its one planned `remediation` has a milestone task on the due day;
 * - an `observation` per finding that was not a pass, with the evidence it rests on;
 * - the control's owner as a `party` of the metadata, responsible for the remediation;
 * - a `poam-item` tying them together, with the owner, severity, dates and NIST ids as properties.
 *
 * OSCAL requires at least one POA&M item; a report with nothing open gets a single item saying so
 * (`evident-no-open-items`), rather than an invalid document. Pure and deterministic, like the
 * Assessment Results export: the same report gives the same bytes.
 */
import { isOpenStatus, plural } from '@evident/contract';
import { endOfDay, startOfDay } from './dates.js';
import type { ControlResult, Report } from './model.js';
import { statusSentences, toObservation } from './oscal-export.js';
import {
  exportNamespace,
  nonEmpty,
  oscalInstant,
  oscalString,
  oscalToken,
  oscalVersion,
  ownerParties,
  ownerRole,
  partyUuid,
  prop,
  unique,
  uuidV5,
  type Json,
} from './oscal-values.js';

export interface OscalPoamOptions {
  version: string;
  /** NIST SP 800-53 rev5 ids per Evident control id, as for the Assessment Results. */
  nistByControl?: Record<string, string[]>;
}

export function toOscalPoam(report: Report, options: OscalPoamOptions): Json {
  const version = oscalString(options.version);
  if (version === undefined) throw new TypeError('The OSCAL document version must not be blank.');
  const scope = `poam/${report.date}/${report.runId}`;
  const uuid = (name: string): string => uuidV5(exportNamespace, `${scope}/${name}`);
  const asOf = oscalInstant(report.asOf);

  const open = report.controls.filter((control) => isOpenStatus(control.status));
  const owners = unique(open.flatMap((control) => (control.owner ? [control.owner] : [])));
  const observations: Json[] = [];
  const risks: Json[] = [];
  const items: Json[] = [];
  for (const control of open) {
    const observationUuids = control.findings.flatMap((finding, index) => {
      if (finding.outcome === 'pass' || finding.outcome === 'info') return [];
      const observation = toObservation(control, finding, uuid(`control/${control.id}/finding/${index}`), asOf);
      observations.push(observation);
      return [observation.uuid as string];
    });
    const riskUuid = uuid(`control/${control.id}/risk`);
    risks.push(toRisk(report, control, riskUuid, observationUuids, uuid));
    items.push(
      toItem(control, uuid(`control/${control.id}/item`), riskUuid, observationUuids, options.nistByControl?.[control.id] ?? []),
    );
  }
  if (items.length === 0) {
    items.push({
      uuid: uuid('no-open-items'),
      title: 'No open items',
      description: `Every control of the report of ${report.date} is passing or not applicable.`,
      props: prop('evident-no-open-items', 'true'),
    });
  }

  return {
    'plan-of-action-and-milestones': {
      uuid: uuid('plan-of-action-and-milestones'),
      metadata: {
        title: `Evident plan of action and milestones ${report.date}`,
        'last-modified': oscalInstant(report.generatedAt),
        version,
        'oscal-version': oscalVersion,
        props: [...prop('evident-report-date', report.date), ...prop('evident-run-id', report.runId)],
        ...(owners.length > 0
          ? {
              ...ownerParties(owners),
              'responsible-parties': [{ 'role-id': ownerRole, 'party-uuids': owners.map(partyUuid) }],
            }
          : {}),
      },
      'system-id': { 'identifier-type': 'https://evident.dev/ns/oscal', id: 'evident' },
      ...nonEmpty('observations', observations),
      ...nonEmpty('risks', risks),
      'poam-items': items,
    },
  };
}

/** An applied exception's properties: its id, expiry, approver and (from reports that name them) requester and independence. */
function exceptionProps(exception: NonNullable<Report['exceptions']>[number]): Json[] {
  const { approver, requestedBy, independent } = exception;
  return [
    ...prop('evident-exception', exception.id),
    ...prop('evident-exception-expires', exception.expiresOn),
    ...prop('evident-exception-approver', approver.email ?? approver.uid),
    ...(requestedBy ? prop('evident-exception-requester', requestedBy.email ?? requestedBy.uid) : []),
    ...(independent === undefined ? [] : prop('evident-exception-independent', String(independent))),
  ];
}

function toRisk(
  report: Report,
  control: ControlResult,
  riskUuid: string,
  observationUuids: string[],
  uuid: (name: string) => string,
): Json {
  const openSince = control.openSince ?? report.date;
  const reasons = control.findings
    .filter((finding) => finding.outcome !== 'pass' && finding.outcome !== 'info')
    .map((finding) => finding.message);
  // Accepted findings name their exceptions: risk acceptances, which OSCAL calls an approved deviation.
  // A set, not a list: a control may have an accepted finding per subject, tens of thousands.
  const exceptions = new Set(control.findings.flatMap((finding) => (finding.accepted ? [finding.accepted.exception] : [])));
  const applied = (report.exceptions ?? []).filter((exception) => exceptions.has(exception.id));
  const deadline = control.dueDate ? endOfDay(report.timeZone, control.dueDate).toISOString() : undefined;
  return {
    uuid: riskUuid,
    title: `${control.id}: ${control.title}`,
    description: `${control.id} ${statusSentences[control.status]}`,
    statement:
      oscalString(reasons.join(' ')) ?? `${control.id} has been ${control.status} since ${openSince}, with no finding recorded.`,
    props: [
      ...prop('evident-control', control.id),
      ...prop('evident-status', control.status),
      ...prop('evident-severity', control.severity),
      ...(control.overdue === undefined ? [] : prop('evident-overdue', String(control.overdue))),
      ...applied.flatMap(exceptionProps),
    ],
    // Every failure accepted: the deviation is approved until the exception expires.
    status: control.riskAccepted ? 'deviation-approved' : 'open',
    ...(deadline ? { deadline } : {}),
    remediations: [
      {
        uuid: uuid(`control/${control.id}/remediation`),
        lifecycle: 'planned',
        title: `Make ${control.id} pass again`,
        description:
          control.dueDate === undefined
            ? `Fix what keeps ${control.id} from passing.`
            : `Fix what keeps ${control.id} from passing by ${control.dueDate}, ${plural(daysBetween(openSince, control.dueDate), 'day')} after it opened, as its ${control.severity} severity allows.`,
        ...(control.owner
          ? { origins: [{ actors: [{ type: 'party', 'actor-uuid': partyUuid(control.owner), 'role-id': ownerRole }] }] }
          : {}),
        ...(deadline
          ? {
              tasks: [
                {
                  uuid: uuid(`control/${control.id}/due`),
                  type: 'milestone',
                  title: `${control.id} due`,
                  timing: { 'on-date': { date: deadline } },
                },
              ],
            }
          : {}),
      },
    ],
    'risk-log': {
      entries: [
        {
          uuid: uuid(`control/${control.id}/opened`),
          title: 'Opened',
          description: `First report of the current run in which ${control.id} was failing, stale or missing evidence.`,
          start: startOfDay(report.timeZone, openSince).toISOString(),
          'status-change': 'open',
        },
      ],
    },
    ...nonEmpty(
      'related-observations',
      observationUuids.map((id) => ({ 'observation-uuid': id })),
    ),
  };
}

function toItem(control: ControlResult, itemUuid: string, riskUuid: string, observationUuids: string[], nist: string[]): Json {
  return {
    uuid: itemUuid,
    title: `${control.id}: ${control.title}`,
    description: `${control.id} ${statusSentences[control.status]}`,
    props: [
      ...prop('evident-control', control.id),
      ...(control.owner ? prop('evident-owner', control.owner) : []),
      ...(control.openSince ? prop('evident-first-seen', control.openSince) : []),
      ...(control.dueDate ? prop('evident-due-date', control.dueDate) : []),
      ...unique(nist.map(oscalToken)).flatMap((id) => prop('nist-800-53-control', id)),
    ],
    ...nonEmpty(
      'related-observations',
      observationUuids.map((id) => ({ 'observation-uuid': id })),
    ),
    'related-risks': [{ 'risk-uuid': riskUuid }],
  };
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
