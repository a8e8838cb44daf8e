/**
 * The route table of one family, as the build generates it from the OpenAPI description
 * (`lib/generated/routes/<family>.js`): each operation's method, path template, access and
 * parameters, with its request validators precompiled by Ajv so a cold start compiles nothing.
 */

export type Access = 'public' | 'protected' | 'optional';

/** A JSON Schema primitive type, for turning a parameter's text into the value it describes. */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** The schema's type, or the item type when `array` is true. */
  type: ScalarType;
  array: boolean;
  /** The schema's `default`: what a query parameter is when the request leaves it out. */
  default?: unknown;
}

export interface ValidationError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface Validator {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}

export interface BodySpec {
  required: boolean;
  mediaTypes: string[];
  /** Largest accepted body, in bytes (`x-body-limit`, else the build's default). */
  limit: number;
  /**
   * JSON bodies are parsed and validated whole; forms have their text fields validated and files
   * passed on; raw bodies (`x-raw-body`, a file such as a scanner's output) reach the handler as
   * bytes, for it to read piece by piece.
   */
  format: 'json' | 'multipart' | 'raw';
  /** For forms: the fields that carry files. */
  files: string[];
  /** For forms: the text fields that may repeat (arrays in the schema). */
  lists: string[];
  /** For forms: how much of one is read at all (`x-form-limits`); the build gives every form its limits. */
  formLimits?: FormLimits;
}

/** The most a form parser reads of one form: past a count the form is refused (413), past `fieldBytes` the field (400). */
export interface FormLimits {
  /** Text fields. */
  fields: number;
  /** Parts that carry a file. */
  files: number;
  /** Parts of any kind, those that name no field included. */
  parts: number;
  /** Bytes of one text field. */
  fieldBytes: number;
}

export interface RouteOperation {
  operationId: string;
  method: string;
  path: string;
  access: Access;
  parameters: ParameterSpec[];
  body?: BodySpec;
  /** For a deprecated operation: `Deprecation` (and `Sunset`) for every answer, as name, value, name, value…. */
  deprecationHeaders?: string[];
  validate: { path: Validator; query: Validator; header: Validator; body?: Validator };
}

export interface RouteTable {
  operations: RouteOperation[];
}

export async function loadRouteTable(family: string): Promise<RouteTable> {
  return (await import(`../generated/routes/${family}.js`)) as RouteTable;
}

export interface CompiledPath {
  template: string;
  pattern: RegExp;
  names: string[];
  operations: Map<string, RouteOperation>;
  /** The `Allow` header's methods: the operations', HEAD wherever GET is, and OPTIONS. */
  allow: string[];
}

/** A family's paths, ready to match: literal ones by their text, templated ones in order. */
export interface CompiledPaths {
  literal: Map<string, CompiledPath>;
  templated: CompiledPath[];
}

/** Groups operations by path template and turns each template into a matcher. */
export function compilePaths(operations: RouteOperation[]): CompiledPaths {
  const byTemplate = new Map<string, CompiledPath>();
  for (const operation of operations) {
    let compiled = byTemplate.get(operation.path);
    if (!compiled) {
      const names: string[] = [];
      const source = operation.path
        .split(/(\{[^{}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(name);
          return '([^/]+)';
        })
        .join('');
      compiled = { template: operation.path, pattern: new RegExp(`^${source}$`), names, operations: new Map(), allow: [] };
      byTemplate.set(operation.path, compiled);
    }
    compiled.operations.set(operation.method, operation);
  }
  for (const compiled of byTemplate.values()) compiled.allow = allowedMethods(compiled.operations.keys());
  const all = [...byTemplate.values()];
  return {
    literal: new Map(all.filter((path) => path.names.length === 0).map((path) => [path.template, path])),
    // Fewer parameters first, so `/a/{id}/index` is tried before `/a/{id}/{part}`.
    templated: all.filter((path) => path.names.length > 0).sort((a, b) => a.names.length - b.names.length),
  };
}

export interface PathMatch {
  path: CompiledPath;
  /** Raw (still percent-encoded) parameter values, by name. */
  rawParams: Record<string, string>;
}

const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The path `pathname` names, with its raw parameters. A literal path (the cached reads: today's
 * report, the auth config) is one map lookup, and wins over a template it also matches
 * (`/a/index` before `/a/{slug}`); only the rest run a pattern.
 */
export function matchPath(paths: CompiledPaths, pathname: string): PathMatch | undefined {
  const literal = paths.literal.get(pathname);
  if (literal) return { path: literal, rawParams: noParams };
  for (const path of paths.templated) {
    const match = path.pattern.exec(pathname);
    if (!match) continue;
    const rawParams: Record<string, string> = {};
    path.names.forEach((name, index) => (rawParams[name] = match[index + 1] ?? ''));
    return { path, rawParams };
  }
  return undefined;
}

function allowedMethods(operationMethods: Iterable<string>): string[] {
  const methods = new Set(operationMethods);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods];
}
