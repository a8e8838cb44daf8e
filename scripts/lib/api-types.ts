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
 * The bodies each family's operations accept: the largest (0 when none takes a body), their
 * media types, and the largest of each type. The runtime guard refuses anything else before
 * reading it, whichever operation it is sent to, and reads a body only up to its type's limit
 * (a family taking large uploads and small JSON reads JSON only as far as JSON may go).
 */
function renderBodyLimits(document: OpenAPIObject): string {
  const operations = describeOperations(document);
  const lines = familiesOf(document).map((family) => {
    const bodies = operations.filter((operation) => operation.family === family).flatMap((operation) => operation.body ?? []);
    const limit = Math.max(0, ...bodies.map((body) => body.limit));
    const byType = new Map<string, number>();
    for (const body of bodies) for (const type of body.mediaTypes) byType.set(type, Math.max(byType.get(type) ?? 0, body.limit));
    const mediaTypes = [...byType.keys()].map((type) => `'${type}'`);
    const limits = [...byType].map(([type, bytes]) => `'${type}': ${bytes}`);
    return `  ${family}: { limit: ${limit}, mediaTypes: [${mediaTypes.join(', ')}], limits: { ${limits.join(', ')} } },`;
  });
  return `/** The largest request body, in bytes, any operation of each family accepts (\`x-body-limit\`), its media types, and the largest of each. */\nexport const familyBodies: Record<string, { limit: number; mediaTypes: readonly string[]; limits: Readonly<Record<string, number>> }> = {\n${lines.join('\n')}\n};\n`;
}

/** The version the functions announce in every answer: the description's own. */
export function renderApiVersion(document: OpenAPIObject): string {
  return `${banner}\n/** The API version this server implements: the OpenAPI description's \`info.version\`. */\nexport const apiVersion = '${document.info.version}';\n`;
}
