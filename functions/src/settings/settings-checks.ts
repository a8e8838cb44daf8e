/**
 * What the schema cannot check of a settings change: that the controls, families and
 * requirements it names are the catalog's and the frameworks', that no connector setting is
 * named like a secret, that no requirement is excluded twice. Each mistake is reported where it
 * is, as a JSON Pointer into the body, so a form can show it beside its field.
 */
import type { Catalog } from '../assessment/model.js';
import type { OrganisationSettings } from './settings-model.js';

/** A mistake in the body of a change, where it is: the shape of the API's request errors. */
export interface SettingsError {
  in: 'body';
  pointer: string;
  message: string;
}

/** Setting names that would hold a credential: those belong in Secret Manager, never in the bucket. */
const secretLike = /(secret|token|password|passwd|private|credential|apikey|api_key)/i;

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function unknownKeys(keys: readonly string[], known: ReadonlySet<string>, pointer: string, what: string): SettingsError[] {
  return keys
    .filter((key) => !known.has(key))
    .map((key) => ({ in: 'body' as const, pointer: `${pointer}/${pointerPart(key)}`, message: `names no ${what}` }));
}

function exclusionErrors(
  excluded: readonly { requirement: string }[],
  known: ReadonlySet<string>,
  pointer: string,
  framework: string,
): SettingsError[] {
  const seen = new Set<string>();
  return excluded.flatMap(({ requirement }, index) => {
    const at = `${pointer}/${index}/requirement`;
    if (!known.has(requirement)) return [{ in: 'body' as const, pointer: at, message: `is not a requirement of ${framework}` }];
    if (seen.has(requirement)) return [{ in: 'body' as const, pointer: at, message: 'is excluded more than once' }];
    seen.add(requirement);
    return [];
  });
}

export function settingsErrors(settings: OrganisationSettings, catalog: Catalog): SettingsError[] {
  const controls = new Set(catalog.controls.map((control) => control.id));
  const families = new Set(catalog.controls.map((control) => control.family));
  const requirementsOf = (framework: string) =>
    new Set(catalog.frameworks.find((reference) => reference.id === framework)?.requirements.map(({ id }) => id) ?? []);
  const base = '/settings';
  return [
    ...unknownKeys(Object.keys(settings.owners.controls), controls, `${base}/owners/controls`, 'control in the catalog'),
    ...unknownKeys(Object.keys(settings.owners.families), families, `${base}/owners/families`, 'control family in the catalog'),
    ...unknownKeys(Object.keys(settings.freshness.controls), controls, `${base}/freshness/controls`, 'control in the catalog'),
    ...exclusionErrors(
      settings.scope.iso27001.excluded,
      requirementsOf('iso27001'),
      `${base}/scope/iso27001/excluded`,
      'ISO/IEC 27001:2022 Annex A',
    ),
    ...exclusionErrors(
      settings.scope.nist80053.excluded,
      requirementsOf('nist80053'),
      `${base}/scope/nist80053/excluded`,
      'the NIST SP 800-53 moderate baseline',
    ),
    ...Object.entries(settings.connectors).flatMap(([connector, values]) =>
      Object.keys(values)
        .filter((name) => secretLike.test(name))
        .map((name) => ({
          in: 'body' as const,
          pointer: `${base}/connectors/${pointerPart(connector)}/${pointerPart(name)}`,
          message: 'is named like a secret; secrets go in Secret Manager, never in the settings',
        })),
    ),
  ];
}
