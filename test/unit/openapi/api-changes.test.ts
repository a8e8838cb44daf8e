/**
 * The versioning rule on crafted changes to a small description: what each change requires, the
 * check that the version was raised far enough, and that nothing stable is removed undeprecated.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the crafted changes edit a description as free JSON */
import { describe, expect, it } from 'vitest';
import {
  apiChanges,
  bumpBetween,
  bumped,
  checkVersion,
  removalsWithoutDeprecation,
  requiredBump,
} from '../../../scripts/lib/api-changes.ts';

type Document = Parameters<typeof apiChanges>[0];

function baseline(): Document {
  return {
    openapi: '3.1.0',
    info: { title: 'Crafted', version: '1.2.3' },
    paths: {
      '/api/widgets/{id}': {
        get: {
          operationId: 'getWidget',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'The widget.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
            },
          },
        },
      },
      '/api/gadgets': {
        get: {
          operationId: 'listGadgets',
          'x-beta': true,
          responses: {
            '200': {
              description: 'The gadgets.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['gadgets'],
                    properties: { gadgets: { type: 'array', items: { type: 'string' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Widget: {
          type: 'object',
          required: ['name', 'size'],
          properties: {
            name: { type: 'string' },
            size: { type: 'integer' },
            colour: { type: 'string', deprecated: true },
            shape: { type: 'string', enum: ['round', 'square'] },
          },
        },
      },
    },
  };
}

/** The baseline changed by `edit`, at `version`. */
function changed(edit: (document: Record<string, any>) => void, version = '1.2.3'): Document {
  const document = structuredClone(baseline()) as Record<string, any>;
  edit(document);
  document.info.version = version;
  return document as Document;
}

const widget = (document: Record<string, any>) => document.components.schemas.Widget;
const gadgetsResponse = (document: Record<string, any>) =>
  document.paths['/api/gadgets'].get.responses['200'].content['application/json'].schema;

describe('the bump a change requires', () => {
  it('is none when nothing but the version changed', () => {
    expect(
      apiChanges(
        baseline(),
        changed(() => undefined, '9.9.9'),
      ),
    ).toEqual([]);
  });

  it('is major for a field removed from a stable response, reported at the operation that returns it', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        delete widget(d).properties.size;
        widget(d).required = ['name'];
      }),
    );
    expect(requiredBump(changes)).toBe('major');
    expect(changes.filter((change) => change.requires === 'major').map((change) => change.operation)).toContain(
      'GET /api/widgets/{id}',
    );
  });

  it('is minor for an optional field added to a stable response', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        widget(d).properties.weight = { type: 'number' };
      }),
    );
    expect(requiredBump(changes)).toBe('minor');
    expect(changes.find((change) => change.operation === 'GET /api/widgets/{id}')).toMatchObject({
      kind: 'added',
      breaking: false,
      beta: false,
    });
  });

  it('is minor for a value added to an enumeration in a stable answer, which clients are told to expect', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        widget(d).properties.shape.enum.push('oval');
      }),
    );
    expect(requiredBump(changes)).toBe('minor');
    expect(changes.find((change) => change.operation === 'GET /api/widgets/{id}')).toMatchObject({
      kind: 'added',
      breaking: false,
    });
  });

  it('is minor for a map keyed by an enumeration whose bound rises with a new name, and major for the bound alone', () => {
    const keyed = (d: Record<string, any>) =>
      (widget(d).properties.limits = {
        type: 'object',
        maxProperties: 2,
        propertyNames: { enum: ['round', 'square'] },
        additionalProperties: { type: 'integer' },
      });
    const grown = apiChanges(
      changed(keyed),
      changed((d) => {
        keyed(d);
        widget(d).properties.limits.maxProperties = 3;
        widget(d).properties.limits.propertyNames.enum.push('oval');
      }),
    );
    expect(requiredBump(grown)).toBe('minor');
    const raisedAlone = apiChanges(
      changed(keyed),
      changed((d) => {
        keyed(d);
        widget(d).properties.limits.maxProperties = 3;
      }),
    );
    expect(requiredBump(raisedAlone)).toBe('major');
  });

  it('is minor, never major, for a breaking change to a beta operation', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        gadgetsResponse(d).properties = {};
        gadgetsResponse(d).required = [];
      }),
    );
    expect(changes.some((change) => change.breaking && change.beta)).toBe(true);
    expect(requiredBump(changes)).toBe('minor');
  });

  it('is major for a required query parameter added to a stable operation', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        d.paths['/api/widgets/{id}'].get.parameters.push({
          name: 'view',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        });
      }),
    );
    expect(requiredBump(changes)).toBe('major');
  });

  it('is minor for a new operation and for a deprecation', () => {
    const added = changed((d) => {
      d.paths['/api/widgets'] = { post: { operationId: 'createWidget', responses: { '201': { description: 'Created.' } } } };
    });
    expect(requiredBump(apiChanges(baseline(), added))).toBe('minor');
    const deprecated = changed((d) => {
      d.paths['/api/widgets/{id}'].get.deprecated = true;
    });
    expect(apiChanges(baseline(), deprecated).map((change) => [change.kind, change.requires])).toEqual([['deprecated', 'minor']]);
  });

  it('is patch for a changed description', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        d.paths['/api/widgets/{id}'].get.responses['200'].description = 'The widget, as stored.';
      }),
    );
    expect(requiredBump(changes)).toBe('patch');
  });

  it('is patch for a shared definition no operation uses, whatever the diff calls it', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        d.components.schemas.Unused = { type: 'object', properties: { a: { type: 'string' } } };
      }),
    );
    const again = apiChanges(
      changed((d) => {
        d.components.schemas.Unused = { type: 'object', properties: { a: { type: 'string' } } };
      }),
      changed((d) => {
        d.components.schemas.Unused = { type: 'object', properties: { a: { type: 'integer' } } };
      }),
    );
    expect([requiredBump(changes), requiredBump(again)]).toEqual(['patch', 'patch']);
    expect(again.every((change) => change.operation === undefined && !change.breaking)).toBe(true);
  });

  it('is major for making a stable operation beta: its clients lose the promise', () => {
    const changes = apiChanges(
      baseline(),
      changed((d) => {
        d.paths['/api/widgets/{id}'].get['x-beta'] = true;
      }),
    );
    expect(changes.map((change) => [change.operation, change.requires])).toEqual([['GET /api/widgets/{id}', 'major']]);
  });
});

