/**
 * A connector as the API shows it: what it collects and feeds, what it needs before it can run
 * (from the organisation's settings and the deployment's `CONNECTORS`), how often the schedule
 * runs it, and its newest run. Secrets are named, never read here: the worker alone is given them.
 */
import type { Control } from '../assessment/model.js';
import type { components } from '../generated/api-types.js';
import type { CollectionRun } from '../runs/run-store.js';
import { defaultNeeds, type Connector, type SettingValue } from './connector.js';

export type ConnectorView = components['schemas']['Connector'];

/** The cadences a day divides into, so a connector runs at the same hours every day. */
const cadences = [1, 2, 3, 4, 6, 8, 12, 24] as const;

/** How often the schedule runs a connector: its `cadenceHours` setting, down to a divisor of a day; 24 by default. */
export function cadenceOf(settings: Readonly<Record<string, SettingValue>>): number {
  const asked = settings['cadenceHours'];
  if (typeof asked !== 'number' || !(asked >= 1)) return 24;
  return cadences.filter((cadence) => cadence <= asked).at(-1)!;
}

/**
 * What the connector lacks before a run can start, in words. `secretsSet`: the names of its
 * secrets that hold a value, when known (the worker); the listing cannot see secrets and checks
 * only what it can.
 */
export function needsOf(
  connector: Connector,
  settings: Readonly<Record<string, SettingValue>>,
  enabled: boolean,
  secretsSet: ReadonlySet<string> = new Set(connector.secrets.map((secret) => secret.name)),
): string[] {
  const own = connector.needs ? connector.needs(settings, secretsSet) : defaultNeeds(connector, settings, secretsSet);
  if (enabled) return own;
  return [`the deployment to run it: add "${connector.id}" to CONNECTORS in functions/.env.<project> and deploy`, ...own];
}

export function describeConnector(
  connector: Connector,
  facts: {
    settings: Readonly<Record<string, SettingValue>>;
    enabled: boolean;
    controls: readonly Pick<Control, 'id' | 'title' | 'evidence' | 'scanner'>[];
    newestRun: CollectionRun | undefined;
  },
): ConnectorView {
  const needs = needsOf(connector, facts.settings, facts.enabled);
  const kinds = new Set<string>(connector.kinds);
  const checks = new Set(connector.scannerChecks ?? []);
  return {
    id: connector.id,
    title: connector.title,
    source: connector.source,
    kinds: [...connector.kinds],
    feeds: facts.controls
      .filter(
        (control) =>
          control.evidence.some((requirement) => kinds.has(requirement.kind)) ||
          control.scanner.checks.some((check) => checks.has(check.id)),
      )
      .map((control) => ({ id: control.id, title: control.title }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    settings: connector.settings.map((setting) => {
      const value = facts.settings[setting.name];
      return { ...setting, ...(value !== undefined ? { value } : {}) };
    }),
    secrets: connector.secrets.map((secret) => ({ ...secret })),
    credentials: connector.credentials,
    permissions: [...connector.permissions],
    enabled: facts.enabled,
    ready: needs.length === 0,
    needs,
    cadenceHours: cadenceOf(facts.settings),
    ...(facts.newestRun ? { newestRun: facts.newestRun } : {}),
    links: {
      self: `/api/connectors/${connector.id}`,
      runs: `/api/runs?source=${encodeURIComponent(connector.source)}`,
      start: `/api/connectors/${connector.id}/runs`,
    },
  };
}

/**
 * Whether the schedule's tick at `hour` (0–23, in the report's time zone) runs a connector of
 * `cadence` hours: every `cadence` hours counted from the hour before the daily report, so a
 * daily connector's evidence is in before the report is made.
 */
export function isDueAt(hour: number, cadence: number, reportHour: number): boolean {
  const anchor = (reportHour + 23) % 24;
  return ((hour - anchor + 24) % 24) % cadence === 0;
}

/** The hour of a daily cron schedule (`0 6 * * *` → 6); 6 when it names no single hour. */
export function reportHourOf(schedule: string): number {
  const hour = Number(schedule.trim().split(/\s+/)[1]);
  return Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : 6;
}
