/**
 * Reads an operation's input from a request — path, query and header parameters, and the body —
 * and checks it against the operation's precompiled validators. Any mismatch becomes one
 * `invalid_request` problem that lists every error with where it was found.
 */
import type { IncomingMessage } from 'node:http';
import { ApiProblem, invalidRequest, type RequestError } from './problem.js';
import { maxJsonDepth } from '@evident/contract/request-limits';
import { depthOf } from '../common/json-depth.js';
import { andThen, type MaybePromise } from '../common/maybe-async.js';
import type { BodySpec, ParameterSpec, RouteOperation, ScalarType, ValidationError, Validator } from './route-table.js';

export interface RawInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

export interface RequestWithBody extends IncomingMessage {
  /** The body as the functions runtime buffered it. */
  rawBody?: Buffer;
}

const numberLiteral = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A null-prototype record, so a parameter named `__proto__` is a parameter like any other. */
const record = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/** Turns a parameter's text into the value its schema describes; leaves it as text when it is not one. */
function coerce(text: string, type: ScalarType): unknown {
  if ((type === 'integer' || type === 'number') && numberLiteral.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export function readInput(
  operation: RouteOperation,
  rawPathParams: Record<string, string>,
  search: string,
  req: RequestWithBody,
): MaybePromise<RawInput> {
  const byLocation = parametersOf(operation);
  // The cached reads (today's report, the auth config) take at most headers and are sent
  // nothing else: only those are read and checked.
  if (byLocation.onlyHeaders && search === '' && !req.rawBody?.length) return headersOnly(operation, byLocation.header, req);
  const errors: RequestError[] = [];

  const path = record();
  for (const parameter of byLocation.path) {
    const raw = rawPathParams[parameter.name] ?? '';
    try {
      path[parameter.name] = coerce(decodeURIComponent(raw), parameter.type);
    } catch {
      errors.push({ in: 'path', name: parameter.name, message: 'is not valid percent-encoding' });
    }
  }

  const query = record();
  if (search !== '') readQuery(new URLSearchParams(search), byLocation.query, query, errors);
  addDefaults(query, byLocation.queryDefaults);

  const headers = readHeaders(byLocation.header, req);

  const schemaErrors: RequestError[] = [];
  collect(schemaErrors, 'path', operation.validate.path, path);
  collect(schemaErrors, 'query', operation.validate.query, query);
  collect(schemaErrors, 'header', operation.validate.header, headers);
  if (schemaErrors.length > 0) {
    // A parameter already reported as unreadable is not reported again by its schema.
    const reported = new Set(errors.map((error) => `${error.in}:${error.name}`));
    errors.push(...schemaErrors.filter((error) => !reported.has(`${error.in}:${error.name}`)));
  }

  const finish = (body: unknown): RawInput => {
    throwIfInvalid(errors);
    return { path, query, headers, body };
  };
  return andThen(readBody(operation, req, errors), finish);
}

/** A header parameter, with the lower-case name Node keys it by. */
interface HeaderParameter extends ParameterSpec {
  key: string;
}

/** The declared header parameters a request carries, as their schemas' types. */
function readHeaders(declared: readonly HeaderParameter[], req: IncomingMessage): Record<string, unknown> {
  const headers = record();
  for (const parameter of declared) {
    const value = req.headers[parameter.key];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    headers[parameter.name] = coerce(text, parameter.type);
  }
  return headers;
}

/** The input of an operation that takes nothing but (optional) headers, sent nothing else. */
function headersOnly(operation: RouteOperation, declared: readonly HeaderParameter[], req: IncomingMessage): RawInput {
  const headers = readHeaders(declared, req);
  if (declared.length > 0) {
    const errors: RequestError[] = [];
    collect(errors, 'header', operation.validate.header, headers);
    throwIfInvalid(errors);
  }
  return { path: record(), query: addDefaults(record(), parametersOf(operation).queryDefaults), headers, body: undefined };
}

/**
 * Gives each query parameter the request left out its schema's `default`, before validation: a
 * handler reads the value the description promises (`limit` 50) without restating it.
 */
function addDefaults(query: Record<string, unknown>, defaults: readonly ParameterSpec[]): Record<string, unknown> {
  for (const parameter of defaults) if (!(parameter.name in query)) query[parameter.name] = structuredClone(parameter.default);
  return query;
}

function readQuery(
  searchParams: URLSearchParams,
  declared: Map<string, ParameterSpec>,
  query: Record<string, unknown>,
  errors: RequestError[],
): void {
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    const parameter = declared.get(name);
    if (!parameter) {
      query[name] = values[0]; // validated as unknown below
    } else if (parameter.array) {
      query[name] = values.flatMap((value) => value.split(',')).map((value) => coerce(value, parameter.type));
    } else if (values.length > 1) {
      errors.push({ in: 'query', name, message: 'must be given once' });
    } else {
      query[name] = coerce(values[0] ?? '', parameter.type);
    }
  }
}

interface ParametersByLocation {
  path: ParameterSpec[];
  query: Map<string, ParameterSpec>;
  header: HeaderParameter[];
  /** The query parameters with a default. */
  queryDefaults: ParameterSpec[];
  /** No path parameter, no required query parameter and no body: a request may carry only headers. */
  onlyHeaders: boolean;
}

/** Each operation's parameters by where they are sent, sorted once rather than on every request. */
const parametersByOperation = new WeakMap<RouteOperation, ParametersByLocation>();

function parametersOf(operation: RouteOperation): ParametersByLocation {
  let found = parametersByOperation.get(operation);
  if (!found) {
    const at = (location: ParameterSpec['in']) => operation.parameters.filter((parameter) => parameter.in === location);
    const [path, query, header] = [at('path'), at('query'), at('header')];
    const onlyHeaders = path.length === 0 && !query.some((parameter) => parameter.required) && !operation.body;
    found = {
      path,
      query: new Map(query.map((parameter) => [parameter.name, parameter])),
      header: header.map((parameter) => ({ ...parameter, key: parameter.name.toLowerCase() })),
      queryDefaults: query.filter((parameter) => parameter.default !== undefined),
      onlyHeaders,
    };
    parametersByOperation.set(operation, found);
  }
  return found;
}

function throwIfInvalid(errors: RequestError[]): void {
  if (errors.length > 0) throw invalidRequest(errors);
}

/** The size and media-type checks every body gets before it is parsed. */
function checkRawBody(spec: BodySpec, raw: Buffer, contentType: string | undefined): void {
  if (raw.length > spec.limit) {
    throw new ApiProblem('payload_too_large', `The body is ${raw.length} bytes; this operation accepts at most ${spec.limit}.`);
  }
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!spec.mediaTypes.includes(mediaType)) {
    throw new ApiProblem(
      'unsupported_media_type',
      `The body is ${mediaType ? `"${mediaType}"` : 'untyped'}; send ${spec.mediaTypes.join(' or ')}.`,
    );
  }
}

