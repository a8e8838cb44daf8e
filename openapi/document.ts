/**
 * Assembles Evident's OpenAPI 3.1 description: the one source of truth for routing, validation,
 * access, types, the static `/api/openapi.json` and the generated reference pages.
 *
 * Each route family lives in `paths/<family>.ts`; a family is the path segment after `/api/`
 * and is served by its own Cloud Function.
 */
import { readFileSync } from 'node:fs';
import {
  isReferenceObject,
  OpenApiBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type ResponseObject,
} from 'openapi3-ts/oas31';
import { bearerAuth, deprecationHeaders, headers, problemCodesOf, responses, schemas } from './components.ts';
import { apiVersionHeader } from '@evident/contract';
import { contentCodings, maxInflatedBytes, maxJsonDepth } from '@evident/contract/request-limits';
import * as analyses from './paths/analyses.ts';
import * as audit from './paths/audit.ts';
import * as auth from './paths/auth.ts';
import * as chat from './paths/chat.ts';
import * as connectors from './paths/connectors.ts';
import * as controls from './paths/controls.ts';
import * as docs from './paths/docs.ts';
import * as evidence from './paths/evidence.ts';
import * as exceptions from './paths/exceptions.ts';
import * as frameworks from './paths/frameworks.ts';
import * as mcp from './paths/mcp.ts';
import * as report from './paths/report.ts';
import * as requests from './paths/requests.ts';
import * as runs from './paths/runs.ts';
import * as settings from './paths/settings.ts';
import * as submissions from './paths/submissions.ts';
import * as webhooks from './paths/webhooks.ts';

const families = [
  auth,
  docs,
  report,
  controls,
  frameworks,
  exceptions,
  audit,
  requests,
  evidence,
  runs,
  connectors,
  submissions,
  analyses,
  chat,
  mcp,
  webhooks,
  settings,
];

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The route family of a path: `/api/docs/page/{slug}` belongs to `docs`. */
export function familyOf(path: string): string {
  const match = /^\/api\/([a-z][a-z0-9-]*)(?:\/|$)/.exec(path);
  if (!match?.[1]) throw new Error(`${path}: every path must start with /api/<family>`);
  return match[1];
}

export interface OperationEntry {
  path: string;
  method: (typeof httpMethods)[number];
  family: string;
  operation: OperationObject;
}

/** Every operation of the document, in path order. */
export function operationsOf(document: OpenAPIObject): OperationEntry[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, family: familyOf(path), operation }] : [];
    }),
  );
}

export function buildDocument(): OpenAPIObject {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addTitle('Evident API')
    .addVersion(version)
    .addDescription(
      'Evident assesses security controls against evidence every day and publishes a dated report. ' +
        'Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`. ' +
        'Operations marked `x-beta` may change incompatibly. Read `/api/auth/config` first: when ' +
        '`authRequired` is true, protected operations need `Authorization: Bearer <Firebase ID token>`. ' +
        `Request bodies may be sent compressed (\`Content-Encoding\`: ${contentCodings.join(', ')}) and may inflate ` +
        `to at most ${maxInflatedBytes / 1024 / 1024} MiB; an operation's largest body is its \`x-body-limit\`, and ` +
        `JSON bodies nest at most ${maxJsonDepth} levels. Larger bodies get 413, deeper ones 400.`,
    )
    .addLicense({ name: 'Apache-2.0', identifier: 'Apache-2.0' })
    .addServer({ url: '/', description: 'The origin that serves this document' })
    .addSecurityScheme('bearerAuth', bearerAuth);

  for (const [name, schema] of Object.entries(schemas)) builder.addSchema(name, schema);
  for (const [name, header] of Object.entries(headers)) builder.addHeader(name, header);
  for (const [name, response] of Object.entries(responses)) builder.addResponse(name, response);
  const defined = new Set(Object.keys(schemas));
  for (const family of families) {
    builder.addTag(family.tag);
    for (const [name, schema] of Object.entries(family.schemas)) {
      // One name, one schema: a second definition would silently replace the first everywhere.
      if (defined.has(name)) throw new Error(`The schema "${name}" of the ${family.tag.name} paths is already defined.`);
      defined.add(name);
      builder.addSchema(name, structuredClone(schema));
    }
    for (const [path, item] of Object.entries(family.paths)) builder.addPath(path, item);
  }

  const document = builder.getSpec();
  documentAuthUnavailable(document);
  announceHeaders(document);
  assertConventions(document);
  return document;
}

