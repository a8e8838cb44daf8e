/**
 * Writes the API reference pages in `docs/reference/` from the OpenAPI description: an
 * overview, one page per route family, and the errors page every problem `type` points to.
 * They are committed and never edited by hand; a check fails when they drift from the spec.
 */
import type {
  OpenAPIObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { operationsOf, type OperationEntry } from '../../openapi/document.ts';
import { problemCatalog } from '@evident/contract/problems';
import { describeOperations } from './route-tables.ts';

const banner = '# Generated from the OpenAPI description by scripts/lib/reference-docs.ts. Do not edit.';
const section = 'API reference';
const sharedSchemas = new Set(['Problem', 'RequestError']);

const accessText = {
  public: 'Public in both modes: no token needed, and it never answers 401.',
  protected:
    'Protected mode: needs `Authorization: Bearer <ID token>`, else 401. Public mode: open to anyone; a valid token still identifies the caller.',
  optional:
    'Open to everyone; a bearer token is optional. In protected mode a valid token unlocks gated content, and gated content without one answers 401.',
} as const;

function frontmatter(title: string, description: string, order: number): string {
  return [
    '---',
    banner,
    `title: ${JSON.stringify(title)}`,
    `description: ${JSON.stringify(description)}`,
    `section: ${section}`,
    `order: ${order}`,
    'gated: false',
    '---',
    '',
  ].join('\n');
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;
const isRef = (value: unknown): value is ReferenceObject => typeof value === 'object' && value !== null && '$ref' in value;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

function schemaLink(name: string): string {
  return sharedSchemas.has(name)
    ? `[\`${name}\`](/docs/reference-errors#${name.toLowerCase()})`
    : `[\`${name}\`](#${name.toLowerCase()})`;
}

function typeOf(schema: SchemaObject | ReferenceObject | undefined): string {
  if (!schema) return 'any';
  if (isRef(schema)) return schemaLink(refName(schema.$ref));
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${String(value)}\``).join(', ')}`;
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  const constraints = [
    schema.format,
    schema.pattern ? `pattern \`${schema.pattern}\`` : undefined,
    schema.maxLength !== undefined ? `at most ${schema.maxLength} characters` : undefined,
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : undefined,
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : undefined,
  ].filter(Boolean);
  return `${String(schema.type ?? 'any')}${constraints.length ? ` (${constraints.join(', ')})` : ''}`;
}

function fieldsTable(schema: SchemaObject): string[] {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const description = isRef(property) ? '' : (property.description ?? '');
    return `| \`${name}\` | ${cell(typeOf(property))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`;
  });
  return ['| Field | Type | Required | Description |', '|---|---|---|---|', ...rows];
}

/** Every component schema an operation's bodies reach, following references. */
function schemasUsedBy(document: OpenAPIObject, entries: OperationEntry[]): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    if (isRef(node)) {
      const name = refName(node.$ref);
      if (node.$ref.startsWith('#/components/schemas/') && !found.has(name)) {
        found.add(name);
        visit(document.components?.schemas?.[name]);
      } else if (node.$ref.startsWith('#/components/responses/')) {
        visit(document.components?.responses?.[name]);
      }
      return;
    }
    Object.values(node).forEach(visit);
  };
  for (const { operation } of entries) visit([operation.requestBody, operation.responses]);
  return [...found].filter((name) => !sharedSchemas.has(name)).sort();
}

function resolveResponse(document: OpenAPIObject, response: ResponseObject | ReferenceObject): ResponseObject {
  return isRef(response) ? (document.components?.responses?.[refName(response.$ref)] as ResponseObject) : response;
}

function renderOperation(document: OpenAPIObject, entry: OperationEntry, access: keyof typeof accessText): string[] {
  const { operation, method, path } = entry;
  const lines = [
    `## ${method.toUpperCase()} ${path}`,
    '',
    `**${operation.summary}** (\`${operation.operationId}\`)${operation['x-beta'] ? ' — beta: may change incompatibly' : ''}${operation.deprecated ? ' — deprecated: will be removed in a major version' : ''}`,
    '',
  ];
  if (operation.description) lines.push(operation.description, '');
  lines.push(`**Access.** ${accessText[access]}`, '');

  const parameters = (operation.parameters ?? []) as ParameterObject[];
  if (parameters.length > 0) {
    lines.push('**Parameters**', '', '| Name | In | Type | Required | Description |', '|---|---|---|---|---|');
    for (const parameter of parameters) {
      lines.push(
        `| \`${parameter.name}\` | ${parameter.in} | ${cell(typeOf(parameter.schema))} | ${parameter.required ? 'yes' : 'no'} | ${cell(parameter.description ?? '')} |`,
      );
    }
    lines.push('', 'Any other query parameter is rejected with `invalid_request`.', '');
  } else {
    lines.push('**Parameters.** None; any query parameter is rejected with `invalid_request`.', '');
  }

  if (operation.requestBody) {
    const body = operation.requestBody as RequestBodyObject;
    for (const [mediaType, content] of Object.entries(body.content)) {
      lines.push(`**Request body** (\`${mediaType}\`${body.required ? ', required' : ''}): ${typeOf(content.schema)}`, '');
    }
  }

  lines.push('**Responses**', '', '| Status | Meaning | Body |', '|---|---|---|');
  for (const [status, raw] of Object.entries(operation.responses ?? {})) {
    const response = resolveResponse(document, raw as ResponseObject | ReferenceObject);
    const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
    const body = mediaType ? `${typeOf(content?.schema)} as \`${mediaType}\`` : 'none';
    lines.push(`| ${status} | ${cell(response.description)} | ${cell(body)} |`);
  }
  lines.push('');
  return lines;
}

