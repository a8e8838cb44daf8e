/**
 * Turns the OpenAPI description into the route tables the HTTP core serves from: per family,
 * each operation's method, path, access and parameters, and Ajv validators for its path,
 * query, header and body input. The build writes them as standalone ES modules (nothing is
 * compiled at cold start); tests compile the same descriptors in memory.
 */
import { _ } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { isCalendarDate } from '../../functions/src/assessment/dates.ts';
import { formats } from '../../functions/src/http/formats.ts';
import { operationsOf } from '../../openapi/document.ts';
import type {
  Access,
  BodySpec,
  FormLimits,
  ParameterSpec,
  RouteOperation,
  RouteTable,
  ScalarType,
} from '../../functions/src/http/route-table.ts';

/** The family that owns no operation and answers 404 for every `/api` path no other family claims. */
export const fallbackFamily = 'fallback';
export const defaultBodyLimit = 1024 * 1024;

type Group = 'path' | 'query' | 'header' | 'body';

export interface OperationDescriptor extends Omit<RouteOperation, 'validate'> {
  family: string;
  schemas: Partial<Record<Group, SchemaObject>>;
}

const componentsId = 'components.json';

export function describeOperations(document: OpenAPIObject): OperationDescriptor[] {
  return operationsOf(document).map(({ path, method, family, operation }) => {
    const parameters = (operation.parameters ?? []).map((parameter) => resolve<ParameterObject>(document, parameter));
    const specs: ParameterSpec[] = [];
    const groups: Record<'path' | 'query' | 'header', { properties: Record<string, SchemaObject>; required: string[] }> = {
      path: { properties: {}, required: [] },
      query: { properties: {}, required: [] },
      header: { properties: {}, required: [] },
    };
    for (const parameter of parameters) {
      if (parameter.in === 'cookie') throw new Error(`${operation.operationId}: cookie parameters are not supported`);
      const schema = (parameter.schema ?? { type: 'string' }) as SchemaObject;
      const array = schema.type === 'array';
      const itemType = (array ? (schema.items as SchemaObject | undefined)?.type : schema.type) ?? 'string';
      specs.push({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true,
        type: itemType as ScalarType,
        array,
        ...(schema.default !== undefined ? { default: schema.default } : {}),
      });
      groups[parameter.in].properties[parameter.name] = schema;
      if (parameter.required) groups[parameter.in].required.push(parameter.name);
    }
    const objectSchema = (group: 'path' | 'query' | 'header'): SchemaObject => ({
      type: 'object',
      properties: groups[group].properties,
      required: groups[group].required,
      // Unknown query parameters are mistakes worth reporting; unknown headers are normal.
      additionalProperties: group === 'header',
    });

    const schemas: OperationDescriptor['schemas'] = {
      path: objectSchema('path'),
      query: objectSchema('query'),
      header: objectSchema('header'),
    };
    let body: BodySpec | undefined;
    if (operation.requestBody) {
      const requestBody = resolve<RequestBodyObject>(document, operation.requestBody);
      const mediaTypes = Object.keys(requestBody.content);
      const limit = Number(operation['x-body-limit'] ?? defaultBodyLimit);
      const json = requestBody.content['application/json'];
      const form = requestBody.content['multipart/form-data'];
      if (operation['x-raw-body'] === true) {
        body = { required: requestBody.required === true, mediaTypes, limit, format: 'raw', files: [], lists: [] };
      } else if (mediaTypes.length !== 1 || !(json ?? form)) {
        throw new Error(`${operation.operationId}: a body must be either application/json or multipart/form-data`);
      } else if (json) {
        body = { required: requestBody.required === true, mediaTypes, limit, format: 'json', files: [], lists: [] };
        schemas.body = (json.schema ?? {}) as SchemaObject;
      } else {
        const schema = resolve<SchemaObject>(document, form!.schema as SchemaObject | ReferenceObject);
        const read = formOf(operation, schema);
        body = { required: requestBody.required === true, mediaTypes, limit, format: 'multipart', ...read.spec };
        schemas.body = read.textSchema;
      }
    }

    const access: Access =
      operation.security?.length === 0
        ? 'public'
        : operation.security?.some((r) => Object.keys(r).length === 0)
          ? 'optional'
          : 'protected';
    const deprecationHeaders = deprecationHeadersOf(operation);
    return {
      operationId: operation.operationId!,
      method: method.toUpperCase(),
      path,
      family,
      access,
      parameters: specs,
      ...(body ? { body } : {}),
      ...(deprecationHeaders ? { deprecationHeaders } : {}),
      schemas,
    };
  });
}

export function familiesOf(document: OpenAPIObject): string[] {
  return [...new Set(operationsOf(document).map((entry) => entry.family)), fallbackFamily];
}

/**
 * A form's file fields, repeatable text fields and `x-form-limits`, and the schema its text fields
 * are validated with. Files are checked by the handler (size, type, hash); the text fields by the
 * schema. The limits must let through every form the schema accepts.
 */
function formOf(
  operation: OperationObject,
  formSchema: SchemaObject,
): { spec: Pick<BodySpec, 'files' | 'lists' | 'formLimits'>; textSchema: SchemaObject } {
  const schema = structuredClone(formSchema);
  const properties = Object.entries(schema.properties ?? {}) as [string, SchemaObject][];
  const fileFields = properties.filter(([, property]) => isFile(property));
  const files = fileFields.map(([name]) => name);
  for (const name of files) delete schema.properties![name];
  schema.required = (schema.required ?? []).filter((name) => !files.includes(name));
  schema.additionalProperties = false;
  const texts = properties.filter(([name]) => !files.includes(name));
  const lists = texts.filter(([, property]) => property.type === 'array').map(([name]) => name);
  const formLimits = operation['x-form-limits'] as FormLimits | undefined;
  const short = shortLimits(formLimits, texts, fileFields);
  if (!formLimits || short.length > 0) {
    throw new Error(`${operation.operationId}: a form needs x-form-limits that let a valid form through (${short.join('; ')})`);
  }
  return { spec: { files, lists, formLimits }, textSchema: schema };
}