/**
 * Whatever can answer 401 can also answer 503 `auth_unavailable`, while the keys that verify
 * tokens are out of reach: declared here for every such operation, once. An operation with a
 * 503 of its own lists that code in it instead (assertConventions checks).
 */
function documentAuthUnavailable(document: OpenAPIObject): void {
  for (const { operation } of operationsOf(document)) {
    if (operation.responses?.['401'] && !operation.responses['503']) {
      operation.responses['503'] = { $ref: '#/components/responses/AuthUnavailable' };
    }
  }
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Every answer carries the API version; every answer of a deprecated operation `Deprecation`,
 * and `Sunset` once its removal is dated (`x-deprecation`). Added here, once, rather than at
 * each response.
 */
function announceHeaders(document: OpenAPIObject): void {
  // New response objects: the ones the path modules give may be shared between operations.
  const components = document.components?.responses ?? {};
  for (const [name, response] of Object.entries(components)) {
    if (!isReferenceObject(response))
      components[name] = { ...response, headers: { [apiVersionHeader]: headerRef('ApiVersion'), ...response.headers } };
  }
  const operations = operationsOf(document);
  if (operations.some(({ operation }) => operation.deprecated)) Object.assign(document.components!.headers!, deprecationHeaders);
  for (const { operation } of operations) {
    const sunset = (operation['x-deprecation'] as { sunset?: string } | undefined)?.sunset;
    const answers = operation.responses as Record<string, ResponseObject | ReferenceObject>;
    for (const [status, response] of Object.entries(answers)) {
      if (isReferenceObject(response)) continue;
      answers[status] = {
        ...response,
        headers: {
          [apiVersionHeader]: headerRef('ApiVersion'),
          ...(operation.deprecated ? { Deprecation: headerRef('Deprecation') } : {}),
          ...(operation.deprecated && sunset ? { Sunset: headerRef('Sunset') } : {}),
          ...response.headers,
        },
      };
    }
  }
}

/** Conventions a linter does not know about; the build fails on the first one broken. */
function assertConventions(document: OpenAPIObject): void {
  const seen = new Set<string>();
  for (const { path, method, family, operation } of operationsOf(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    if (!operation.operationId) throw new Error(`${where}: missing operationId`);
    if (seen.has(operation.operationId)) throw new Error(`${where}: duplicate operationId ${operation.operationId}`);
    seen.add(operation.operationId);
    if (!operation.summary) throw new Error(`${where}: missing summary`);
    if (operation.tags?.[0] !== family) throw new Error(`${where}: first tag must be its family "${family}"`);
    if (!operation.security) throw new Error(`${where}: security must be explicit`);
    if (!operation.responses?.['500']) throw new Error(`${where}: missing the 500 problem response`);
    const isPublic = operation.security.length === 0;
    const isOptional = operation.security.some((requirement) => Object.keys(requirement).length === 0);
    if (!isPublic && !isOptional && !operation.responses['401']) throw new Error(`${where}: protected but no 401`);
    if (isPublic && operation.responses['401']) throw new Error(`${where}: is public, so it never answers 401`);
    const unavailable = (operation.responses['503'] as ReferenceObject | undefined)?.$ref.split('/').pop() ?? '';
    if (operation.responses['401'] && !problemCodesOf(unavailable).includes('auth_unavailable'))
      throw new Error(`${where}: answers 401, so its 503 must list auth_unavailable`);
  }
}
