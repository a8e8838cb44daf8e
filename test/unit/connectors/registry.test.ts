/**
 * Every built-in connector is complete (CONTRIBUTING.md, "A new connector"): its metadata holds
 * together, it feeds at least one control, its SDK module loads, and it has its stand-in, its
 * tests, its bench scenario and its section of the connectors guide. A connector added to the
 * registry without one of them fails here, naming what is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectorIdPattern, evidenceKindNames } from '@evident/contract';
import { builtInConnectors, secretNamesOf } from '../../../functions/src/connectors/registry.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { connectorScenarios } from '../../../scripts/bench/groups/connectors.ts';

const catalog = compileCatalogSources(paths.catalog);
const guide = readFileSync(join(paths.root, 'docs', 'connectors.md'), 'utf8');

/** The text of the guide's section for a connector: from its `## <title>` heading to the next one. */
function sectionOf(title: string): string | undefined {
  const start = guide.indexOf(`\n## ${title}\n`);
  if (start === -1) return undefined;
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

describe('the built-in connectors', () => {
  it('are GitHub, Google Cloud, Google Workspace and Okta, each with its own id and source', () => {
    expect(builtInConnectors.map((connector) => [connector.id, connector.title, connector.source])).toEqual([
      ['github', 'GitHub', 'github-connector'],
      ['google-cloud', 'Google Cloud', 'google-cloud-connector'],
      ['google-workspace', 'Google Workspace', 'google-workspace-connector'],
      ['okta', 'Okta', 'okta-connector'],
    ]);
  });

  it('bind only the secrets of the connectors a deployment enables', () => {
    expect(secretNamesOf(builtInConnectors, new Set())).toEqual([]);
    expect(secretNamesOf(builtInConnectors, new Set(['google-cloud', 'google-workspace']))).toEqual([]);
    expect(secretNamesOf(builtInConnectors, new Set(['github', 'okta']))).toEqual(['GITHUB_CREDENTIAL', 'OKTA_CREDENTIAL']);
  });

  for (const connector of builtInConnectors) {
    describe(connector.title, () => {
      it('declares kinds the contract knows, each read by a control of the catalog', () => {
        expect(connector.id).toMatch(new RegExp(connectorIdPattern));
        expect(connector.kinds.length).toBeGreaterThan(0);
        for (const kind of connector.kinds) {
          expect(evidenceKindNames, kind).toContain(kind);
          // Scanner findings are followed by check, not read by kind: some control must follow one of its checks.
          const readers = catalog.controls.filter((control) =>
            kind === 'scanner.finding'
              ? control.scanner.checks.some((check) => connector.scannerChecks?.includes(check.id))
              : control.evidence.some((requirement) => requirement.kind === kind),
          );
          expect(readers.length, `controls reading ${kind}`).toBeGreaterThan(0);
        }
      });

      it('names its settings, secrets and permissions', () => {
        for (const setting of connector.settings) {
          expect(setting.name).toMatch(/^[a-z][A-Za-z0-9]*$/);
          expect([setting.description.length > 0, setting.example.length > 0], setting.name).toEqual([true, true]);
        }
        for (const secret of connector.secrets) expect(secret.name).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(connector.credentials.length).toBeGreaterThan(0);
        expect(connector.permissions.length).toBeGreaterThan(0);
      });

      it('loads a collector through its SDK module', async () => {
        const collector = await connector.load();
        expect(typeof collector.collect).toBe('function');
      });

      it('has its stand-in, its tests, its bench scenario and its section of the guide', () => {
        const files = [
          join('test', 'stand-ins', connector.id),
          join('test', 'unit', 'connectors', `${connector.id}.test.ts`),
          join('scripts', 'bench', 'connectors', `${connector.id}.ts`),
        ];
        expect(files.filter((file) => !existsSync(join(paths.root, file)))).toEqual([]);
        expect(connectorScenarios).toContain(connector.id);
        const section = sectionOf(connector.title);
        expect(section, `docs/connectors.md has no "## ${connector.title}"`).toBeDefined();
        expect(section).not.toContain('<!--');
        const words = section!.toLowerCase();
        expect(
          ['permission', 'scope', 'role'].some((word) => words.includes(word)),
          'what to grant',
        ).toBe(true);
        expect(words, 'its section names its settings').toContain('setting');
        expect(
          ['control', 'feeds'].some((word) => words.includes(word)),
          'the controls it feeds',
        ).toBe(true);
      });
    });
  }
});
