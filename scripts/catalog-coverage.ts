/**
 * `node scripts/catalog-coverage.ts [--gaps]`: how much of each framework the control catalog
 * covers (requirements at least one control maps to, out of the framework's reference list), as
 * functions/catalog/README.md lists it; `--gaps` also names the requirements no control covers.
 */
import { parseArgs } from 'node:util';
import { compileCatalogSources } from './lib/catalog-bundle.ts';
import { coverageLines, coverageOf } from './lib/catalog-coverage.ts';
import { paths } from './lib/paths.ts';

try {
  const { values } = parseArgs({ options: { gaps: { type: 'boolean', default: false } } });
  const catalog = compileCatalogSources(paths.catalog);
  const coverage = coverageOf(catalog);
  console.log(`${catalog.controls.length} controls, catalog version ${catalog.version}`);
  console.log(coverageLines(coverage).join('\n'));
  if (values.gaps) {
    for (const { name, uncovered } of coverage) console.log(`\n${name}, not covered: ${uncovered.join(' ') || 'none'}`);
  }
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}
