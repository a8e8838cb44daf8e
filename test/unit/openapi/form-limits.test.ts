/**
 * A form's `x-form-limits` reach its route table, and the build refuses limits that would turn
 * away a form the schema accepts (or a form that declares none).
 */
import { describe, expect, it } from 'vitest';
import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas31';
import { describeOperations } from '../../../scripts/lib/route-tables.ts';
import { specDocument } from '../../support/families.ts';
import { formLimits } from '@evident/contract/upload-limits';

/** A description with one form: up to 3 `tags` of at most 10 characters, a `note`, and up to 2 files. */
function formDocument(limits: unknown): OpenAPIObject {
  const schema: SchemaObject = {
    type: 'object',
    properties: {
      tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 10 } },
      note: { type: 'string' },
      files: { type: 'array', maxItems: 2, items: { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
  };
  const operation = {
    operationId: 'sendForm',
    requestBody: { content: { 'multipart/form-data': { schema } } },
    responses: {},
    ...(limits === undefined ? {} : { 'x-form-limits': limits }),
  };
  return { openapi: '3.1.0', info: { title: 'forms', version: '1.0.0' }, paths: { '/api/forms': { post: operation } } };
}

describe('x-form-limits', () => {
  it("gives the submission form's route table the limits upload-limits declares", () => {
    const create = describeOperations(specDocument()).find((operation) => operation.operationId === 'createSubmission');
    expect(create?.body?.formLimits).toEqual(formLimits);
  });

  it('takes limits that let through the largest valid form: 4 text fields, 2 files, 6 parts, 40 bytes a field', () => {
    const limits = { fields: 4, files: 2, parts: 6, fieldBytes: 40 };
    expect(describeOperations(formDocument(limits))[0]?.body).toMatchObject({
      files: ['files'],
      lists: ['tags'],
      formLimits: limits,
    });
  });

  it.each([
    [undefined, 'fields at least 4; files at least 2; parts at least 6; fieldBytes at least 40'],
    [{ fields: 3, files: 2, parts: 6, fieldBytes: 40 }, 'fields at least 4'],
    [{ fields: 4, files: 2, parts: 5, fieldBytes: 39 }, 'parts at least 6; fieldBytes at least 40'],
  ])('refuses a form with x-form-limits %j', (limits, short) => {
    expect(() => describeOperations(formDocument(limits))).toThrow(
      `sendForm: a form needs x-form-limits that let a valid form through (${short})`,
    );
  });
});
