/**
 * The organisation's settings (the `settings` family's schemas) and what holds before anything
 * is saved: the catalog's owners, freshness windows and due days stand, and
 * the scope is the narrowest an audit of each framework can have — SOC 2 Security, all of ISO
 * Annex A, the NIST moderate baseline untailored.
 */
import type { components } from '../generated/api-types.js';

type Schemas = components['schemas'];

export type OrganisationSettings = Schemas['OrganisationSettings'];
export type Scope = Schemas['Scope'];
export type Owner = Schemas['Owner'];
export type SettingsVersion = Schemas['SettingsVersion'];
export type SettingsVersionSummary = Schemas['SettingsVersionSummary'];

export const defaultScope: Scope = {
  soc2: { categories: ['security'], excluded: [] },
  iso27001: { excluded: [] },
  nist80053: { baseline: 'moderate', excluded: [] },
};

/** The settings in force before any version was saved: the catalog's due days, nobody named, nothing overridden. */
export function defaultVersionOf(catalog: { dueDays: OrganisationSettings['dueDays'] }): SettingsVersion {
  return {
    version: null,
    savedAt: null,
    savedBy: null,
    reason: null,
    settings: {
      owners: { controls: {}, families: {} },
      dueDays: { ...catalog.dueDays },
      freshness: { controls: {}, kinds: {} },
      scope: defaultScope,
      connectors: {},
    },
  };
}
