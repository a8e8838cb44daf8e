/**
 * The bucket's security rules: Evident reaches its bucket only through the Admin SDK, so the
 * rules `firebase deploy` publishes deny every client request. The emulators never load them:
 * no Storage emulator runs here (it needs Java), and the derived configuration drops them.
 * There is no rules compiler without Java, so the rules are checked as text, token for token
 * (comments aside), against the one statement they must be.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulatorConfig, emulatorsUsed, localSecret, withLocalSecrets } from '../../../scripts/lib/emulators.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const firebase = JSON.parse(readFileSync(paths.firebaseJson, 'utf8')) as { storage?: { rules?: string } };

/** The rules' tokens: comments dropped, words and punctuation apart. */
const tokens = (source: string) =>
  source
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .match(/[A-Za-z_][\w.]*|'[^']*'|\{[a-zA-Z]+(?:=\*\*)?\}|[^\s]/g);

describe('storage.rules', () => {
  it('is what firebase.json deploys to the bucket', () => {
    expect(firebase.storage).toEqual({ rules: 'storage.rules' });
  });

  it('denies every read and write of every object to every client', () => {
    const source = readFileSync(join(paths.root, firebase.storage!.rules!), 'utf8');
    expect(tokens(source)?.join(' ')).toBe(
      "rules_version = '2' ; service firebase.storage { match / b / {bucket} / o { " +
        'match / {allPaths=**} { allow read , write : if false ; } } }',
    );
  });

  it('is left out of the emulators, which run no Storage emulator', () => {
    expect(emulatorConfig()).not.toHaveProperty('storage');
    expect(emulatorsUsed.split(',')).not.toContain('storage');
  });
});

describe('the local secrets file', () => {
  const key = 'WEBHOOK_SECRET_KEY=[A-Za-z0-9+/]{43}=\\n';
  const tokens =
    'GITHUB_CREDENTIAL=github_pat_local_[0-9a-f]{40}\\nOKTA_CREDENTIAL=00local[0-9a-f]{38}\\n' +
    // An Ed25519 private key's PKCS#8 DER: a fixed prefix, then the key's 32 bytes.
    'AUDIT_SIGNING_KEY=MC4CAQAwBQYDK2VwBCIEI[A-Za-z0-9+/]{43}\\n';

  it('gets a webhook key, the stand-ins\u2019 tokens and an audit signing key of its own once, and keeps them and everything else it holds', () => {
    const made = withLocalSecrets('');
    expect(made).toMatch(new RegExp(`^${key}${tokens}$`));
    expect(withLocalSecrets(made)).toBe(made);
    expect(withLocalSecrets('OTHER=1')).toMatch(new RegExp(`^OTHER=1\\n${key}${tokens}$`));
    // Each machine's own: two files never get the same key.
    expect(withLocalSecrets('')).not.toBe(made);
  });

  it('keeps a value set by hand, a real token included', () => {
    const own = 'export WEBHOOK_SECRET_KEY=kept\nGITHUB_CREDENTIAL=ghp_mine\n';
    const made = withLocalSecrets(own);
    expect(made.startsWith(own)).toBe(true);
    expect([localSecret(made, 'WEBHOOK_SECRET_KEY'), localSecret(made, 'GITHUB_CREDENTIAL')]).toEqual(['kept', 'ghp_mine']);
    expect(localSecret(made, 'OKTA_CREDENTIAL')).toMatch(/^00local[0-9a-f]{38}$/);
  });
});
