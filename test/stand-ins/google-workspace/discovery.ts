/**
 * Google's discovery format, held to as a description: its schemas turned into JSON Schema for
 * ajv, and a request checked against a method's declared HTTP method, path and query parameters.
 *
 * The conversion keeps what a schema says about shape (`type`, `properties`, `items`,
 * `additionalProperties`, `enum`, `$ref`, the `date-time` and `int32` formats); `any` admits any
 * value. Discovery leaves unknown properties unstated; Google's resources carry no others, so an
 * object with declared `properties` admits no other key here, which catches a fixture's typo.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export interface DiscoverySchema {
  type?: string;
  $ref?: string;
  properties?: Record<string, DiscoverySchema>;
  items?: DiscoverySchema;
  additionalProperties?: DiscoverySchema;
  enum?: string[];
  format?: string;
}

export interface DiscoveryParameter {
  type: string;
  location: string;
  enum?: string[];
  minimum?: string;
  maximum?: string;
  required?: boolean;
  repeated?: boolean;
}

export interface DiscoveryMethod {
  httpMethod: string;
  path: string;
  parameters: Record<string, DiscoveryParameter>;
  response?: { $ref: string };
  /** The OAuth scopes any one of which lets a token call the method. */
  scopes?: string[];
}

export interface DiscoveryDocument {
  servicePath: string;
  parameters: Record<string, DiscoveryParameter>;
  resources: Record<string, { methods: Record<string, DiscoveryMethod> }>;
  schemas: Record<string, DiscoverySchema>;
}

const int32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

export function jsonSchemaOf(schema: DiscoverySchema): Record<string, unknown> {
  if (schema.$ref) return { $ref: `#/definitions/${schema.$ref}` };
  if (!schema.type || schema.type === 'any') return {};
  const converted: Record<string, unknown> = { type: schema.type };
  if (schema.enum) converted.enum = schema.enum;
  if (schema.format === 'date-time') converted.format = 'date-time';
  if (schema.format === 'int32') Object.assign(converted, int32);
  if (schema.items) converted.items = jsonSchemaOf(schema.items);
  if (schema.properties) {
    converted.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, jsonSchemaOf(property)]),
    );
  }
  if (schema.additionalProperties) converted.additionalProperties = jsonSchemaOf(schema.additionalProperties);
  else if (schema.properties) converted.additionalProperties = false;
  return converted;
}

/** A validator of the document's schema `name`, its references resolved among the document's schemas. */
export function schemaValidator(document: DiscoveryDocument, name: string): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const definitions = Object.fromEntries(Object.entries(document.schemas).map(([id, schema]) => [id, jsonSchemaOf(schema)]));
  return ajv.compile({ definitions, $ref: `#/definitions/${name}` });
}

function parameterProblem(name: string, values: string[], parameter: DiscoveryParameter): string | undefined {
  if (values.length > 1 && !parameter.repeated) return `${name} given ${values.length} times`;
  for (const value of values) {
    if (parameter.enum && !parameter.enum.includes(value)) return `${name}=${value} is not one of ${parameter.enum.join(', ')}`;
    if (parameter.type === 'boolean' && value !== 'true' && value !== 'false') return `${name}=${value} is not a boolean`;
    if (parameter.type === 'integer') {
      if (!/^-?\d+$/.test(value)) return `${name}=${value} is not an integer`;
      if (parameter.minimum !== undefined && Number(value) < Number(parameter.minimum))
        return `${name}=${value} is below ${parameter.minimum}`;
      if (parameter.maximum !== undefined && Number(value) > Number(parameter.maximum))
        return `${name}=${value} is above ${parameter.maximum}`;
    }
  }
  return undefined;
}

/** What is wrong with a request for `method` (without path parameters): empty when it is as described. */
export function requestProblems(document: DiscoveryDocument, method: DiscoveryMethod, httpMethod: string, url: URL): string[] {
  const problems: string[] = [];
  if (httpMethod !== method.httpMethod) problems.push(`${httpMethod} instead of ${method.httpMethod}`);
  const expectedPath = `/${document.servicePath}${method.path}`;
  if (url.pathname !== expectedPath) problems.push(`path ${url.pathname} instead of ${expectedPath}`);
  const declared = { ...document.parameters, ...method.parameters };
  for (const name of new Set(url.searchParams.keys())) {
    const parameter = declared[name];
    const problem =
      parameter?.location === 'query'
        ? parameterProblem(name, url.searchParams.getAll(name), parameter)
        : `undeclared query parameter ${name}`;
    if (problem) problems.push(problem);
  }
  for (const [name, parameter] of Object.entries(method.parameters)) {
    if (parameter.required && parameter.location === 'query' && !url.searchParams.has(name)) problems.push(`missing ${name}`);
  }
  return problems;
}
