/**
 * The `settings` family: the organisation's settings, read, saved as a new version and listed
 * (settings/settings-store.ts keeps them). A save names the version it was made from, so two
 * people editing at once cannot overwrite each other: the second is refused and told who saved
 * first. What the schema cannot check is checked against the catalog (settings-checks.ts).
 */
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { settingsErrors } from '../settings/settings-checks.js';
import { defaultVersionOf } from '../settings/settings-model.js';
import { SettingsChanged, SettingsStore } from '../settings/settings-store.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type SettingsFamilyOptions = FamilyOptions & ServiceOptions;

const who = (actor: { uid: string; email?: string }) => actor.email ?? actor.uid;

export function createSettingsFamily(options: SettingsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const context = async () => {
    const s = await services();
    return { s, store: new SettingsStore(s.store) };
  };

  return createFamily(
    'settings',
    {
      getSettings: async () => {
        const { s, store } = await context();
        return { status: 200, body: (await store.current()) ?? defaultVersionOf(s.catalog) };
      },
      saveSettings: async ({ body }, request) => {
        const { s, store } = await context();
        const errors = settingsErrors(body.settings, s.catalog);
        if (errors.length > 0) throw invalidRequest(errors);
        try {
          const saved = await store.save(body.basedOn, {
            settings: body.settings,
            savedBy: actorOf(request.caller),
            savedAt: s.now().toISOString(),
            reason: body.reason.trim(),
          });
          return { status: 200, body: saved };
        } catch (error) {
          if (!(error instanceof SettingsChanged)) throw error;
          const { newest } = error;
          throw new ApiProblem(
            'settings_changed',
            `This change was made from version ${body.basedOn ?? 'none (the defaults)'}, but ${who(newest.savedBy!)} saved ` +
              `version ${newest.version} at ${newest.savedAt}. Nothing was stored: load version ${newest.version}, make ` +
              'the change again and save it.',
          );
        }
      },
      listSettingsVersions: async ({ query }) => {
        const { store } = await context();
        const after = placeOf('settings', query.cursor);
        const { next, ...page } = await store.page({
          limit: query.limit,
          ...(after === undefined ? {} : { after: Number(after) }),
        });
        return { status: 200, body: pageBody('settings', { ...page, ...(next === undefined ? {} : { next: String(next) }) }) };
      },
      getSettingsVersion: async ({ path }) => {
        const { store } = await context();
        const saved = await store.get(path.version);
        if (!saved) {
          throw new ApiProblem('settings_version_not_found', `No saved version of the settings is numbered ${path.version}.`);
        }
        return { status: 200, body: saved };
      },
    },
    options,
  );
}

export const handler = createSettingsFamily();
