/** The settings page's form: rows from a version and back, the checks before sending, and a 400 placed beside its fields. */
import { describe, expect, it } from 'vitest';
import type { OrganisationSettings } from '../../../hosting/src/lib/api-types.ts';
import {
  checkSettingsForm,
  emptyDays,
  emptyOwner,
  fieldIds,
  fieldOfPointer,
  formOf,
  settingsOf,
  settingsProblemsOf,
} from '../../../hosting/src/lib/settings-form.ts';

const saved: OrganisationSettings = {
  owners: {
    controls: {
      'IAM-01': [
        { email: 'grace@example.com', role: 'IT lead' },
        { email: 'alan@example.com', role: 'Deputy' },
      ],
    },
    families: { identity: [{ email: 'ada@example.com', role: 'Identity owner' }] },
  },
  dueDays: { critical: 7, high: 14, medium: 30, low: 90 },
  freshness: { controls: { 'IAM-02': 45 }, kinds: { 'idp.user': 2 } },
  scope: {
    soc2: {
      categories: ['security', 'availability'],
      excluded: [{ requirement: 'CC6.4', reason: 'Carved out: the cloud provider runs the data centres.' }],
    },
    iso27001: { excluded: [{ requirement: 'A.7.4', reason: 'No premises.' }] },
    nist80053: { baseline: 'moderate', excluded: [] },
  },
  connectors: { github: { organisation: 'acme', retries: 3, archived: false } },
};

describe('the rows of a version', () => {
  it('gives a row per person, override, exclusion and connector setting, and makes the same settings again', () => {
    const form = formOf(saved);
    expect(form.reason).toBe('');
    expect(form.owners.controls.map(({ target, email, role }) => [target, email, role])).toEqual([
      ['IAM-01', 'grace@example.com', 'IT lead'],
      ['IAM-01', 'alan@example.com', 'Deputy'],
    ]);
    expect(form.soc2).toEqual(['security', 'availability']);
    expect(form.connectors.map(({ connector, name, value }) => [connector, name, value])).toEqual([
      ['github', 'organisation', 'acme'],
      ['github', 'retries', '3'],
      ['github', 'archived', 'false'],
    ]);
    expect(new Set([...form.owners.controls, ...form.iso, ...form.connectors].map((row) => row.key)).size).toBe(6);
    expect(settingsOf(form).settings).toEqual(saved);
  });

  it('keeps Security in the SOC 2 scope, leaves rows left empty out, trims what was typed and sends a changed value as text', () => {
    const form = formOf(saved);
    form.soc2 = ['privacy'];
    form.owners.families.push(emptyOwner());
    form.freshness.kinds.push(emptyDays());
    form.owners.controls[1]!.email = '  alan@example.org ';
    form.connectors[1]!.value = '4';
    const { settings } = settingsOf(form);
    expect(settings.scope.soc2.categories).toEqual(['security', 'privacy']);
    expect(settings.owners.families).toEqual(saved.owners.families);
    expect(settings.freshness.kinds).toEqual(saved.freshness.kinds);
    expect(settings.owners.controls['IAM-01']![1]).toEqual({ email: 'alan@example.org', role: 'Deputy' });
    expect(settings.connectors['github']).toEqual({ organisation: 'acme', retries: '4', archived: false });
  });
});

describe('before sending', () => {
  it('asks for a reason, a control for a person, days for each severity, and no override twice', () => {
    const form = formOf(saved);
    const person = { ...emptyOwner(), email: 'x@example.com' };
    const twice = { ...emptyDays(), target: 'IAM-02', days: 10 };
    form.owners.controls.push(person);
    form.freshness.controls.push(twice);
    form.dueDays.low = null;
    expect(checkSettingsForm(form)).toEqual({
      byField: {
        [fieldIds.reason]: ['Say why you are changing the settings (at least 3 characters).'],
        [fieldIds.ownerTarget('controls', person.key)]: ['Choose the control.'],
        [fieldIds.due('low')]: ['Enter a number of days.'],
        [fieldIds.days('controls', twice.key)]: ['IAM-02 has a window above already.'],
      },
      summary: '4 fields need attention: they are marked below.',
    });
  });

  it('finds nothing wrong with a version given a reason', () => {
    const form = formOf(saved);
    form.reason = 'Grace owns access.';
    expect(checkSettingsForm(form)).toBeUndefined();
  });
});

describe("the server's 400", () => {
  it('places each error beside the field its pointer names, and the rest in the summary', () => {
    const form = formOf(saved);
    const { fields } = settingsOf(form);
    const [grace, alan] = form.owners.controls;
    const problem = {
      type: 'about:blank',
      title: 'Bad request',
      status: 400,
      code: 'invalid_request' as const,
      requestId: 'req-1',
      detail: 'The body has 4 mistakes.',
      errors: [
        { in: 'body' as const, pointer: '/settings/owners/controls/IAM-01/1/email', message: 'must match format "email"' },
        { in: 'body' as const, pointer: '/settings/owners/controls/IAM-01', message: 'names no control in the catalog' },
        { in: 'body' as const, pointer: '/settings/scope/iso27001/excluded/0/requirement', message: 'is not a requirement' },
        { in: 'body' as const, pointer: '/basedOn', message: 'must be integer' },
      ],
    };
    expect(settingsProblemsOf(problem, fields)).toEqual({
      byField: {
        [fieldIds.ownerEmail('controls', alan!.key)]: ['must match format "email"'],
        [fieldIds.ownerTarget('controls', grace!.key)]: ['names no control in the catalog'],
        [fieldIds.exclusionRequirement('iso', form.iso[0]!.key)]: ['is not a requirement'],
      },
      summary: 'The body has 4 mistakes. /basedOn must be integer',
    });
  });

  it('finds the field of the longest part of a pointer that names one, escaped as JSON Pointer escapes', () => {
    const fields = new Map([
      ['/settings/connectors', 'section'],
      ['/settings/connectors/a~1b', 'row'],
    ]);
    expect(fieldOfPointer(fields, '/settings/connectors/a~1b/token')).toBe('row');
    expect(fieldOfPointer(fields, '/settings/connectors/other')).toBe('section');
    expect(fieldOfPointer(fields, '/reason')).toBeUndefined();
  });
});