describe('the version check', () => {
  const removeSize = (d: Record<string, any>) => {
    delete widget(d).properties.size;
    widget(d).required = ['name'];
  };

  it('passes when the version is raised as far as the changes require, or further', () => {
    const addWeight = (d: Record<string, any>) => {
      widget(d).properties.weight = { type: 'number' };
    };
    expect(checkVersion(baseline(), changed(addWeight, '1.3.0')).problems).toEqual([]);
    expect(checkVersion(baseline(), changed(addWeight, '2.0.0')).problems).toEqual([]);
    expect(
      checkVersion(
        baseline(),
        changed(() => undefined),
      ).problems,
    ).toEqual([]);
  });

  it('fails, naming the release to make, when the version is not raised far enough', () => {
    const addWeight = (d: Record<string, any>) => {
      widget(d).properties.weight = { type: 'number' };
    };
    expect(checkVersion(baseline(), changed(addWeight, '1.2.4')).problems).toEqual([
      'the changes since 1.2.3 require a minor release (at least 1.3.0), not 1.2.4. Run: npm run release -- minor',
    ]);
  });

  it('fails a version lower than the release', () => {
    expect(
      checkVersion(
        baseline(),
        changed(() => undefined, '1.2.2'),
      ).problems,
    ).toEqual(['version 1.2.2 is lower than the released 1.2.3']);
  });

  it('refuses to remove a stable field the release had not deprecated, even in a major release', () => {
    const check = checkVersion(baseline(), changed(removeSize, '2.0.0'));
    const advice = 'without being deprecated in 1.2.3; mark it `deprecated: true` for at least one minor release first';
    expect(check.problems).toEqual([
      `GET /api/widgets/{id}: [Removed] required status from \`size\` in Response 200 content (application/json) ${advice}`,
      `GET /api/widgets/{id}: [Removed] property \`size\` in Response 200 content (application/json) ${advice}`,
    ]);
  });

  it('lets a major release remove a field the release had deprecated', () => {
    const removeColour = (d: Record<string, any>) => {
      delete widget(d).properties.colour;
    };
    const changes = apiChanges(baseline(), changed(removeColour, '2.0.0'));
    expect(requiredBump(changes)).toBe('major');
    expect(removalsWithoutDeprecation(baseline(), changes)).toEqual([]);
    expect(checkVersion(baseline(), changed(removeColour, '2.0.0')).problems).toEqual([]);
  });

  it('lets a beta operation go without a deprecation', () => {
    const check = checkVersion(
      baseline(),
      changed((d) => {
        delete d.paths['/api/gadgets'];
      }, '1.3.0'),
    );
    expect(check.problems).toEqual([]);
    expect(check.required).toBe('minor');
  });
});

describe('versions', () => {
  it('raises the part named and resets the ones after it', () => {
    expect([bumped('1.4.2', 'major'), bumped('1.4.2', 'minor'), bumped('1.4.2', 'patch')]).toEqual(['2.0.0', '1.5.0', '1.4.3']);
  });

  it('names the largest part raised between two versions', () => {
    expect([
      bumpBetween('1.4.2', '2.0.0'),
      bumpBetween('1.4.2', '1.5.7'),
      bumpBetween('1.4.2', '1.4.3'),
      bumpBetween('1.4.2', '1.4.2'),
    ]).toEqual(['major', 'minor', 'patch', undefined]);
    expect(() => bumpBetween('1.4.2', '1.3.9')).toThrow('version 1.3.9 is lower than the released 1.4.2');
    expect(() => bumpBetween('1.4', '1.5.0')).toThrow('"1.4" is not a version (MAJOR.MINOR.PATCH)');
  });
});
