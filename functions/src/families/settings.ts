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
import { SettingsBaseUnknown, SettingsChanged, SettingsStore } from '../settings/settings-store.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type SettingsFamilyOptions = FamilyOptions & ServiceOptions;

const who = (actor: { uid: string; email?: string }) => actor.email ?? actor.uid;

/**
 * What a save that was not stored answers: a base never saved is a mistake in the body (400); a
 * base someone saved past meanwhile is a conflict naming who (409). Anything else is rethrown.
 */
function refusalOf(error: unknown, basedOn: number | null): unknown {
  if (error instanceof SettingsBaseUnknown) {
    const newest = error.newest === null ? 'none is saved yet: base it on null, the defaults' : `the newest is ${error.newest}`;
    return invalidRequest([{ in: 'body', pointer: '/basedOn', message: `names no saved version (${newest})` }]);
  }
  if (!(error instanceof SettingsChanged)) return error;
  const { newest } = error;
  return new ApiProblem(
    'settings_changed',
    `This change was made from version ${basedOn ?? 'none (the defaults)'}, but ${who(newest.savedBy!)} saved ` +
      `version ${newest.version} at ${newest.savedAt}. Nothing was stored: load version ${newest.version}, make ` +
      'the change again and save it.',
  );
}

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
          throw refusalOf(error, body.basedOn);
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
