/**
 * The four connectors' stand-ins for local runs (`npm start`, the integration tests): GitHub's,
 * Okta's and the Admin SDK's REST APIs and Cloud Asset Inventory's gRPC service, each a local
 * server held to the vendor's published description (test/stand-ins/<connector>/), serving a
 * small synthetic organisation. The functions reach them through `EVIDENT_STAND_INS`, which the
 * emulators alone honour, with the tokens `functions/.secret.local` holds as the connectors'
 * secrets (emulators.ts writes them), so a run goes through the same credential path as deployed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from '../../functions/src/assessment/model.ts';
import type * as SettingsModelModule from '../../functions/src/settings/settings-model.ts';
import type * as SettingsStoreModule from '../../functions/src/settings/settings-store.ts';
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import { buildFixture } from '../../test/stand-ins/github/fixture.ts';
import { startGitHubStandIn } from '../../test/stand-ins/github/github-stand-in.ts';
import { AssetServiceStandIn } from '../../test/stand-ins/google-cloud/asset-service-stand-in.ts';
import { fixtureAssets, organization } from '../../test/stand-ins/google-cloud/asset-fixture.ts';
import { startDirectoryStandIn } from '../../test/stand-ins/google-workspace/directory-stand-in.ts';
import { startOktaStandIn } from '../../test/stand-ins/okta/okta-stand-in.ts';
import { compiled } from './compiled.ts';
import { paths } from './paths.ts';

/** Every connector the stand-ins serve, as `CONNECTORS` names them. */
export const standInConnectors = ['github', 'google-cloud', 'google-workspace', 'okta'] as const;

/** The settings that point each connector at its stand-in's organisation (`settings.connectors`). */
export const standInSettings: Record<(typeof standInConnectors)[number], Record<string, string>> = {
  github: { organization: 'acme' },
  'google-cloud': { scope: organization },
  'google-workspace': { adminEmail: 'admin@example.com' },
  okta: { orgUrl: 'https://acme.okta.com' },
};

export interface RunningStandIns {
  /** What the functions' environment needs: `CONNECTORS` and `EVIDENT_STAND_INS`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the four stand-ins on loopback ports of their own. `tokens`: the connectors' secrets as
 * `functions/.secret.local` holds them, which the GitHub and Okta stand-ins accept; the Google
 * ones accept the token the functions are handed with their address.
 */
export async function startStandIns(tokens: { github: string; okta: string }, now = new Date()): Promise<RunningStandIns> {
  const googleToken = 'stand-in-google-access-token';
  const [github, okta, workspace, cloud] = await Promise.all([
    startGitHubStandIn({ fixture: buildFixture(24, 'acme'), token: tokens.github }),
    startOktaStandIn({ users: 40, token: tokens.okta }),
    startDirectoryStandIn({ users: 40, now, token: googleToken }),
    new AssetServiceStandIn({
      assets: fixtureAssets({ projects: 2, buckets: 8, cryptoKeys: 6, alertPolicies: 4, datasets: 2 }),
      token: googleToken,
    }).start(),
  ]);
  const standIns = {
    github: { endpoint: github.origin, token: tokens.github },
    'google-cloud': { endpoint: cloud.endpoint, token: googleToken },
    'google-workspace': { endpoint: workspace.endpoint, token: googleToken },
    okta: { endpoint: okta.url, token: tokens.okta },
  };
  return {
    env: { CONNECTORS: standInConnectors.join(','), EVIDENT_STAND_INS: JSON.stringify(standIns) },
    close: async () => {
      await Promise.all([github.close(), okta.close(), workspace.close(), cloud.stop()]);
    },
  };
}

/**
 * `npm start` on the demo's store: saves the settings that point each connector at its
 * stand-in's organisation, once, as the next settings version with who and why, as a person
 * would on the Settings page. A store whose settings name any connector already is left as it is.
 */
export async function connectDemoConnectors(storeDir: string): Promise<boolean> {
  const [{ LocalFolderStore }, { SettingsStore }, { defaultVersionOf }] = await Promise.all([
    compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js'),
    compiled<typeof SettingsStoreModule>('settings/settings-store.js'),
    compiled<typeof SettingsModelModule>('settings/settings-model.js'),
  ]);
  const settings = new SettingsStore(new LocalFolderStore(storeDir));
  const current = await settings.current();
  if (current && Object.keys(current.settings.connectors).length > 0) return false;
  const catalog = JSON.parse(await readFile(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog;
  const base = current?.settings ?? defaultVersionOf(catalog).settings;
  await settings.save(current?.version ?? null, {
    settings: { ...base, connectors: { ...base.connectors, ...standInSettings } },
    savedBy: { uid: 'npm-start', name: 'npm start' },
    savedAt: new Date().toISOString(),
    reason: "Connect the demo company's systems (local stand-ins of GitHub, Google Cloud, Google Workspace and Okta)",
  });
  return true;
}
