/**
 * The changelog entries `npm run release` writes: changes to operations by section, breaking
 * ones marked, a line for changes elsewhere, and the newest entry first under the heading.
 */
import { describe, expect, it } from 'vitest';
import type { ApiChange } from '../../../scripts/lib/api-changes.ts';
import { changelogEntry, changelogHeading, withEntry } from '../../../scripts/lib/changelog.ts';

const change = (overrides: Partial<ApiChange>): ApiChange => ({
  operation: 'GET /api/widgets/{id}',
  beta: false,
  kind: 'changed',
  breaking: false,
  description: '[Replaced] annotation (description) of Response 200',
  pointer: '/paths/~1api~1widgets~1{id}/get/responses/200/description',
  requires: 'patch',
  ...overrides,
});

describe('changelogEntry', () => {
  it('lists the changes to operations by section, marking breaking ones, each once', () => {
    const added = change({
      kind: 'added',
      description: '[Added] property `weight` in Response 200 content (application/json)',
      requires: 'minor',
    });
    const entry = changelogEntry('2.0.0', '2026-11-24', [
      added,
      added,
      change({
        kind: 'removed',
        breaking: true,
        description: '[Removed] property `size` in Response 200 content (application/json)',
        requires: 'major',
      }),
      change({
        operation: 'GET /api/gadgets',
        beta: true,
        kind: 'deprecated',
        description: '[Added] deprecated status',
        requires: 'minor',
      }),
      change({ operation: undefined, pointer: '/components/schemas/Widget/properties/weight' }),
    ]);
    expect(entry).toBe(
      [
        '## 2.0.0 — 2026-11-24',
        '',
        '### Added',
        '',
        '- `GET /api/widgets/{id}`: property `weight` in Response 200 content (application/json)',
        '',
        '### Deprecated',
        '',
        '- `GET /api/gadgets` (beta): deprecated status',
        '',
        '### Removed',
        '',
        '- `GET /api/widgets/{id}`: property `size` in Response 200 content (application/json) **(breaking)**',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing but descriptions or shared definitions changed, and when nothing did', () => {
    expect(changelogEntry('1.0.1', '2026-11-24', [change({ operation: undefined })])).toBe(
      '## 1.0.1 — 2026-11-24\n\nDescriptions and shared definitions only; no operation changed.\n',
    );
    expect(changelogEntry('1.0.2', '2026-11-25', [])).toBe('## 1.0.2 — 2026-11-25\n\nNo change to the API.\n');
  });
});

describe('withEntry', () => {
  it('starts a changelog, then puts each new entry first', () => {
    const first = withEntry(undefined, '## 1.0.0 — 2026-11-24\n\nFirst.\n');
    expect(first).toBe(`${changelogHeading}\n## 1.0.0 — 2026-11-24\n\nFirst.\n`);
    expect(withEntry(first, '## 1.1.0 — 2026-12-01\n\nSecond.\n')).toBe(
      `${changelogHeading}\n## 1.1.0 — 2026-12-01\n\nSecond.\n\n## 1.0.0 — 2026-11-24\n\nFirst.\n`,
    );
  });

  it('keeps a heading a person edited, and a changelog with no entry yet', () => {
    const edited = '# Our API\n\nHand-written words.\n\n## 1.0.0 — 2026-11-24\n\nFirst.\n';
    expect(withEntry(edited, '## 1.1.0 — 2026-12-01\n\nSecond.\n')).toBe(
      '# Our API\n\nHand-written words.\n\n## 1.1.0 — 2026-12-01\n\nSecond.\n\n## 1.0.0 — 2026-11-24\n\nFirst.\n',
    );
    expect(withEntry('# Our API\n', '## 1.0.0 — 2026-11-24\n\nFirst.\n')).toBe('# Our API\n\n## 1.0.0 — 2026-11-24\n\nFirst.\n');
  });
});
