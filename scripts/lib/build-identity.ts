/**
 * Whether a build of the web app has its sign-in settings, looked for where Vite looks for them
 * in a production build: the values a local script passes, the environment, and the `.env`
 * files of the hosting folder (`hosting/.env.production.local` is where docs/deployment.md puts
 * a deployment's). Vite reads them itself; this only lets the build say, truthfully, what is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

export const identityNames = ['IDP_API_KEY', 'IDP_AUTH_DOMAIN', 'IDP_PROJECT_ID'] as const;

/** The files Vite loads for a production build. */
const envFiles = ['.env', '.env.local', '.env.production', '.env.production.local'];

/** The settings found in none of those places (or blank there). */
export function missingIdentity(hostingDir: string, given: Record<string, string> = {}): string[] {
  const fromFiles = envFiles
    .map((file) => join(hostingDir, file))
    .filter((file) => existsSync(file))
    .map((file) => parseEnv(readFileSync(file, 'utf8')));
  const env: Record<string, string | undefined> = Object.assign({}, ...fromFiles, process.env, given);
  return identityNames.filter((name) => !env[name]?.trim());
}
