/**
 * The Vertex AI `generateContent` method as Google describes it (aiplatform-v1.subset.json, see
 * extract-description.ts), turned into JSON Schema for ajv under protobuf's JSON mapping: fields
 * by their lowerCamelCase JSON names, enums by value name, 64-bit integers as a number or a decimal
 * string, bytes as base64, `Struct` an object, `Value` anything, `Timestamp` an RFC 3339 string,
 * maps as objects, at most one member of a oneof. The API rejects a field it does not know, so a
 * message admits no other key. A request must carry the fields Google marks REQUIRED, except
 * `model`, which the HTTP rule binds from the path; an answer is checked for shape only (its
 * fields are all output).
 *
 * What the descriptor leaves to prose comments is checked by hand, quoting them: a function's name
 * ("must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots
 * and dashes, with a maximum length of 64"), its `parametersJsonSchema` ("must describe an object
 * where the properties are the parameters", "mutually exclusive with `parameters`"), and a
 * content's role ("Must be either 'user' or 'model'").
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Field {
  type: string;
  rule?: string;
  keyType?: string;
  options?: Record<string, unknown>;
}

interface TypeNode {
  fields?: Record<string, Field>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
}

interface HttpRule {
  post?: string;
  additional_bindings?: HttpRule[];
}

interface Description {
  methods: Record<string, { parsedOptions: { '(google.api.http)'?: HttpRule }[] }>;
  types: Record<string, TypeNode>;
}

export const description = JSON.parse(
  readFileSync(new URL('./aiplatform-v1.subset.json', import.meta.url), 'utf8'),
) as Description;

const v1 = 'google.cloud.aiplatform.v1';

/**
 * The path of generateContent on a publisher's model, from the method's HTTP rule
 * (`/v1/{model=projects/*\/locations/*\/publishers/*\/models/*}:generateContent`), as a pattern
 * that captures project, location, publisher and model.
 */
export const generateContentPath = (() => {
  const rule = description.methods[`${v1}.PredictionService.GenerateContent`]!.parsedOptions.find(
    (option) => option['(google.api.http)'],
  )!['(google.api.http)']!;
  const template = [rule, ...(rule.additional_bindings ?? [])]
    .map((binding) => binding.post)
    .find((post) => post?.includes('{model=projects/*/locations/*/publishers/*/models/*}'));
  if (!template) throw new Error('the description has no generateContent binding for a publisher model');
  const pattern = template
    .replace('{model=', '')
    .replace('}', '')
    .replace(/[.:]/g, (character) => `\\${character}`)
    .replaceAll('*', '([^/]+)');
  return { template, pattern: new RegExp(`^${pattern}$`) };
})();
const int32 = { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
const uint32 = { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 };
const int64 = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }] };

const scalarSchemas: Record<string, Record<string, unknown>> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  double: { type: 'number' },
  float: { type: 'number' },
  int32,
  sint32: int32,
  sfixed32: int32,
  uint32,
  fixed32: uint32,
  int64,
  sint64: int64,
  sfixed64: int64,
  uint64: int64,
  fixed64: int64,
  bytes: { type: 'string', pattern: '^[A-Za-z0-9+/_-]*={0,2}$' },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
};

function valueSchema(type: string): Record<string, unknown> {
  return scalarSchemas[type] ?? { $ref: `#/definitions/${type}` };
}

function fieldSchema(field: Field): Record<string, unknown> {
  const value = valueSchema(field.type);
  if (field.keyType) return { type: 'object', additionalProperties: value };
  return field.rule === 'repeated' ? { type: 'array', items: value } : value;
}

/** "At most one of": no two members of a oneof present together. */
function oneofSchemas(node: TypeNode): Record<string, unknown>[] {
  return Object.values(node.oneofs ?? {})
    .filter(({ oneof }) => oneof.length > 1)
    .map(({ oneof }) => ({
      not: { anyOf: oneof.flatMap((a, i) => oneof.slice(i + 1).map((b) => ({ required: [a, b] }))) },
    }));
}

type Direction = 'request' | 'response';