/** The body as its operation declares it: JSON parsed and validated, or a form read (asynchronously) and its text fields validated. */
function readBody(operation: RouteOperation, req: RequestWithBody, errors: RequestError[]): MaybePromise<unknown> {
  const raw = req.rawBody;
  const size = raw?.length ?? 0;
  const spec = operation.body;
  if (!spec) {
    // A body on GET or HEAD has no meaning and is ignored; anywhere else it is a client mistake.
    if (size > 0 && operation.method !== 'GET')
      errors.push({ in: 'body', pointer: '', message: 'is not accepted by this operation' });
    return undefined;
  }
  if (size === 0 || !raw) {
    if (spec.required) errors.push({ in: 'body', pointer: '', message: 'is required' });
    return undefined;
  }
  checkRawBody(spec, raw, req.headers['content-type']);
  if (spec.format === 'raw') return raw;
  if (spec.format === 'multipart') {
    const { formLimits } = spec;
    if (!formLimits) throw new Error(`${operation.operationId}: a form without x-form-limits`); // the build refuses one
    // The form parser (busboy) loads with the first form, not with every family's first request.
    const contentType = req.headers['content-type']!;
    return import('./multipart.js')
      .then(({ readForm }) => readForm(raw, contentType, { ...spec, formLimits }))
      .then((form) => {
        if (form.refusal) throw form.refusal;
        if (form.problems.length > 0) errors.push(...form.problems);
        else if (operation.validate.body) collect(errors, 'body', operation.validate.body, form.fields);
        return { ...form.fields, ...form.files };
      });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new ApiProblem('malformed_json', `The body is not valid JSON: ${(error as Error).message}.`);
  }
  // Measured without recursion, before validation, hashing or serialising recurse over it.
  if (depthOf(body, maxJsonDepth) > maxJsonDepth) {
    throw invalidRequest([{ in: 'body', pointer: '', message: `nests objects and arrays deeper than ${maxJsonDepth} levels` }]);
  }
  if (operation.validate.body) collect(errors, 'body', operation.validate.body, body);
  return body;
}

function collect(errors: RequestError[], location: RequestError['in'], validate: Validator, data: unknown): void {
  if (validate(data)) return;
  // `if`/`then` errors only repeat the nested error that caused them.
  for (const error of validate.errors ?? []) if (error.keyword !== 'if') errors.push(describe(location, error));
}

/** Turns an Ajv error into a `RequestError` that names the parameter or body location. */
function describe(location: RequestError['in'], error: ValidationError): RequestError {
  const missing = error.keyword === 'required' ? String(error.params['missingProperty']) : undefined;
  const unknown = error.keyword === 'additionalProperties' ? String(error.params['additionalProperty']) : undefined;
  if (location === 'body') {
    const pointer = error.instancePath + ((missing ?? unknown) ? `/${escapePointer((missing ?? unknown)!)}` : '');
    const message = missing ? 'is required' : unknown ? 'is not a known property' : (error.message ?? 'is invalid');
    return { in: 'body', pointer, message };
  }
  const name = missing ?? unknown ?? unescapePointer(error.instancePath.split('/')[1] ?? '');
  const message = missing
    ? 'is required'
    : unknown
      ? `is not a ${location} parameter of this operation`
      : (error.message ?? 'is invalid');
  return { in: location, name, message };
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
