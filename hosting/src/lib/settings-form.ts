/**
 * The settings page's form (`PUT /api/settings`): the organisation's settings as rows a person
 * edits (a person per row, added and removed; an override per row), the body those rows make,
 * what is wrong before anything is sent, and the server's 400 placed beside the field its JSON
 * Pointer names. The body is built together with a map from each pointer it can be answered at
 * to the field that holds it, so a mistake the server finds lands where the person typed it.
 * Pure, so it is unit tested without a browser.
 */
import { settingsLimits, severities, soc2Categories, type Severity, type Soc2Category } from '@evident/contract';
import type { Problem } from './api.ts';
import type { OrganisationSettings, SettingsScope } from './api-types.ts';

type ConnectorValue = OrganisationSettings['connectors'][string][string];

/** One person answering for a control or a family (`target`). */
export interface OwnerRow {
  key: number;
  target: string;
  email: string;
  role: string;
}

/** A freshness window of `days` for a control or an evidence kind (`target`). */
export interface DaysRow {
  key: number;
  target: string;
  days: number | null;
}

/** A requirement left out of a framework's scope, and why. */
export interface ExclusionRow {
  key: number;
  requirement: string;
  reason: string;
}

/** One non-secret setting of a connector. `original` keeps a number or a yes/no as it was, unless its text is changed. */
export interface ConnectorRow {
  key: number;
  connector: string;
  name: string;
  value: string;
  original?: ConnectorValue;
}

export interface SettingsForm {
  /** Why, for the record: required. */
  reason: string;
  owners: { controls: OwnerRow[]; families: OwnerRow[] };
  dueDays: Record<Severity, number | null>;
  freshness: { controls: DaysRow[]; kinds: DaysRow[] };
  soc2: Soc2Category[];
  /** SOC 2 criteria of those categories left out (carved out to a subservice organisation, say). */
  soc2Excluded: ExclusionRow[];
  iso: ExclusionRow[];
  nistBaseline: SettingsScope['nist80053']['baseline'];
  nist: ExclusionRow[];
  connectors: ConnectorRow[];
}

let lastKey = 0;
/** A key for a new row, unique in the page, so Svelte keeps each row's inputs with it. */
export const rowKey = (): number => ++lastKey;

export const emptyOwner = (): OwnerRow => ({ key: rowKey(), target: '', email: '', role: '' });
export const emptyDays = (): DaysRow => ({ key: rowKey(), target: '', days: null });
export const emptyExclusion = (): ExclusionRow => ({ key: rowKey(), requirement: '', reason: '' });
export const emptyConnector = (): ConnectorRow => ({ key: rowKey(), connector: '', name: '', value: '' });

const ownerRows = (assigned: Record<string, { email: string; role: string }[]>): OwnerRow[] =>
  Object.entries(assigned).flatMap(([target, owners]) =>
    owners.map(({ email, role }) => ({ key: rowKey(), target, email, role })),
  );

const daysRows = (days: Record<string, number>): DaysRow[] =>
  Object.entries(days).map(([target, value]) => ({ key: rowKey(), target, days: value }));

const exclusionRows = (excluded: readonly { requirement: string; reason: string }[]): ExclusionRow[] =>
  excluded.map(({ requirement, reason }) => ({ key: rowKey(), requirement, reason }));

/** The rows a saved version (or the defaults) is edited as; the reason starts empty, as each change needs its own. */
export function formOf(settings: OrganisationSettings): SettingsForm {
  return {
    reason: '',
    owners: { controls: ownerRows(settings.owners.controls), families: ownerRows(settings.owners.families) },
    dueDays: { ...settings.dueDays },
    freshness: { controls: daysRows(settings.freshness.controls), kinds: daysRows(settings.freshness.kinds) },
    soc2: soc2Categories.filter((category) => category === 'security' || settings.scope.soc2.categories.includes(category)),
    soc2Excluded: exclusionRows(settings.scope.soc2.excluded),
    iso: exclusionRows(settings.scope.iso27001.excluded),
    nistBaseline: settings.scope.nist80053.baseline,
    nist: exclusionRows(settings.scope.nist80053.excluded),
    connectors: Object.entries(settings.connectors).flatMap(([connector, values]) =>
      Object.entries(values).map(([name, value]) => ({ key: rowKey(), connector, name, value: String(value), original: value })),
    ),
  };
}

// The fields, by the id of the element each error list describes.