function messageSchema(name: string, node: TypeNode, direction: Direction): Record<string, unknown> {
  const fields = Object.entries(node.fields ?? {});
  const required = fields
    .filter(([, field]) => field.options?.['(google.api.field_behavior)'] === 'REQUIRED')
    .map(([fieldName]) => fieldName)
    .filter((fieldName) => !(name === `${v1}.GenerateContentRequest` && fieldName === 'model'));
  const schema: Record<string, unknown> = {
    type: 'object',
    properties: Object.fromEntries(fields.map(([fieldName, field]) => [fieldName, fieldSchema(field)])),
    additionalProperties: false,
  };
  if (direction === 'request' && required.length > 0) schema.required = required;
  const oneofs = oneofSchemas(node);
  if (oneofs.length > 0) schema.allOf = oneofs;
  return schema;
}

function typeSchema(name: string, node: TypeNode, direction: Direction): Record<string, unknown> {
  return node.values ? { enum: Object.keys(node.values) } : messageSchema(name, node, direction);
}

function validatorOf(root: string, direction: Direction): ValidateFunction {
  // The oneof rule names members inside `not`, where ajv's strict mode would want them declared again.
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  addFormats.default(ajv);
  const definitions = Object.fromEntries(
    Object.entries(description.types).map(([name, node]) => [name, typeSchema(name, node, direction)]),
  );
  return ajv.compile({ definitions, $ref: `#/definitions/${root}` });
}

const validRequest = validatorOf(`${v1}.GenerateContentRequest`, 'request');
const validResponse = validatorOf(`${v1}.GenerateContentResponse`, 'response');

/**
 * A JSON Schema checker for the declarations' parameters, against the 2020-12 meta-schema (the
 * draft zod's `toJSONSchema` writes and names in `$schema`); keywords it does not know, such as
 * Google's `propertyOrdering`, are let through.
 */
const jsonSchemas = new Ajv2020({ strict: false });

function metaSchemaProblems(parameters: object): string[] {
  try {
    return jsonSchemas.validateSchema(parameters) ? [] : errorsOf(jsonSchemas.errors);
  } catch (error) {
    return [` names a meta-schema the checker does not know (${(error as Error).message})`];
  }
}

/** Ajv's errors in the words Google's JSON parser uses where it has some. */
function errorsOf(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const at = error.instancePath || '/';
    if (error.keyword === 'additionalProperties')
      return `Unknown name "${String(error.params.additionalProperty)}" at '${at}': Cannot find field.`;
    if (error.keyword === 'not') return `${at} sets more than one field of a oneof`;
    return `${at} ${error.message ?? 'is invalid'}`;
  });
}

const functionName = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

function declarationProblems(declaration: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  const name = declaration.name;
  if (typeof name === 'string' && !functionName.test(name))
    problems.push(`${at}/name ${JSON.stringify(name)} is not a valid name`);
  if ('parameters' in declaration && 'parametersJsonSchema' in declaration)
    problems.push(`${at} has both parameters and parametersJsonSchema`);
  const parameters = declaration.parametersJsonSchema;
  if (parameters === undefined) return problems;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    return [...problems, `${at}/parametersJsonSchema is not a JSON Schema object`];
  if ((parameters as { type?: unknown }).type !== 'object')
    problems.push(`${at}/parametersJsonSchema does not describe an object`);
  problems.push(...metaSchemaProblems(parameters).map((problem) => `${at}/parametersJsonSchema${problem}`));
  return problems;
}

interface RequestShape {
  contents?: { role?: string }[];
  tools?: { functionDeclarations?: Record<string, unknown>[] }[];
}

/** What is wrong with a generateContent request body: empty when it is as Google describes it. */
export function requestProblems(body: unknown): string[] {
  if (!validRequest(body)) return errorsOf(validRequest.errors);
  const request = body as RequestShape;
  const problems = (request.contents ?? []).flatMap((content, i) =>
    content.role === undefined || content.role === 'user' || content.role === 'model'
      ? []
      : [`/contents/${i}/role is ${content.role}`],
  );
  (request.tools ?? []).forEach((tool, i) =>
    (tool.functionDeclarations ?? []).forEach((declaration, j) =>
      problems.push(...declarationProblems(declaration, `/tools/${i}/functionDeclarations/${j}`)),
    ),
  );
  return problems;
}

/** What is wrong with a generateContent answer: empty when it is as Google describes it. */
export function responseProblems(body: unknown): string[] {
  return validResponse(body) ? [] : errorsOf(validResponse.errors);
}