/** What the operations of a description are known by: their entries in order, and each one's access. */
interface Operations {
  entries: OperationEntry[];
  access: Map<string, keyof typeof accessText>;
}

/** The reference pages, by path relative to `docs/`. */
export function renderReferencePages(document: OpenAPIObject): Map<string, string> {
  const pages = new Map<string, string>();
  const entries = operationsOf(document);
  const operations: Operations = {
    entries,
    access: new Map(describeOperations(document).map((operation) => [operation.operationId, operation.access])),
  };
  const families = [...new Set(entries.map((entry) => entry.family))];
  pages.set('reference/overview.md', overviewPage(document, operations));
  families.forEach((family, index) => pages.set(`reference/${family}.md`, familyPage(document, operations, family, index)));
  pages.set('reference/errors.md', errorsPage(document));
  return pages;
}

/** Every operation in a table, after what holds for all of them. */
function overviewPage(document: OpenAPIObject, { entries, access }: Operations): string {
  const overview = [
    frontmatter('API reference', 'Every operation of the Evident API, generated from its OpenAPI description.', 900),
    '# API reference',
    '',
    `Evident API ${document.info.version}. The machine-readable description is [/api/openapi.json](/api/openapi.json); ` +
      'try operations in the [API explorer](/api/swagger). Errors are RFC 9457 problem details, listed on [Errors](/docs/reference-errors).',
    '',
    'Every answer names the version in `Evident-Api-Version`. Operations are **stable** unless marked **beta**: a stable ' +
      'operation changes incompatibly only in a new major version, and only after being marked deprecated (its answers then ' +
      'carry `Deprecation` and `Sunset`); a beta one may change in any minor version. Pin a client to the major version it ' +
      'was generated from; [API versions](/docs/api-versions) says how, and how to regenerate one.',
    '',
    '| Operation | Summary | Access |',
    '|---|---|---|',
    ...entries.map(
      (entry) =>
        `| [\`${entry.method.toUpperCase()} ${entry.path}\`](/docs/reference-${entry.family}) | ${cell(entry.operation.summary ?? '')} | ${access.get(entry.operation.operationId!)} |`,
    ),
    '',
  ];
  return overview.join('\n');
}

/** A family's operations in full, then the schemas their bodies use. */
function familyPage(document: OpenAPIObject, { entries, access }: Operations, family: string, index: number): string {
  const tags = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
  const own = entries.filter((entry) => entry.family === family);
  const lines = [
    frontmatter(`API reference: ${family}`, `The ${family} operations of the Evident API.`, 901 + index),
    `# ${family}`,
    '',
    tags.get(family) ?? '',
    '',
    ...own.flatMap((entry) => renderOperation(document, entry, access.get(entry.operation.operationId!)!)),
  ];
  const used = schemasUsedBy(document, own);
  if (used.length > 0) {
    lines.push('## Schemas', '');
    for (const name of used) {
      const schema = document.components!.schemas![name] as SchemaObject;
      lines.push(`### ${name}`, '');
      if (schema.description) lines.push(schema.description, '');
      lines.push(...(schema.properties ? fieldsTable(schema) : [`Type: ${typeOf(schema)}`]), '');
    }
  }
  return lines.join('\n');
}

/** The problem format, and every code of the problem catalog. */
function errorsPage(document: OpenAPIObject): string {
  const problem = document.components!.schemas!['Problem'] as SchemaObject;
  const requestError = document.components!.schemas!['RequestError'] as SchemaObject;
  const errors = [
    frontmatter('Errors', 'Every problem code the Evident API answers with, and what to do about it.', 990),
    '# Errors',
    '',
    'Every error is an RFC 9457 problem detail sent as `application/problem+json`. Branch on `code`, which is stable; ' +
      "`title` and `detail` are written for people. `type` links to the code's entry on this page, and `requestId` " +
      'finds the request in the server logs. A 401 also carries `WWW-Authenticate: Bearer`.',
    '',
    '```json',
    JSON.stringify(
      {
        type: '/docs/reference-errors#invalid_request',
        title: 'Invalid request',
        status: 400,
        detail: 'The query parameter "colour" is not a query parameter of this operation.',
        instance: '/api/docs/index',
        code: 'invalid_request',
        requestId: '2b0c6f1e-6d1a-4f0e-9d55-0c8f3a51e2a4',
        errors: [{ in: 'query', name: 'colour', message: 'is not a query parameter of this operation' }],
      },
      null,
      2,
    ),
    '```',
    '',
    '## Problem',
    '',
    ...fieldsTable(problem),
    '',
    '## RequestError',
    '',
    ...fieldsTable(requestError),
    '',
    '## Codes',
    '',
    ...Object.entries(problemCatalog).flatMap(([code, definition]) => [
      `### ${code}`,
      '',
      `**${definition.status} ${definition.title}.** ${definition.description}`,
      '',
    ]),
  ];
  return errors.join('\n');
}
