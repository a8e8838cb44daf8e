/**
 * The operations a site's own OpenAPI description declares, with who may call each, so the smoke
 * test checks every operation of the deployed version, including ones added after it was written.
 */
import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject } from 'openapi3-ts/oas31';

/** `public`: never needs a token; `optional`: answers anyone, more with a token; `protected`: needs one in protected mode. */
export type Access = 'public' | 'optional' | 'protected';

export interface Operation {
  method: string;
  /** The templated path, e.g. `/api/report/{date}`. */
  path: string;
  operationId: string;
  access: Access;
  /** The first media type its body takes, when it takes one. */
  bodyType: string | undefined;
  parameters: ParameterObject[];
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

function accessOf(operation: OperationObject): Access {
  if (operation.security?.length === 0) return 'public';
  return operation.security?.some((requirement) => Object.keys(requirement).length === 0) ? 'optional' : 'protected';
}

export function operationsOf(description: OpenAPIObject): Operation[] {
  return Object.entries(description.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = (item as PathItemObject)[method];
      if (!operation?.operationId) return [];
      const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
      return [
        {
          method: method.toUpperCase(),
          path,
          operationId: operation.operationId,
          access: accessOf(operation),
          bodyType: content ? Object.keys(content)[0] : undefined,
          parameters: (operation.parameters ?? []) as ParameterObject[],
        },
      ];
    }),
  );
}

/** A concrete path: each path parameter's example when the description gives one, else a placeholder. */
export function samplePath(operation: Operation): string {
  return operation.path.replace(/\{([^{}]{1,100})\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    const example = parameter?.example ?? (parameter?.schema as { example?: unknown } | undefined)?.example;
    return encodeURIComponent(typeof example === 'string' ? example : 'smoke-test');
  });
}
