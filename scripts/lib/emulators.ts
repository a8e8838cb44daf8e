/**
 * How the scripts run the Firebase emulators: which demo project each mode uses, and an
 * environment that keeps every process on loopback (no metadata server, no CLI update check,
 * no message-of-the-day fetch, no SDK version lookup, no analytics from a user's own CLI settings).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookKeys } from '../../functions/src/webhooks/webhook-keys.ts';
import { paths } from './paths.ts';

export type Mode = 'public' | 'protected';

/** Each mode is its own demo project, whose settings live in `functions/.env.<project>`. */
export const projects: Record<Mode, string> = { public: 'demo-evident', protected: 'demo-evident-protected' };

export const emulatorsUsed = 'auth,functions,hosting,tasks';

export const hostingOrigin = 'http://127.0.0.1:5000';
export const functionsOrigin = 'http://127.0.0.1:5001';
export const authEmulatorOrigin = 'http://127.0.0.1:9099';

/**
 * What the integration tests add to the functions' environment: the analysis worker's
 * test-only faults (a crash to be retried, a slow run to watch, cancel and outlast a stream
 * connection with), honoured only inside the emulators.
 */
export const integrationTestEnv = {
  EVIDENT_FAULT_INJECTION: JSON.stringify({
    crashOnDate: '2025-01-07',
    afterControls: 5,
    slowOnDate: '2025-01-08',
    delayMs: 400,
  }),
};

export function emulatorEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // No Google Cloud metadata server exists here; without this, client libraries probe it.
    METADATA_SERVER_DETECTION: 'none',
    // firebase-tools skips its message-of-the-day fetch under CI and its update check here.
    CI: 'true',
    NO_UPDATE_NOTIFIER: '1',
    // The functions emulator runs `npm show firebase-functions` to suggest upgrades; offline, npm
    // answers from its cache or not at all, without a request.
    npm_config_offline: 'true',
    // A CLI config of the project's own: a developer's opted-in CLI analytics stay off here.
    XDG_CONFIG_HOME: join(paths.root, '.local', 'firebase-cli'),
    EVIDENT_STORE_DIR: process.env.EVIDENT_STORE_DIR ?? join(paths.root, '.local', 'store'),
    ...extra,
  };
}

/** The file the emulators read instead of firebase.json (at the root, so its relative paths hold). */
export const emulatorConfigFile = 'firebase.emulators.json';

/**
 * The emulators' configuration: firebase.json with the Authentication emulator's origin added
 * to the Content-Security-Policy's `connect-src`, where the web app signs in locally, and
 * without the `storage` rules, which only a deploy uses: Evident's own drivers stand in for
 * Cloud Storage here (the Storage emulator needs Java), and `--only` never names it.
 * The deployed firebase.json never names a loopback origin.
 */
export function emulatorConfig(): Record<string, unknown> {
  const config = JSON.parse(readFileSync(paths.firebaseJson, 'utf8')) as {
    hosting: { headers: { headers: { key: string; value: string }[] }[] };
    storage?: unknown;
  };
  for (const block of config.hosting.headers) {
    for (const header of block.headers) {
      if (header.key === 'Content-Security-Policy') {
        // Without that directive the emulator's origin would not be added, and local sign-in would fail unexplained.
        if (!header.value.includes("connect-src 'self'")) throw new Error(`firebase.json's CSP has no "connect-src 'self'"`);
        header.value = header.value.replace("connect-src 'self'", `connect-src 'self' ${authEmulatorOrigin}`);
      }
    }
  }
  delete config.storage;
  return config;
}

/** The file the functions emulator reads secrets from, instead of Secret Manager (which a `demo-` project has none of). */
export const localSecretsFile = join(paths.functions, '.secret.local');

/**
 * The local secrets file with every secret the functions declare: what it holds already, and a
 * `WEBHOOK_SECRET_KEY` of this machine's own when it has none, generated once and then kept
 * (the local store's webhook credentials are sealed with it). It never leaves the machine: it
 * is ignored by git and by deploys (`*.local` in firebase.json), and it seals only demo data.
 */
export function withLocalSecrets(current: string): string {
  const missing = Object.entries(localSecretMakers).filter(([name]) => localSecret(current, name) === undefined);
  if (missing.length === 0) return current;
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  return `${current}${separator}${missing.map(([name, make]) => `${name}=${make()}\n`).join('')}`;
}

/**
 * What each secret the functions may declare is given locally when the file has none: the
 * webhook key a random key; the connectors' credentials random tokens that the connectors'
 * stand-ins accept (stand-ins.ts). A secret the emulator cannot find it asks Secret Manager for,
 * which must never happen here, so every one is written. Set a real token in the file to run a
 * connector against the vendor itself.
 */
const localSecretMakers: Record<string, () => string> = {
  WEBHOOK_SECRET_KEY: () => WebhookKeys.generate(),
  GITHUB_CREDENTIAL: () => `github_pat_local_${randomBytes(20).toString('hex')}`,
  OKTA_CREDENTIAL: () => `00local${randomBytes(19).toString('hex')}`,
  // The audit packages' signing key: Ed25519, PKCS#8 DER in base64 on one line (audit/package-signature.ts).
  AUDIT_SIGNING_KEY: () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
};

/** A secret's value in the local secrets file's text; undefined when it has none. */
export function localSecret(text: string, name: string): string | undefined {
  const line = new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=(.*)$`, 'm').exec(text);
  return line?.[1]?.trim();
}

/** The connectors' credentials the local secrets file holds, for the stand-ins to accept. */
export function localConnectorTokens(): { github: string; okta: string } {
  writeEmulatorConfig();
  const text = readFileSync(localSecretsFile, 'utf8');
  return { github: localSecret(text, 'GITHUB_CREDENTIAL')!, okta: localSecret(text, 'OKTA_CREDENTIAL')! };
}

/** Writes the emulators' configuration (above) and makes sure of the local secrets; the configuration's file name. */
export function writeEmulatorConfig(): string {
  writeFileSync(join(paths.root, emulatorConfigFile), `${JSON.stringify(emulatorConfig(), null, 2)}\n`);
  const current = existsSync(localSecretsFile) ? readFileSync(localSecretsFile, 'utf8') : '';
  const secrets = withLocalSecrets(current);
  if (secrets !== current) writeFileSync(localSecretsFile, secrets, { mode: 0o600 });
  return emulatorConfigFile;
}
