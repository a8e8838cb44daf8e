/**
 * `npm run smoke -- <site> [--token <Firebase ID token>]`: what an operator runs after
 * `firebase deploy` (or against `npm start`'s http://127.0.0.1:5000) to see the deployment
 * answer as the contract says. It changes nothing on the site; see lib/smoke/checks.ts.
 *
 * Exit status: 0 when every check passed (some may be skipped for want of a token), 1 when any
 * failed, 2 for a usage error.
 */
import { parseArgs } from 'node:util';
import { runSmoke } from './lib/smoke/checks.ts';

const usage = `Usage: npm run smoke -- <site> [--token <Firebase ID token>]

Checks a deployed Evident from outside: the bootstrap endpoints, 401s without a token in
protected mode, gated docs, the API explorer, event streams and, with a token, today's report.
The token (also EVIDENT_TOKEN) is a signed-in user's Firebase ID token; without one, the
checks that need it are skipped.`;

function parse(): { origin: string; token?: string } | string {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) return usage;
    if (positionals.length !== 1) return `Name one site.\n\n${usage}`;
    const origin = new URL(positionals[0]!).origin;
    const token = values.token ?? process.env.EVIDENT_TOKEN;
    return token ? { origin, token } : { origin };
  } catch (error) {
    return `${(error as Error).message}\n\n${usage}`;
  }
}

const options = parse();
if (typeof options === 'string') {
  if (options === usage) console.log(usage);
  else console.error(options);
  process.exit(options === usage ? 0 : 2);
}
console.log(`Smoke test of ${options.origin}${options.token ? ', with a token' : ''}\n`);
const results = await runSmoke(options);
const marks = { passed: '✓', failed: '✗', skipped: '–' } as const;
for (const result of results) {
  console.log(`  ${marks[result.outcome]} ${result.name}${result.detail ? `\n      ${result.detail}` : ''}`);
}
const count = (outcome: keyof typeof marks) => results.filter((result) => result.outcome === outcome).length;
console.log(`\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
process.exitCode = count('failed') > 0 ? 1 : 0;
