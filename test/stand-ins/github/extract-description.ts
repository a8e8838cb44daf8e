/**
 * Extracts from GitHub's official OpenAPI description the subset the GitHub stand-in holds
 * requests and answers to: exactly the operations the connector calls, and every component they
 * reference (transitively), copied verbatim. The 13 MB package is read from a tarball unpacked
 * outside the repository and never installed:
 *
 *   cd /tmp && npm pack @octokit/openapi@23.0.2 && tar xzf octokit-openapi-23.0.2.tgz
 *   node test/stand-ins/github/extract-description.ts /tmp/package/generated/api.github.com.json
 *
 * Examples are left out (the stand-in builds its own fixtures); everything else is GitHub's text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/** The operations collect-github.ts calls, by method and path template. */
export const operations = [
  ['post', '/app/installations/{installation_id}/access_tokens'],
  ['get', '/orgs/{org}/repos'],
  ['get', '/orgs/{org}/members'],
  ['get', '/orgs/{org}/dependabot/alerts'],
  ['get', '/orgs/{org}/secret-scanning/alerts'],
  ['get', '/repos/{owner}/{repo}/branches/{branch}/protection'],
  ['get', '/repos/{owner}/{repo}/rules/branches/{branch}'],
  ['get', '/repos/{owner}/{repo}/environments'],
  ['get', '/repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies'],
  ['get', '/repos/{owner}/{repo}/actions/workflows'],
  ['get', '/repos/{owner}/{repo}/vulnerability-alerts'],
  ['get', '/repos/{owner}/{repo}/code-scanning/analyses'],
] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` without its `examples` (the components a response's examples point to). */
function withoutExamples(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutExamples);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'examples')
      .map(([key, inner]) => [key, withoutExamples(inner)]),
  );
}

/** Every `#/components/<section>/<name>` reference inside `value`. */
function referencesIn(value: Json, found: Set<string>): void {
  if (Array.isArray(value)) value.forEach((inner) => referencesIn(inner, found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.add(inner);
      else referencesIn(inner, found);
    }
  }
}

function extract(description: {
  info: Json;
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
}) {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [method, path] of operations) {
    const operation = description.paths[path]?.[method];
    if (operation === undefined) throw new Error(`${method.toUpperCase()} ${path} is not in the description`);
    paths[path] = { ...paths[path], [method]: withoutExamples(operation) };
  }
  const components: Record<string, Record<string, Json>> = {};
  // A set visits what is added to it while it is iterated, once each: the references' closure.
  const references = new Set<string>();
  referencesIn(paths, references);
  for (const reference of references) {
    const [, , section = '', name = ''] = reference.split('/');
    const component = description.components[section]?.[name];
    if (component === undefined) throw new Error(`${reference} is not in the description`);
    const kept = withoutExamples(component);
    (components[section] ??= {})[name] = kept;
    referencesIn(kept, references);
  }
  return { paths, components };
}

if (import.meta.main) {
  const source = process.argv[2];
  if (source === undefined)
    throw new Error('usage: extract-description.ts <path to @octokit/openapi generated/api.github.com.json>');
  const description = JSON.parse(readFileSync(source, 'utf8'));
  const { paths, components } = extract(description);
  const subset = {
    openapi: description.openapi,
    info: description.info,
    'x-provenance': {
      package: '@octokit/openapi',
      repository: 'https://github.com/octokit/openapi',
      version: description.info.version,
      file: 'generated/api.github.com.json',
      licence: 'MIT',
      extracted: new Date().toISOString().slice(0, 10),
      by: 'test/stand-ins/github/extract-description.ts: the operations it lists and the components they reference, examples left out',
    },
    paths,
    components,
  };
  const target = join(dirname(fileURLToPath(import.meta.url)), 'api.github.com.subset.json');
  // Written as the repository's formatter writes JSON, so the format check passes on it unchanged.
  writeFileSync(target, await format(JSON.stringify(subset), { ...(await resolveConfig(target)), parser: 'json' }));
  console.log(
    `${target}: ${operations.length} operations, ${Object.values(components).reduce((sum, section) => sum + Object.keys(section).length, 0)} components`,
  );
}
