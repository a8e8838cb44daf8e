/**
 * GitHub's own description of the operations the connector calls (api.github.com.subset.json,
 * extracted from `@octokit/openapi` by extract-description.ts), compiled with ajv so the stand-in
 * can hold every request and every answer to it: which operation a method and path are, whether
 * the path and query parameters are ones the operation declares with values its schemas allow,
 * and whether a response body matches the schema of its status.
 *
 * The description is OpenAPI 3.0, whose `nullable: true` is not JSON Schema: it is rewritten to
 * JSON Schema's `null` type (or an `anyOf` with `null` where the schema has no `type`) before ajv
 * sees it.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface DescribedOperation {
  method: string;
  template: string;
  /** Path and query parameters, as strings, against their schemas. */
  validateParameters: ValidateFunction;
  /** Response body schemas by status; a status the operation does not document is GitHub's `basic-error`. */
  validateBody(status: number): ValidateFunction | undefined;
}

export interface MatchedOperation {
  operation: DescribedOperation;
  pathParameters: Record<string, string>;
}

/** `schema` with OpenAPI 3.0's `nullable` turned into JSON Schema, recursively. */
export function withoutNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNullable);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Schema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]));
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') {
    const withNull: Schema = { ...converted, type: [converted.type, 'null'] };
    if (Array.isArray(converted.enum)) withNull.enum = [...converted.enum, null];
    return withNull;
  }
  return { anyOf: [converted, { type: 'null' }] };
}

const descriptionFile = new URL('./api.github.com.subset.json', import.meta.url);

function pathPattern(template: string): RegExp {
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
  return new RegExp(`^${source}$`);
}

/** The described operations, compiled once per stand-in. */
export function loadDescription(): { match(method: string, path: string): MatchedOperation | undefined } {
  const description = JSON.parse(readFileSync(descriptionFile, 'utf8'));
  const components = withoutNullable(description.components) as {
    parameters: Record<string, Parameter>;
    responses: Record<string, Schema>;
    schemas: Record<string, Schema>;
  };
  // Responses validate exactly; parameters arrive as strings and are coerced to their schemas' types.
  const responses = new Ajv({ strict: false, allErrors: true, logger: false });
  const parameters = new Ajv({ strict: false, allErrors: true, logger: false, coerceTypes: true });
  for (const ajv of [responses, parameters]) {
    addFormats.default(ajv);
    ajv.addFormat('int64', true);
  }
  const schemas: Record<string, unknown> = {};
  const root = { $id: 'github', components, operations: schemas };
  const listed: Array<{ method: string; template: string; key: string }> = [];
  for (const [template, methods] of Object.entries(description.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, raw] of Object.entries(methods)) {
      const operation = withoutNullable(raw) as { parameters?: Array<Parameter | { $ref: string }>; responses: Schema };
      const declared = (operation.parameters ?? []).map((parameter) =>
        '$ref' in parameter ? (components.parameters[parameter.$ref.split('/').pop() as string] as Parameter) : parameter,
      );
      const key = `${method} ${template}`.replace(/[^a-z0-9]+/gi, '_');
      const fields = declared.filter((parameter) => parameter.in !== 'header');
      schemas[`${key}_parameters`] = {
        type: 'object',
        properties: Object.fromEntries(fields.map((parameter) => [parameter.name, parameter.schema])),
        required: fields.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        additionalProperties: false,
      };
      for (const [status, response] of Object.entries(operation.responses)) {
        const reference = (response as { $ref?: string }).$ref;
        const resolved = reference === undefined ? response : components.responses[reference.split('/').pop() as string];
        const schema = (resolved as { content?: Record<string, { schema: unknown }> }).content?.['application/json']?.schema;
        if (schema !== undefined) schemas[`${key}_${status}`] = schema;
      }
      listed.push({ method: method.toUpperCase(), template, key });
    }
  }
  schemas.basic_error = components.schemas['basic-error'];
  responses.addSchema(root);
  parameters.addSchema(root);
  const operations = listed.map(({ method, template, key }) => {
    const bodies = new Map<number, ValidateFunction>();
    return {
      method,
      template,
      pattern: pathPattern(template),
      names: [...template.matchAll(/\{([^}]+)\}/g)].map((name) => name[1]),
      validateParameters: parameters.compile({ $ref: `github#/operations/${key}_parameters` }),
      validateBody(status: number) {
        if (status === 204) return undefined;
        const name = schemas[`${key}_${status}`] !== undefined ? `${key}_${status}` : 'basic_error';
        if (!bodies.has(status)) bodies.set(status, responses.compile({ $ref: `github#/operations/${name}` }));
        return bodies.get(status);
      },
    };
  });
  return {
    match(method, path) {
      for (const operation of operations) {
        const found = operation.method === method ? operation.pattern.exec(path) : null;
        if (found) {
          const pathParameters = Object.fromEntries(
            operation.names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]),
          );
          return { operation, pathParameters };
        }
      }
      return undefined;
    },
  };
}
