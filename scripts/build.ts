/**
 * Builds everything the emulators and a deploy serve:
 *
 * - `functions/lib/`: the compiled functions, each family's route table with precompiled
 *   validators (`generated/routes/`), the rendered docs (`generated/docs.json`) and a compiled
 *   copy of the contract package (`node_modules/@evident/contract`, scripts/lib/contract-copy.ts),
 *   so the functions package holds all it needs at run time, and the single-file verifier every
 *   audit package carries (`generated/verify.mjs`, scripts/lib/verifier-bundle.ts);
 * - `hosting/dist/`: the web app, `/api/openapi.json` and the Swagger explorer at `/api/swagger`.
 *
 *   node scripts/build.ts                    regenerate committed generated files, then build
 *   node scripts/build.ts --check-generated  fail instead when they are stale (used by the tests)
 *
 * The web app's sign-in settings (IDP_API_KEY, IDP_AUTH_DOMAIN, IDP_PROJECT_ID) are baked in at
 * build time. A deploy takes them from the environment (or hosting/.env.production.local); the
 * local scripts build with the emulators' demo identity (`localIdentity`).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildDocument } from '../openapi/document.ts';
import { staleFiles, writeGeneratedFiles } from './generate.ts';
import { renderDocs } from './lib/docs-bundle.ts';
import { paths } from './lib/paths.ts';
import { familiesOf, renderRouteModule } from './lib/route-tables.ts';
import { compileCatalogSources } from './lib/catalog-bundle.ts';
import { copyContractIntoFunctions } from './lib/contract-copy.ts';
import { bundleFunctions } from './lib/functions-bundle.ts';
import { bundledVerifierPath, bundledVerifyPackagePath, bundleVerifier, bundleVerifyPackage } from './lib/verifier-bundle.ts';
import { missingIdentity } from './lib/build-identity.ts';
import { run, step } from './lib/run.ts';

/**
 * The identity the local scripts build the web app with: the protected demo project, which
 * exists only in the auth emulator (the app signs in there for any `demo-` project). Public
 * mode never starts sign-in, so one build serves both modes.
 */
export const localIdentity = {
  IDP_API_KEY: 'demo-api-key',
  IDP_AUTH_DOMAIN: 'demo-evident-protected.firebaseapp.com',
  IDP_PROJECT_ID: 'demo-evident-protected',
};

export async function build({
  checkGenerated = false,
  identity,
}: { checkGenerated?: boolean; identity?: Record<string, string> } = {}): Promise<void> {
  await step(checkGenerated ? 'Check generated files' : 'Generate types and reference docs', async () => {
    if (!checkGenerated) return writeGeneratedFiles();
    const stale = await staleFiles();
    if (stale.length > 0) throw new Error(`Stale generated files (run npm run generate):\n  ${stale.join('\n  ')}`);
  });
  const document = buildDocument();

  await step('Compile functions', async () => {
    rmSync(paths.functionsLib, { recursive: true, force: true });
    await run('tsc', ['-p', paths.functions]);
    await copyContractIntoFunctions();
    const routes = join(paths.functionsGenerated, 'routes');
    mkdirSync(routes, { recursive: true });
    for (const family of familiesOf(document)) writeFileSync(join(routes, `${family}.js`), renderRouteModule(document, family));
    writeFileSync(join(paths.functionsGenerated, 'docs.json'), JSON.stringify(renderDocs(paths.docs)));
    writeFileSync(join(paths.functionsGenerated, 'catalog.json'), JSON.stringify(compileCatalogSources(paths.catalog)));
    // The single-file verifier every audit package carries (functions/src/audit/verify-main.ts).
    writeFileSync(bundledVerifierPath(), await bundleVerifier());
    writeFileSync(bundledVerifyPackagePath(), await bundleVerifyPackage());
    // What Node loads in production and the emulators (package.json's `main`): see functions-bundle.ts.
    await bundleFunctions();
  });

  await step('Build web app', async () => {
    const missing = missingIdentity(paths.hosting, identity);
    if (missing.length > 0)
      console.warn(`  The web app is built without ${missing.join(', ')}: it will say that sign-in is unavailable.`);
    await run('vite', ['build', '--logLevel', 'warn'], { cwd: paths.hosting, env: { ...process.env, ...identity } });
    const api = join(paths.hostingDist, 'api');
    writeFileSync(join(api, 'openapi.json'), JSON.stringify(document, null, 2));
    const swaggerDist = dirname(createRequire(join(paths.hosting, 'package.json')).resolve('swagger-ui-dist/package.json'));
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) cpSync(join(swaggerDist, file), join(api, 'swagger-ui', file));
  });
}

if (import.meta.main) {
  try {
    await build({ checkGenerated: process.argv.includes('--check-generated') });
  } catch (error) {
    console.error(`\n✗ ${(error as Error).message}`);
    process.exit(1);
  }
}
