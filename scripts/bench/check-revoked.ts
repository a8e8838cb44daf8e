/**
 * What checking revocation on every request would cost: `verifyIdToken(token, true)` adds one
 * user lookup (`getUser`, an Identity Toolkit call) to each verification, which otherwise is a
 * signature check against cached keys. Measured against the Authentication emulator, which must
 * already be running (`npm start`, or during `npm test`); this script starts nothing.
 *
 *   node scripts/bench/check-revoked.ts                 200 lookups, in the emulator's project
 *   node scripts/bench/check-revoked.ts --runs 1000 --project demo-evident
 *
 * The emulator answers on loopback, so its figure is a floor: in production the lookup leaves the
 * function's region for googleapis.com. The decision it informs is in docs/authentication.md.
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { authEmulatorOrigin } from '../lib/emulators.ts';
import { median } from './median.ts';

const argument = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1]!;
};
const runs = Number(argument('runs') ?? '200');

/** The slowest of the fastest 95 %. */
function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function timed(times: number, work: () => unknown): Promise<number[]> {
  const durations: number[] = [];
  for (let n = 0; n < times; n++) {
    const start = performance.now();
    await work();
    durations.push(performance.now() - start);
  }
  return durations;
}

const report = (label: string, durations: number[]) =>
  console.log(`${label.padEnd(52)} median ${median(durations).toFixed(3)} ms   p95 ${p95(durations).toFixed(3)} ms`);

async function signUp(): Promise<{ idToken: string; uid: string }> {
  const url = `${authEmulatorOrigin}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'bench-only', returnSecureToken: true }),
  }).catch(() => undefined);
  if (!response?.ok) {
    console.error(`No Authentication emulator answers at ${authEmulatorOrigin}: start it first (npm start).`);
    process.exit(1);
  }
  const body = (await response.json()) as { idToken: string; localId: string };
  return { idToken: body.idToken, uid: body.localId };
}

/** What verification costs without the lookup: one RS256 signature check, as with Google's keys cached. */
function signatureCheck(): () => boolean {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signed = Buffer.from('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9');
  const signature = sign('sha256', signed, privateKey);
  return () => verify('sha256', signed, publicKey, signature);
}

process.env.FIREBASE_AUTH_EMULATOR_HOST = new URL(authEmulatorOrigin).host;
const user = await signUp();
// The emulator files a sign-up under its default project (the one `npm start` runs), whatever
// the key: the token's audience names it.
const audience = (JSON.parse(Buffer.from(user.idToken.split('.')[1]!, 'base64url').toString('utf8')) as { aud: string }).aud;
const projectId = argument('project') ?? audience;
const app = initializeApp({ projectId }, 'check-revoked-bench');
const auth = getAuth(app);
try {
  // Warm the connection and the code paths, so the first call's setup is not counted.
  await auth.getUser(user.uid);
  await auth.verifyIdToken(user.idToken, true);

  console.log(`${runs} calls each, project ${projectId}, Authentication emulator at ${authEmulatorOrigin}\n`);
  report('signature check only (checkRevoked off, keys cached)', await timed(runs, signatureCheck()));
  report('user lookup (what checkRevoked adds: getUser)', await timed(runs, () => auth.getUser(user.uid)));
  // The emulator's tokens are unsigned, and firebase-admin looks the user up for them whatever
  // checkRevoked says, so this is the whole of a verification with the check on.
  report('verifyIdToken(token, true) against the emulator', await timed(runs, () => auth.verifyIdToken(user.idToken, true)));
} finally {
  await deleteApp(app);
}
