/**
 * Okta's published Management API description (the subset in management-subset.json, with its
 * provenance) as checks for the Okta stand-in: whether a request names a described operation with
 * declared, well-typed query parameters, and whether a response body fits the operation's schema.
 * Okta's schemas pick a subtype by a discriminator (`type`, `factorType`, `signOnMode`); ajv does
 * not follow OpenAPI discriminators, so an item is checked against the subtype its discriminator names.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Schema {
  $ref?: string;
  type?: string;
  items?: Schema;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}
interface Description {
  paths: Record<string, { parameters?: (Parameter | { $ref: string })[]; get?: Operation }>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter>; responses: Record<string, unknown> };
}

const description = JSON.parse(readFileSync(new URL('./management-subset.json', import.meta.url), 'utf8')) as Description;

/**
 * OpenAPI 3.0's `nullable` beside `allOf` or `$ref` (Okta writes it so) means "this, or null";
 * ajv accepts `nullable` only next to `type`, so those become `anyOf` with null.
 */
function withNullsAllowed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullsAllowed);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withNullsAllowed(value)]));
  // `nullable: false` is the default, and ajv refuses it without `type` too.
  if (nullable !== true) return rest;
  return 'type' in rest ? { ...rest, nullable } : { anyOf: [rest, { type: 'null' }] };
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// OpenAPI keywords ajv does not know; `discriminator` is applied by hand below.
ajv.addKeyword({ keyword: 'discriminator' });
ajv.addSchema({ components: withNullsAllowed(description.components) }, 'okta');

const validators = new Map<string, ValidateFunction>();
function validatorOf(ref: string): ValidateFunction {
  const key = `okta${ref}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: key });
    validators.set(key, validate);
  }
  return validate;
}

const refName = (ref: string): string => ref.split('/').pop()!;

/** The schema a value must fit: the subtype its discriminator names, else the schema itself. */
function concreteRef(ref: string, value: unknown): string {
  const discriminator = description.components.schemas[refName(ref)]?.discriminator;
  if (!discriminator?.mapping || typeof value !== 'object' || value === null) return ref;
  const tag = (value as Record<string, unknown>)[discriminator.propertyName];
  return (typeof tag === 'string' && discriminator.mapping[tag]) || ref;
}

function errorsOf(ref: string, value: unknown, where: string): string[] {
  const concrete = concreteRef(ref, value);
  const validate = validatorOf(concrete);
  return validate(value) ? [] : [`${where} does not fit ${refName(concrete)}: ${ajv.errorsText(validate.errors)}`];
}

/** A described operation: its path template and what it declares. */
export interface DescribedOperation {
  template: string;
  operation: Operation;
  parameters: Parameter[];
  /** The OAuth scopes Okta's description says it needs. */
  scopes: string[];
}

function resolveParameter(parameter: Parameter | { $ref: string }): Parameter {
  return '$ref' in parameter ? description.components.parameters[refName(parameter.$ref)]! : parameter;
}

/** The GET operation a path names, with its path parameters, or undefined when none is described. */
export function operationOf(path: string): { described: DescribedOperation; pathParameters: Record<string, string> } | undefined {
  for (const [template, item] of Object.entries(description.paths)) {
    const names: string[] = [];
    const pattern = new RegExp(`^${template.replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(path);
    if (!match || !item.get) continue;
    const parameters = [...(item.parameters ?? []), ...(item.get.parameters ?? [])].map(resolveParameter);
    const scopes = (item.get.security ?? []).flatMap((requirement) => requirement.oauth2 ?? []);
    return {
      described: { template, operation: item.get, parameters, scopes },
      pathParameters: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])),
    };
  }
  return undefined;
}

/** What is wrong with a request's query against the operation's declared query parameters. */
export function queryErrors(described: DescribedOperation, query: URLSearchParams): string[] {
  const declared = new Map(described.parameters.filter((parameter) => parameter.in === 'query').map((p) => [p.name, p]));
  const errors: string[] = [];
  for (const name of new Set(query.keys())) {
    const parameter = declared.get(name);
    if (!parameter) {
      errors.push(`query parameter "${name}" is not declared by GET ${described.template}`);
      continue;
    }
    const raw = query.get(name)!;
    const type = parameter.schema?.type;
    const value = type === 'integer' ? Number(raw) : type === 'boolean' ? raw === 'true' : raw;
    const validate = ajv.compile(parameter.schema ?? {});
    if ((type === 'integer' && !Number.isInteger(value)) || !validate(value))
      errors.push(`query parameter "${name}"=${raw} does not fit its schema`);
  }
  for (const parameter of declared.values()) {
    if (parameter.required && !query.has(parameter.name)) errors.push(`required query parameter "${parameter.name}" is missing`);
  }
  return errors;
}

/** What is wrong with a response body against the operation's schema for its status (errors: Okta's Error). */
export function responseErrors(described: DescribedOperation, status: number, body: unknown): string[] {
  if (status >= 400) return errorsOf('#/components/schemas/ModelError', body, `the ${status} body`);
  const schema = described.operation.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return [`GET ${described.template} describes no ${status} body`];
  if (schema.type === 'array' && schema.items?.$ref) {
    if (!Array.isArray(body)) return [`the ${status} body of GET ${described.template} is not an array`];
    return body.flatMap((item, index) => errorsOf(schema.items!.$ref!, item, `item ${index} of GET ${described.template}`));
  }
  return schema.$ref ? errorsOf(schema.$ref, body, `the ${status} body of GET ${described.template}`) : [];
}