export const fieldIds = {
  reason: 'settings-reason',
  ownerTarget: (group: 'controls' | 'families', key: number) => `settings-owner-${group}-${key}-target`,
  ownerEmail: (group: 'controls' | 'families', key: number) => `settings-owner-${group}-${key}-email`,
  ownerRole: (group: 'controls' | 'families', key: number) => `settings-owner-${group}-${key}-role`,
  due: (severity: Severity) => `settings-due-${severity}`,
  days: (group: 'controls' | 'kinds', key: number) => `settings-freshness-${group}-${key}`,
  soc2: 'settings-soc2',
  exclusionRequirement: (framework: 'soc2' | 'iso' | 'nist', key: number) => `settings-${framework}-${key}-requirement`,
  exclusionReason: (framework: 'soc2' | 'iso' | 'nist', key: number) => `settings-${framework}-${key}-reason`,
  nistBaseline: 'settings-nist-baseline',
  connector: (key: number) => `settings-connector-${key}`,
  /** Errors about a whole list (too many entries) go under its heading. */
  section: (name: 'owners' | 'freshness' | 'soc2' | 'iso' | 'nist' | 'connectors') => `settings-${name}`,
} as const;

/** From each JSON Pointer the server may answer at to the field that holds what is there. */
export type FieldsByPointer = Map<string, string>;

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A row counts once anything in it is filled in; a row added and left empty is no setting. */
const filled = (...values: (string | number | null)[]) => values.some((value) => value !== null && String(value).trim() !== '');

function ownersBody(group: 'controls' | 'families', rows: readonly OwnerRow[], fields: FieldsByPointer) {
  const assigned: Record<string, { email: string; role: string }[]> = {};
  for (const row of rows.filter((each) => filled(each.target, each.email, each.role))) {
    const owners = (assigned[row.target] ??= []);
    const at = `/settings/owners/${group}/${pointerPart(row.target)}`;
    if (owners.length === 0) fields.set(at, fieldIds.ownerTarget(group, row.key));
    fields.set(`${at}/${owners.length}`, fieldIds.ownerEmail(group, row.key));
    fields.set(`${at}/${owners.length}/email`, fieldIds.ownerEmail(group, row.key));
    fields.set(`${at}/${owners.length}/role`, fieldIds.ownerRole(group, row.key));
    owners.push({ email: row.email.trim(), role: row.role.trim() });
  }
  return assigned;
}

function daysBody(group: 'controls' | 'kinds', rows: readonly DaysRow[], fields: FieldsByPointer) {
  const days: Record<string, number> = {};
  for (const row of rows.filter((each) => filled(each.target, each.days))) {
    fields.set(`/settings/freshness/${group}/${pointerPart(row.target)}`, fieldIds.days(group, row.key));
    days[row.target] = row.days as number;
  }
  return days;
}

const exclusionFrameworks = { soc2: 'soc2', iso: 'iso27001', nist: 'nist80053' } as const;

function exclusionsBody(framework: 'soc2' | 'iso' | 'nist', rows: readonly ExclusionRow[], fields: FieldsByPointer) {
  const at = `/settings/scope/${exclusionFrameworks[framework]}/excluded`;
  return rows
    .filter((row) => filled(row.requirement, row.reason))
    .map((row, index) => {
      fields.set(`${at}/${index}`, fieldIds.exclusionRequirement(framework, row.key));
      fields.set(`${at}/${index}/requirement`, fieldIds.exclusionRequirement(framework, row.key));
      fields.set(`${at}/${index}/reason`, fieldIds.exclusionReason(framework, row.key));
      return { requirement: row.requirement.trim(), reason: row.reason.trim() };
    });
}

function connectorsBody(rows: readonly ConnectorRow[], fields: FieldsByPointer) {
  const connectors: Record<string, Record<string, ConnectorValue>> = {};
  for (const row of rows.filter((each) => filled(each.connector, each.name, each.value))) {
    const values = (connectors[row.connector] ??= {});
    const at = `/settings/connectors/${pointerPart(row.connector)}`;
    if (!fields.has(at)) fields.set(at, fieldIds.connector(row.key));
    fields.set(`${at}/${pointerPart(row.name)}`, fieldIds.connector(row.key));
    values[row.name] = row.original !== undefined && String(row.original) === row.value ? row.original : row.value;
  }
  return connectors;
}

