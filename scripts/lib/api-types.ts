/**
 * The TypeScript types of the API, generated from the OpenAPI description with
 * openapi-typescript, and the map from each route family to its operation ids that the
 * family factory type-checks handlers against. Used by the functions and the web app alike.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { describeOperations, familiesOf } from './route-tables.ts';

const banner = '// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.\n';

export async function renderApiTypes(document: OpenAPIObject): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { immutable: false, alphabetize: false });
  return banner + astToString(ast);
}

export function renderFamilyTypes(document: OpenAPIObject): string {
  const operations = describeOperations(document);
  const lines = familiesOf(document).map((family) => {
    const ids = operations.filter((operation) => operation.family === family).map((operation) => `'${operation.operationId}'`);
    return `  ${family}: ${ids.length > 0 ? ids.join(' | ') : 'never'};`;
  });
  return `${banner}\n/** The operation ids of each route family (one Cloud Function each). */\nexport interface FamilyOperations {\n${lines.join('\n')}\n}\n\nexport const families = [${familiesOf(
    document,
  )
    .map((family) => `'${family}'`)
    .join(', ')}] as const;\n\n${renderQueryDefaults(document)}\n${renderBodyLimits(document)}`;
}

/**
 * The query parameters of each operation that have a default, which the HTTP core fills in
 * (http/request-input.ts): handlers see them as always there.
 */
function renderQueryDefaults(document: OpenAPIObject): string {
  const lines = describeOperations(document).flatMap((operation) => {
    const names = operation.parameters.filter((parameter) => parameter.in === 'query' && parameter.default !== undefined);
    return names.length > 0
      ? [`  ${operation.operationId}: ${names.map((parameter) => `'${parameter.name}'`).join(' | ')};`]
      : [];
  });
  return `/** The query parameters of each operation that the HTTP core gives their default when a request leaves them out. */\nexport interface QueryDefaults {\n${lines.join('\n')}\n}\n`;
}

/**
 * The bodies each family's operations accept: the largest (0 when none takes a body) and their
 * media types. The runtime guard refuses anything else before reading it, whichever operation
 * it is sent to.
 */
function renderBodyLimits(document: OpenAPIObject): string {
  const operations = describeOperations(document);
  const lines = familiesOf(document).map((family) => {
    const bodies = operations.filter((operation) => operation.family === family).flatMap((operation) => operation.body ?? []);
    const limit = Math.max(0, ...bodies.map((body) => body.limit));
    const mediaTypes = [...new Set(bodies.flatMap((body) => body.mediaTypes))].map((type) => `'${type}'`);
    return `  ${family}: { limit: ${limit}, mediaTypes: [${mediaTypes.join(', ')}] },`;
  });
  return `/** The largest request body, in bytes, any operation of each family accepts (\`x-body-limit\`), and their media types. */\nexport const familyBodies: Record<string, { limit: number; mediaTypes: readonly string[] }> = {\n${lines.join('\n')}\n};\n`;
}

/** The version the functions announce in every answer: the description's own. */
export function renderApiVersion(document: OpenAPIObject): string {
  return `${banner}\n/** The API version this server implements: the OpenAPI description's \`info.version\`. */\nexport const apiVersion = '${document.info.version}';\n`;
}
