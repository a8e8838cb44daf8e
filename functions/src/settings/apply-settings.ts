/**
 * The organisation's settings applied to the catalog: owners, freshness windows, due days and
 * scope become what the engine reads, so evaluation itself knows nothing of settings. The
 * checks' CEL plans do not depend on any of it and are shared, so applying a version costs a
 * pass over the controls, not a compilation.
 */
import type { CompiledCatalog } from '../assessment/evaluate.js';
import type { Catalog, Control } from '../assessment/model.js';
import { defaultVersionOf, type OrganisationSettings, type SettingsVersion } from './settings-model.js';

function applyToControl(control: Control, settings: OrganisationSettings): Control {
  const owners = settings.owners.controls[control.id] ?? settings.owners.families[control.family];
  const controlDays = settings.freshness.controls[control.id];
  const daysFor = (kind: string, catalogDays: number) => controlDays ?? settings.freshness.kinds[kind] ?? catalogDays;
  return {
    ...control,
    ...(owners ? { owner: owners[0]!.email, owners } : {}),
    evidence: control.evidence.map((requirement) => ({
      ...requirement,
      freshnessDays: daysFor(requirement.kind, requirement.freshnessDays),
    })),
    scanner: { ...control.scanner, freshnessDays: daysFor('scanner.finding', control.scanner.freshnessDays) },
  };
}

export function catalogWithSettings(catalog: Catalog, version: SettingsVersion): Catalog {
  const { settings } = version;
  return {
    ...catalog,
    controls: catalog.controls.map((control) => applyToControl(control, settings)),
    dueDays: settings.dueDays,
    scope: settings.scope,
    settingsVersion: version.version,
  };
}

/** The compiled catalog as a version of the settings has it; the defaults when none was saved. */
export function withSettings(compiled: CompiledCatalog, version: SettingsVersion | undefined): CompiledCatalog {
  return { ...compiled, catalog: catalogWithSettings(compiled.catalog, version ?? defaultVersionOf(compiled.catalog)) };
}
