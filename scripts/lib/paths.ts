/** Where things are in the repository, for the build, test and bench scripts. */
import { fileURLToPath } from 'node:url';

const at = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export const root = at('');
export const paths = {
  root,
  docs: at('docs'),
  referenceDocs: at('docs/reference'),
  functions: at('functions'),
  catalog: at('functions/catalog'),
  functionsLib: at('functions/lib'),
  functionsGenerated: at('functions/lib/generated'),
  apiTypes: at('functions/src/generated/api-types.ts'),
  familiesTypes: at('functions/src/generated/families.ts'),
  apiVersion: at('functions/src/generated/api-version.ts'),
  releasedDescriptions: at('openapi/released'),
  changelog: at('CHANGELOG.md'),
  hosting: at('hosting'),
  hostingDist: at('hosting/dist'),
  firebaseJson: at('firebase.json'),
  binNode: at('node_modules/.bin'),
  /** functions-framework's entry, which serves a built function as production does (`--target`). */
  functionsFramework: at('node_modules/@google-cloud/functions-framework/build/src/main.js'),
};
