/**
 * `npm start`: builds Evident and runs it on the Firebase emulators, web app at
 * http://127.0.0.1:5000. `npm start -- --protected` runs protected mode instead.
 */
import { build } from './build.ts';
import { emulatorEnv, emulatorsUsed, hostingOrigin, projects, type Mode } from './lib/emulators.ts';
import { run } from './lib/run.ts';

const mode: Mode = process.argv.includes('--protected') ? 'protected' : 'public';

try {
  await build();
  console.log(`\nStarting the emulators in ${mode} mode (project ${projects[mode]}).`);
  console.log(`When they are ready: web app ${hostingOrigin}  ·  API explorer ${hostingOrigin}/api/swagger\n`);
  await run('firebase', ['emulators:start', '--project', projects[mode], '--only', emulatorsUsed], { env: emulatorEnv() });
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