/** The settings the rows make, and where the server's answer about each part belongs. */
export function settingsOf(form: SettingsForm): { settings: OrganisationSettings; fields: FieldsByPointer } {
  const fields: FieldsByPointer = new Map([
    ['/reason', fieldIds.reason],
    ['/settings/owners', fieldIds.section('owners')],
    ['/settings/freshness', fieldIds.section('freshness')],
    ['/settings/scope/soc2', fieldIds.soc2],
    ['/settings/scope/soc2/excluded', fieldIds.section('soc2')],
    ['/settings/scope/iso27001', fieldIds.section('iso')],
    ['/settings/scope/nist80053/excluded', fieldIds.section('nist')],
    ['/settings/scope/nist80053/baseline', fieldIds.nistBaseline],
    ['/settings/connectors', fieldIds.section('connectors')],
    ...severities.map((severity): [string, string] => [`/settings/dueDays/${severity}`, fieldIds.due(severity)]),
  ]);
  const settings: OrganisationSettings = {
    owners: {
      controls: ownersBody('controls', form.owners.controls, fields),
      families: ownersBody('families', form.owners.families, fields),
    },
    dueDays: { ...form.dueDays } as OrganisationSettings['dueDays'],
    freshness: {
      controls: daysBody('controls', form.freshness.controls, fields),
      kinds: daysBody('kinds', form.freshness.kinds, fields),
    },
    scope: {
      soc2: {
        categories: soc2Categories.filter((category) => category === 'security' || form.soc2.includes(category)),
        excluded: exclusionsBody('soc2', form.soc2Excluded, fields),
      },
      iso27001: { excluded: exclusionsBody('iso', form.iso, fields) },
      nist80053: { baseline: form.nistBaseline, excluded: exclusionsBody('nist', form.nist, fields) },
    },
    connectors: connectorsBody(form.connectors, fields),
  };
  return { settings, fields };
}

// What is wrong.

export interface SettingsProblems {
  /** Messages beside each field, by its id (`fieldIds`). */
  byField: Record<string, string[]>;
  /** What to say at the top of the form. */
  summary: string;
}

/** The field an error at `pointer` belongs to: the one registered at the longest part of it; undefined when none is. */
export function fieldOfPointer(fields: FieldsByPointer, pointer: string): string | undefined {
  for (let at = pointer; at !== ''; at = at.slice(0, at.lastIndexOf('/'))) {
    const field = fields.get(at);
    if (field) return field;
  }
  return undefined;
}

/** What the rows cannot be sent as, before asking the server (which checks the rest). */
export function checkSettingsForm(form: SettingsForm): SettingsProblems | undefined {
  const byField: Record<string, string[]> = {};
  const add = (field: string, message: string) => (byField[field] ??= []).push(message);
  const { minLength, maxLength } = settingsLimits.reason;
  const reason = form.reason.trim();
  if (reason.length < minLength)
    add(fieldIds.reason, `Say why you are changing the settings (at least ${minLength} characters).`);
  if (reason.length > maxLength) add(fieldIds.reason, `The reason is longer than ${maxLength} characters.`);
  for (const group of ['controls', 'families'] as const) {
    for (const row of form.owners[group]) {
      if (filled(row.email, row.role) && row.target === '')
        add(fieldIds.ownerTarget(group, row.key), group === 'controls' ? 'Choose the control.' : 'Choose the family.');
    }
  }
  for (const severity of severities) if (form.dueDays[severity] === null) add(fieldIds.due(severity), 'Enter a number of days.');
  for (const group of ['controls', 'kinds'] as const) {
    const seen = new Set<string>();
    for (const row of form.freshness[group].filter((each) => filled(each.target, each.days))) {
      if (row.target === '')
        add(fieldIds.days(group, row.key), group === 'controls' ? 'Choose the control.' : 'Choose the kind.');
      else if (seen.has(row.target)) add(fieldIds.days(group, row.key), `${row.target} has a window above already.`);
      else if (row.days === null) add(fieldIds.days(group, row.key), 'Enter a number of days.');
      seen.add(row.target);
    }
  }
  const seen = new Set<string>();
  for (const row of form.connectors.filter((each) => filled(each.connector, each.name, each.value))) {
    const name = `${row.connector}.${row.name}`;
    if (row.connector === '' || row.name === '') add(fieldIds.connector(row.key), 'Name the connector and the setting.');
    else if (seen.has(name)) add(fieldIds.connector(row.key), `${name} is set above already.`);
    seen.add(name);
  }
  const count = Object.values(byField).flat().length;
  if (count === 0) return undefined;
  return {
    byField,
    summary:
      count === 1 ? 'One field needs attention: it is marked below.' : `${count} fields need attention: they are marked below.`,
  };
}

/**
 * Places a 400 on the form: each body error beside the field its pointer names, in the server's
 * words ("must match format \"email\""), and those no field holds in the summary, after the
 * server's `detail`.
 */
export function settingsProblemsOf(problem: Problem, fields: FieldsByPointer): SettingsProblems {
  const byField: Record<string, string[]> = {};
  const elsewhere: string[] = [];
  for (const error of problem.errors ?? []) {
    const field = error.in === 'body' && error.pointer !== undefined ? fieldOfPointer(fields, error.pointer) : undefined;
    if (field) (byField[field] ??= []).push(error.message);
    else elsewhere.push(`${error.pointer ?? error.in} ${error.message}`);
  }
  const summary = [problem.detail ?? problem.title, ...elsewhere].join(' ');
  return { byField, summary };
}
