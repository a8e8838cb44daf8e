/**
 * Points every built-in connector at its stand-in's organisation (scripts/lib/stand-ins.ts, which
 * the test runner starts) by saving the next settings version through the API, as a person would
 * on the Settings page; a version that points there already is left as it is.
 */
import { standInSettings } from '../../scripts/lib/stand-ins.ts';
import { api } from './api.ts';

interface Settings {
  version: number | null;
  settings: Record<string, unknown> & { connectors: Record<string, Record<string, unknown>> };
}

export async function connectStandIns(): Promise<void> {
  const current = await api.get<Settings>('/api/settings');
  const connected = Object.entries(standInSettings).every(([id, values]) =>
    Object.entries(values).every(([name, value]) => current.settings.connectors[id]?.[name] === value),
  );
  if (connected) return;
  await api.json('/api/settings', {
    method: 'PUT',
    body: {
      basedOn: current.version,
      reason: 'Connect the stand-ins of the connectors',
      settings: { ...current.settings, connectors: { ...current.settings.connectors, ...standInSettings } },
    },
  });
}
