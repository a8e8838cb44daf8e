/**
 * The Hosting rewrites of firebase.json, made from the description's families as
 * `npm run generate` writes them: each `/api/<family>` path to its family's function, in the
 * description's order, then any other `/api` path to the fallback function, then every page to
 * the web app. Each names the functions' region, so Hosting reaches them wherever they run. The
 * rest of firebase.json is written by hand and kept as it is.
 */
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { format, resolveConfig } from 'prettier';
import { functionsRegion } from '../../functions/src/config.ts';
import { familiesOf, fallbackFamily } from './route-tables.ts';

/**
 * A page of the web app: a path whose segments have no dot in the last one, so `/assets/…` and
 * other files are served as they are.
 */
const webAppPage = '^/(?:[^/]+/)*[^/.]*$';

export function hostingRewrites(document: OpenAPIObject): object[] {
  const families = familiesOf(document).map((family) => ({
    regex: family === fallbackFamily ? '^/api(?:/.*)?$' : `^/api/${family}(?:/.*)?$`,
    function: { functionId: family, region: functionsRegion },
  }));
  return [...families, { regex: webAppPage, destination: '/index.html' }];
}

/** firebase.json's text with its rewrites made from the description, formatted as Prettier formats the file. */
export async function withHostingRewrites(file: string, text: string, document: OpenAPIObject): Promise<string> {
  const config = JSON.parse(text) as { hosting: { rewrites?: unknown } };
  config.hosting.rewrites = hostingRewrites(document);
  return format(JSON.stringify(config, null, 2), { ...(await resolveConfig(file)), filepath: file });
}