/** Which of a form's limits fall short of what a valid form may hold (a list's maxItems, four bytes a character). */
function shortLimits(limits: FormLimits | undefined, texts: [string, SchemaObject][], files: [string, SchemaObject][]): string[] {
  const most = (entries: [string, SchemaObject][]) =>
    entries.reduce((sum, [, property]) => sum + (property.type === 'array' ? (property.maxItems ?? Infinity) : 1), 0);
  const lengths = texts.map(([, property]) => ((property.items as SchemaObject | undefined) ?? property).maxLength ?? 0);
  const needs: FormLimits = {
    fields: most(texts),
    files: most(files),
    parts: most(texts) + most(files),
    fieldBytes: 4 * Math.max(0, ...lengths),
  };
  return (Object.keys(needs) as (keyof FormLimits)[])
    .filter((name) => !((limits?.[name] ?? 0) >= needs[name]))
    .map((name) => `${name} at least ${needs[name]}`);
}

/** A form field holding files: `contentMediaType` on the field or its items (OpenAPI 3.1 style). */
function isFile(schema: SchemaObject): boolean {
  const item = (schema.type === 'array' ? schema.items : schema) as SchemaObject | undefined;
  return item?.contentMediaType !== undefined || item?.format === 'binary';
}

function resolve<T>(document: OpenAPIObject, value: T | ReferenceObject): T {
  if (!value || typeof value !== 'object' || !('$ref' in value)) return value as T;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  if (!target) throw new Error(`unresolved reference ${value.$ref}`);
  return target as T;
}

/** Points `#/components/schemas/X` references at the shared components schema Ajv knows. */
function retarget<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${componentsId}#/$defs/`)) as T;
}

function createAjv(document: OpenAPIObject, standalone: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    // The generated module sits in functions/lib/generated/routes/, the formats in functions/lib/http/.
    ...(standalone ? { code: { source: true, esm: true, formats: _`require("../../http/formats.js").formats` } } : {}),
  });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addSchema({ $id: componentsId, $defs: retarget(document.components?.schemas ?? {}) });
  return ajv;
}

/**
 * What every answer of a `deprecated: true` operation carries: `Deprecation` (RFC 9745, the day
 * it was deprecated, from `x-deprecation.date`) and, once a removal day is set
 * (`x-deprecation.sunset`), `Sunset` (RFC 8594). Flattened name, value, name, value….
 */
function deprecationHeadersOf(operation: OperationObject): string[] | undefined {
  if (operation.deprecated !== true) return undefined;
  const { date, sunset } = (operation['x-deprecation'] ?? {}) as { date?: string; sunset?: string };
  if (!date || !isCalendarDate(date) || (sunset !== undefined && !isCalendarDate(sunset)))
    throw new Error(`${operation.operationId}: a deprecated operation needs x-deprecation.date (and any sunset) as YYYY-MM-DD`);
  const headers = ['Deprecation', `@${Date.parse(`${date}T00:00:00Z`) / 1000}`];
  if (sunset) headers.push('Sunset', new Date(`${sunset}T00:00:00Z`).toUTCString());
  return headers;
}

const validatorName = (operationId: string, group: Group) => `${operationId}_${group}`;
const schemaId = (operationId: string, group: Group) => `${operationId}.${group}`;

/** The ES module source of one family's route table, as the functions load it at run time. */
export function renderRouteModule(document: OpenAPIObject, family: string): string {
  const operations = describeOperations(document).filter((operation) => operation.family === family);
  const ajv = createAjv(document, true);
  const exports: Record<string, string> = {};
  for (const operation of operations) {
    for (const [group, schema] of Object.entries(operation.schemas) as [Group, SchemaObject][]) {
      ajv.addSchema({ ...retarget(schema), $id: schemaId(operation.operationId, group) });
      exports[validatorName(operation.operationId, group)] = schemaId(operation.operationId, group);
    }
  }
  const validators = operations.length > 0 ? standaloneCode.default(ajv, exports) : '';
  const table = operations.map(({ family: _family, schemas, ...route }) => {
    const validate = Object.keys(schemas)
      .map((group) => `${group}: ${validatorName(route.operationId, group as Group)}`)
      .join(', ');
    return `  { ...${JSON.stringify(route)}, validate: { ${validate} } },`;
  });
  return [
    `// Generated from the OpenAPI description by scripts/lib/route-tables.ts. Do not edit.`,
    // Ajv's ESM output still calls require() for its runtime helpers (ucs2length, formats).
    `import { createRequire } from 'node:module';`,
    `const require = createRequire(import.meta.url);`,
    validators.replace(/^"use strict";/, ''),
    `export const operations = [`,
    ...table,
    `];`,
    ``,
  ].join('\n');
}

/** The same route table as `renderRouteModule`, compiled in memory (for tests). */
export function compileRouteTable(document: OpenAPIObject, family: string): RouteTable {
  const ajv = createAjv(document, false);
  const operations = describeOperations(document)
    .filter((operation) => operation.family === family)
    .map(({ family: _family, schemas, ...route }) => {
      const compile = (group: Group) => ajv.compile({ ...retarget(schemas[group]!), $id: schemaId(route.operationId, group) });
      return {
        ...route,
        validate: {
          path: compile('path'),
          query: compile('query'),
          header: compile('header'),
          ...(schemas.body ? { body: compile('body') } : {}),
        },
      } satisfies RouteOperation;
    });
  return { operations };
}
