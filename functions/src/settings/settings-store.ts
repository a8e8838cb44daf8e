/**
 * Settings as numbered versions in the object store, one object each, never changed once
 * written: `settings/versions/<inverted number>.json`. The number is inverted so the listing,
 * which is in name order, puts the newest first: the current settings are one `list` of one
 * name and one `read`, whatever the history holds, and a page of the history is one `list`
 * (who, when and why ride in each object's metadata). A save writes version n + 1 create-only,
 * and only when n is the newest: of two people saving from the same version, one is stored and
 * the other is told, and nothing of either is lost.
 */
import type { Actor } from '../assessment/model.js';
import { ObjectNotFound, PreconditionFailed, type ObjectInfo, type ObjectStore } from '../storage/object-store.js';
import type { OrganisationSettings, SettingsVersion, SettingsVersionSummary } from './settings-model.js';

export const settingsPrefix = 'settings/versions/';
const maxVersion = 999_999_999;
const digits = 9;
const namePattern = /^settings\/versions\/(\d{9})\.json$/;

export const settingsObjectName = (version: number) =>
  `${settingsPrefix}${String(maxVersion - version).padStart(digits, '0')}.json`;

function versionOfName(name: string): number | undefined {
  const match = namePattern.exec(name);
  return match ? maxVersion - Number(match[1]) : undefined;
}

/** A saved version, as stored: the settings with who saved them, when and why. */
export type SavedSettings = SettingsVersion & { version: number; savedAt: string; savedBy: Actor; reason: string };

/** A save was based on a version that is no longer the newest. */
export class SettingsChanged extends Error {
  readonly basedOn: number | null;
  readonly newest: SettingsVersionSummary;

  constructor(basedOn: number | null, newest: SettingsVersionSummary) {
    super(`the settings were based on version ${basedOn ?? 'none'}, but version ${newest.version} is the newest`);
    this.name = 'SettingsChanged';
    this.basedOn = basedOn;
    this.newest = newest;
  }
}

/** A save was based on a version never saved: one past the newest, or any when nothing is saved yet. */
export class SettingsBaseUnknown extends Error {
  readonly basedOn: number;
  /** The newest saved version; null before anything was saved. */
  readonly newest: number | null;

  constructor(basedOn: number, newest: number | null) {
    super(`the settings were based on version ${basedOn}, which was never saved`);
    this.name = 'SettingsBaseUnknown';
    this.basedOn = basedOn;
    this.newest = newest;
  }
}

function summaryOf(info: ObjectInfo): SettingsVersionSummary | undefined {
  const version = versionOfName(info.name);
  const { savedAt, savedBy, reason } = info.metadata;
  if (version === undefined || savedAt === undefined || savedBy === undefined) return undefined;
  return { version, savedAt, savedBy: JSON.parse(savedBy) as Actor, reason: reason ?? null };
}

export interface SettingsPage {
  items: SettingsVersionSummary[];
  hasMore: boolean;
  /** The version to continue after. */
  next?: number;
}

export class SettingsStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /** The newest version's summary, from one `list`; undefined before anything was saved. */
  async newest(): Promise<SettingsVersionSummary | undefined> {
    const { items } = await this.#store.list(settingsPrefix, { pageSize: 1 });
    return items[0] && summaryOf(items[0]);
  }

  /** The newest saved version; undefined before anything was saved. */
  async current(): Promise<SavedSettings | undefined> {
    const newest = await this.newest();
    return newest?.version ? this.get(newest.version) : undefined;
  }

  async get(version: number): Promise<SavedSettings | undefined> {
    try {
      const { data } = await this.#store.read(settingsObjectName(version));
      return JSON.parse(data.toString('utf8')) as SavedSettings;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Stores `settings` as the version after `basedOn`: `SettingsBaseUnknown` when that version was
   * never saved, `SettingsChanged` when a newer one was.
   */
  async save(
    basedOn: number | null,
    change: { settings: OrganisationSettings; savedBy: Actor; savedAt: string; reason: string },
  ): Promise<SavedSettings> {
    const newest = await this.newest();
    const newestVersion = newest?.version ?? null;
    if (basedOn !== null && (newestVersion === null || basedOn > newestVersion)) {
      throw new SettingsBaseUnknown(basedOn, newestVersion);
    }
    // Here a version newer than `basedOn` exists whenever they differ.
    if (newestVersion !== basedOn) throw new SettingsChanged(basedOn, newest!);
    const saved: SavedSettings = { version: (basedOn ?? 0) + 1, ...change };
    try {
      await this.#store.create(settingsObjectName(saved.version), JSON.stringify(saved), {
        contentType: 'application/json',
        metadata: { savedAt: saved.savedAt, savedBy: JSON.stringify(saved.savedBy), reason: saved.reason },
      });
    } catch (error) {
      // Someone saved the same next version between our list and our write.
      if (error instanceof PreconditionFailed) throw new SettingsChanged(basedOn, (await this.newest())!);
      throw error;
    }
    return saved;
  }

  /** Versions newest first, from after `after` (a version number): one `list`. */
  async page(options: { after?: number; limit: number }): Promise<SettingsPage> {
    const { items } = await this.#store.list(settingsPrefix, {
      pageSize: options.limit + 1,
      ...(options.after === undefined ? {} : { startOffset: `${settingsObjectName(options.after)}!` }),
    });
    const summaries = items.flatMap((info) => summaryOf(info) ?? []);
    const shown = summaries.slice(0, options.limit);
    const hasMore = summaries.length > options.limit;
    return { items: shown, hasMore, ...(hasMore ? { next: shown.at(-1)!.version! } : {}) };
  }
}
