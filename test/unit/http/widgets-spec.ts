/**
 * A small OpenAPI description that exercises what the real one does not yet: typed path,
 * query and header parameters, array parameters, query defaults, a size-limited JSON body and a
 * deprecated operation.
 */
import { OpenApiBuilder, type OpenAPIObject } from 'openapi3-ts/oas31';
import { access, responses, schemas } from '../../../openapi/components.ts';

const problem = { $ref: '#/components/responses/BadRequest' };
const failed = { $ref: '#/components/responses/InternalError' };
const unauthorized = { $ref: '#/components/responses/Unauthorized' };
const widget = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } }, description: 'A widget.' };

export function widgetsDocument(): OpenAPIObject {
  const builder = OpenApiBuilder.create().addOpenApiVersion('3.1.0').addTitle('widgets').addVersion('1.0.0');
  for (const [name, schema] of Object.entries(schemas)) builder.addSchema(name, schema);
  for (const [name, response] of Object.entries(responses)) builder.addResponse(name, response);
  builder.addSchema('Widget', {
    type: 'object',
    required: ['name', 'size'],
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer', minimum: 1 } },
  });
  builder.addPath('/api/widgets', {
    post: {
      operationId: 'createWidget',
      summary: 'Create a widget',
      tags: ['widgets'],
      security: access.protected,
      'x-body-limit': 64,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } },
      responses: { '201': widget, '400': problem, '401': unauthorized, '500': failed },
    },
  });
  builder.addPath('/api/widgets/{id}', {
    get: {
      operationId: 'getWidget',
      summary: 'Read a widget',
      tags: ['widgets'],
      security: access.public,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
        { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } } },
        { name: 'X-Trace', in: 'header', schema: { type: 'string', maxLength: 5 } },
      ],
      responses: { '200': widget, '400': problem, '500': failed },
    },
  });
  builder.addPath('/api/widgets/{id}/parts', {
    get: {
      operationId: 'listWidgetParts',
      summary: 'List the parts of a widget',
      tags: ['widgets'],
      security: access.public,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        { name: 'order', in: 'query', schema: { type: 'string', enum: ['oldest', 'newest'], default: 'newest' } },
      ],
      responses: { '200': widget, '400': problem, '500': failed },
    },
  });
  builder.addPath('/api/widgets/{id}/secret', {
    get: {
      operationId: 'getSecret',
      summary: 'Read part of a widget that only protected mode hides',
      tags: ['widgets'],
      deprecated: true,
      'x-deprecation': { date: '2026-11-01', sunset: '2027-06-01' },
      security: access.optional,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { '200': widget, '400': problem, '401': unauthorized, '500': failed },
    },
  });
  return builder.getSpec();
}
