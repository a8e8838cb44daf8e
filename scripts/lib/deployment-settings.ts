/**
 * The deployment's settings beside the catalog (`functions/catalog/settings.json`): who owns a
 * control when it is not the owner its file names, and how many days a control of each severity
 * may stay failing, stale or missing evidence before it is overdue. The build compiles them into
 * the catalog, so a mistake fails the build with where it is, never a report.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDueDays, severities, type Severity } from '@evident/contract';

type DueDays = Readonly<Record<Severity, number>>;

export const settingsFile = 'settings.json';
const where = `functions/catalog/${settingsFile}`;

export interface DeploymentSettings {
  owners: ReadonlyMap<string, string>;
  dueDays: DueDays;
  /** The file's text, for the catalog's version; empty when there is none. */
  source: string;
}

export class SettingsError extends Error {}

const fail = (pointer: string, message: string): never => {
  throw new SettingsError(`${where}: ${pointer ? `${pointer} ` : ''}${message}`);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The settings in `catalogDir`, checked against the catalog's control ids; the defaults without a file. */
export function readDeploymentSettings(catalogDir: string, controlIds: ReadonlySet<string>): DeploymentSettings {
  const file = join(catalogDir, settingsFile);
  if (!existsSync(file)) return { owners: new Map(), dueDays: defaultDueDays, source: '' };
  const source = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    return fail('', `is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) return fail('', 'must be a JSON object');
  for (const key of Object.keys(parsed)) {
    if (key !== 'owners' && key !== 'dueDays') fail(`/${key}`, 'is not a setting (owners, dueDays)');
  }

  const owners = new Map<string, string>();
  const ownersValue = parsed['owners'] ?? {};
  if (!isObject(ownersValue)) fail('/owners', 'must map control ids to owners');
  for (const [id, owner] of Object.entries(ownersValue as Record<string, unknown>)) {
    if (!controlIds.has(id)) fail(`/owners/${id}`, 'names no control in the catalog');
    if (typeof owner !== 'string' || owner.trim() === '' || owner.length > 200)
      fail(`/owners/${id}`, 'must be a non-empty string of at most 200 characters');
    owners.set(id, (owner as string).trim());
  }

  const dueValue = parsed['dueDays'] ?? {};
  if (!isObject(dueValue)) fail('/dueDays', 'must map severities to days');
  const dueDays = { ...defaultDueDays };
  for (const [severity, days] of Object.entries(dueValue as Record<string, unknown>)) {
    if (!(severities as readonly string[]).includes(severity))
      fail(`/dueDays/${severity}`, `is not a severity (${severities.join(', ')})`);
    if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > 3650)
      fail(`/dueDays/${severity}`, 'must be a whole number of days from 1 to 3650');
    dueDays[severity as keyof DueDays] = days as number;
  }
  return { owners, dueDays, source };
}
