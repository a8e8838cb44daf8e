/**
 * What a built-in connector is. A connector reads one vendor's API through the vendor's own SDK
 * and yields evidence items, subject by subject; the connector runner (connector-run.ts) sends
 * them under a collection run, so a connector never sees HTTP families, runs or stores, and the
 * engine never sees a connector.
 *
 * A connector is split in two so listing connectors loads no vendor SDK: its `Connector`
 * (id, kinds, settings, secrets, permissions) is plain data, and `load()` imports the module
 * whose `collect` uses the SDK, only when a run starts.
 */
import type { EvidenceKindName } from '@evident/contract';

/** A non-secret setting's value, as the organisation's settings hold it (`settings.connectors[id]`). */
export type SettingValue = string | number | boolean;

export interface ConnectorSetting {
  /** Its name under `settings.connectors[<connector id>]`. */
  name: string;
  description: string;
  /** A run cannot start without it. */
  required: boolean;
  /** A value a person could type, shown in the docs and the Settings page. */
  example: string;
}

export interface ConnectorSecret {
  /** Its name in Secret Manager (`defineSecret`), and in `functions/.secret.local` locally. */
  name: string;
  description: string;
}

/** One observation of one subject, as a connector yields it; the runner adds the source and the id. */
export interface CollectedItem {
  kind: EvidenceKindName;
  subject: string;
  /** When the vendor's API was read for it (ISO 8601). */
  collectedAt: string;
  data: Record<string, unknown>;
}

/** What a connector reports while it collects; the runner turns it into the run's progress events. */
export interface CollectProgress {
  /** One call to the vendor's API answered: a page of a listing (`entries` long) or a single resource. */
  called(resource: string, entries: number): void;
  /** The vendor asked to slow down: the SDK waits `seconds` before its next call. */
  rateLimited(seconds: number, reason: string): void;
}

export interface CollectContext {
  /** This connector's non-secret settings, as the organisation saved them. */
  settings: Readonly<Record<string, SettingValue>>;
  /** This connector's secrets that are set, by name. Never logged, never shown, never in a problem. */
  secrets: Readonly<Record<string, string>>;
  /** Aborted when the run is cancelled: stop at the next call. */
  signal: AbortSignal;
  progress: CollectProgress;
  /** The run's clock: every item of one run is collected "now". */
  now: () => Date;
  /**
   * Tests and the emulators only: the address of a stand-in that speaks the vendor's protocol, for
   * the connectors whose address is not a setting (Google's APIs). Never set in a deployment.
   */
  standIn?: { endpoint: string; token: string };
}

/** What a loaded connector does: yield every subject's items, following pagination to the end. */
export interface Collector {
  collect(context: CollectContext): AsyncIterable<CollectedItem>;
}

export interface Connector {
  /** Its id in the API and the settings: `github`. */
  id: string;
  /** Its name for people: `GitHub`. */
  title: string;
  /** The `source` its items carry, and the collection runs it opens. */
  source: string;
  /** Every kind it produces: each run opens the run with all of them. */
  kinds: readonly EvidenceKindName[];
  /** With `scanner.finding` among its kinds: the scanner check ids its findings carry, which controls follow by name. */
  scannerChecks?: readonly string[];
  settings: readonly ConnectorSetting[];
  secrets: readonly ConnectorSecret[];
  /** How it authenticates, in words. */
  credentials: string;
  /** The least-privilege permissions or scopes it needs on the vendor's side, in words. */
  permissions: readonly string[];
  /**
   * What is missing before a run can start, in words, from its settings and the names of its
   * secrets that are set; empty when it is ready. Undefined: its required settings and every secret.
   */
  needs?(settings: Readonly<Record<string, SettingValue>>, secretsSet: ReadonlySet<string>): string[];
  /** Imports the module that uses the vendor's SDK. */
  load(): Promise<Collector>;
}

/**
 * Why a run failed, in terms a person can act on. The runner ends the run incomplete with it;
 * `permission` names the scope or role that is missing when the vendor says so. Its message
 * must never carry a secret (the runner shows it as the run's problem).
 */
export type FailureReason =
  /** A setting or secret a run needs is not there. */
  | 'not_configured'
  /** The vendor refused the credential (revoked, expired, malformed). */
  | 'credential_rejected'
  /** The credential is accepted but lacks a permission or scope; `permission` names it. */
  | 'permission_missing'
  /** What the settings name (an organisation, a project, a tenant) does not exist or is not visible. */
  | 'not_found'
  /** The vendor failed (5xx, time-out) after the SDK's own retries. */
  | 'vendor_unavailable';

export class ConnectorFailure extends Error {
  readonly reason: FailureReason;
  readonly permission: string | undefined;

  constructor(reason: FailureReason, message: string, permission?: string) {
    super(message);
    this.name = 'ConnectorFailure';
    this.reason = reason;
    this.permission = permission;
  }
}

/** What a connector with no `needs` of its own lacks: its required settings, then its secrets. */
export function defaultNeeds(
  connector: Pick<Connector, 'settings' | 'secrets'>,
  settings: Readonly<Record<string, SettingValue>>,
  secretsSet: ReadonlySet<string>,
): string[] {
  return [
    ...connector.settings
      .filter((setting) => setting.required && (settings[setting.name] === undefined || settings[setting.name] === ''))
      .map((setting) => `the setting "${setting.name}": ${setting.description}`),
    ...connector.secrets
      .filter((secret) => !secretsSet.has(secret.name))
      .map((secret) => `the secret ${secret.name}: ${secret.description}`),
  ];
}
