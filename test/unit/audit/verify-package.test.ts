/**
 * The audit package's verifier over the demo's whole history: untampered, every one of its 14
 * reports is re-derived byte for byte from the package's inputs and the signature holds; each
 * kind of tampering is found and named.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { idOfEvidencePath } from '../../../functions/src/audit/package-paths.ts';
import { describeVerification, verifyPackage } from '../../../functions/src/audit/verify-package.ts';
import { createAuditFamily } from '../../../functions/src/families/audit.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { demoPackage, type DemoPackage } from '../../support/demo-package.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { serve } from '../../support/serve.ts';

let demo: DemoPackage;

beforeAll(async () => {
  demo = await demoPackage();
  // Seeding two weeks of demo history takes seconds, more on a loaded machine.
}, 120_000);

const verified = (files: Map<string, Buffer>) => describeVerification(verifyPackage(files, { publicKey: demo.publicKey }));
const fingerprintLine = () => verified(demo.files)[0]!;
const json = (data: Buffer) => JSON.parse(data.toString('utf8')) as unknown;
const reportOf = (date: string) => json(demo.files.get(`reports/${date}.json`)!) as Report;
const listed = () => (json(demo.files.get('manifest.json')!) as { files: unknown[] }).files.length;

/** A copy of the package with one file's bytes replaced, or removed. */
function tampered(path: string, change: ((data: Buffer) => Buffer) | 'remove'): Map<string, Buffer> {
  const files = new Map(demo.files);
  if (change === 'remove') files.delete(path);
  else files.set(path, change(files.get(path)!));
  return files;
}

/** The evidence item cited on the most days, with those days and the controls citing it. */
function mostCited() {
  const byId = new Map<string, { days: Set<string>; controls: Set<string> }>();
  for (const date of demo.dates)
    for (const result of reportOf(date).controls)
      for (const id of result.evidence) {
        let cited = byId.get(id);
        if (!cited) byId.set(id, (cited = { days: new Set(), controls: new Set() }));
        cited.days.add(date);
        cited.controls.add(result.id);
      }
  const [id, cited] = [...byId].sort(([a, x], [b, y]) => y.days.size - x.days.size || (a < b ? -1 : 1))[0]!;
  const path = [...demo.files.keys()].find((candidate) => idOfEvidencePath(candidate) === id)!;
  return { id, path, days: [...cited.days].sort(), controls: [...cited.controls].sort() };
}

const total = () => `Reports: ${demo.dates.length}`;

describe('the verifier, over the demo package untampered', () => {
  it('re-derives each of the 14 reports byte for byte and finds the signature valid', () => {
    expect(demo.dates).toHaveLength(14);
    expect(verified(demo.files)).toEqual([
      expect.stringMatching(/^Signature: valid \(Ed25519, key [0-9a-f]{64}\)\.$/),
      `Files: ${listed()} listed; 0 changed, 0 missing.`,
      `${total()}; 14 follow from the evidence, 0 do not.`,
      'VERIFIED: every file is as signed and every report follows.',
    ]);
  });

  it('carries the evidence named by kind, subject and day, then the id, and every item a report cites', () => {
    const cited = new Set(demo.dates.flatMap((date) => reportOf(date).controls.flatMap((result) => result.evidence)));
    const held = new Set([...demo.files.keys()].flatMap((path) => idOfEvidencePath(path) ?? []));
    expect([...cited].filter((id) => !held.has(id))).toEqual([]);
    for (const path of demo.files.keys()) {
      const id = idOfEvidencePath(path);
      if (id === undefined) continue;
      const item = json(demo.files.get(path)!) as { kind: string; collectedAt: string; id: string };
      expect(path).toMatch(
        new RegExp(`^evidence/${item.kind.replaceAll('.', '\\.')}/[A-Za-z0-9._@+-]+/${item.collectedAt.slice(0, 10)}-`),
      );
      expect(item.id).toBe(id);
    }
  });
});

describe('the verifier, over a tampered package', () => {
  it('names the days and controls that no longer follow when one byte of one evidence item changed', () => {
    const { id, path, days, controls } = mostCited();
    expect(days.length).toBeGreaterThan(1);
    // One byte of the item's own id: every result that cites it must now differ.
    const changed = tampered(path, (data) =>
      Buffer.from(data.toString('utf8').replace(`"id": "${id}"`, `"id": "${id.slice(0, -1)}~"`)),
    );
    expect(changed.get(path)!.length).toBe(demo.files.get(path)!.length);
    const lines = verified(changed);
    expect(lines).toContain(`  changed: ${path}`);
    expect(lines).toContain(
      `Evidence item ${id} changed (${path}): days ${days[0]}..${days.at(-1)}, controls ${controls.join(', ')} no longer follow.`,
    );
    expect(lines.at(-1)).toBe('NOT VERIFIED.');
  });

  it('names an evidence item removed, with the days and controls that rested on it', () => {
    const { id, path, days, controls } = mostCited();
    const lines = verified(tampered(path, 'remove'));
    expect(lines).toContain(`  missing: ${path}`);
    expect(lines).toContain(
      `Evidence item ${id} removed (${path}): days ${days[0]}..${days.at(-1)}, controls ${controls.join(', ')} no longer follow.`,
    );
    expect(lines.at(-1)).toBe('NOT VERIFIED.');
  });

  it('finds a report changed, and the control in it that does not follow', () => {
    const date = demo.dates[5]!;
    const first = reportOf(date).controls[0]!;
    const path = `reports/${date}.json`;
    const lines = verified(
      tampered(path, (data) =>
        Buffer.from(data.toString('utf8').replace(`"title":"${first.title}"`, `"title":"${first.title}!"`)),
      ),
    );
    expect(lines).toEqual([
      fingerprintLine(),
      `Files: ${listed()} listed; 1 changed, 0 missing.`,
      `  changed: ${path}`,
      `${total()}; 13 follow from the evidence, 1 do not.`,
      `  ${date} does not follow: controls ${first.id}`,
      'NOT VERIFIED.',
    ]);
  });

  it('finds a digest of the manifest changed: the signature no longer holds, and the file does not match', () => {
    const path = 'history/controls.csv';
    const digest = (json(demo.files.get('manifest.json')!) as { files: { path: string; sha256: string }[] }).files.find(
      (file) => file.path === path,
    )!.sha256;
    const lines = verified(
      tampered('manifest.json', (data) => Buffer.from(data.toString('utf8').replace(digest, '0'.repeat(64)))),
    );
    expect(lines).toEqual([
      'Signature: INVALID — manifest.json is not what was signed, or not with this key.',
      `Files: ${listed()} listed; 1 changed, 0 missing.`,
      `  changed: ${path}`,
      `${total()}; 14 follow from the evidence, 0 do not.`,
      'NOT VERIFIED.',
    ]);
  });

  it('finds a bad signature', () => {
    const lines = verified(tampered('manifest.sig', (data) => Buffer.from(data.map((byte, n) => (n === 0 ? byte ^ 1 : byte)))));
    expect(lines[0]).toBe('Signature: INVALID — manifest.json is not what was signed, or not with this key.');
    expect(lines.at(-1)).toBe('NOT VERIFIED.');
  });

  it('finds a package signed with another key than the one published', () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const verification = verifyPackage(demo.files, { publicKey: other });
    expect(verification.signature.outcome).toBe('invalid');
    expect(verification.ok).toBe(false);
  });

  it('says a package without a manifest is not one', () => {
    expect(verified(tampered('manifest.json', 'remove'))).toEqual([
      'The package has no readable manifest.json: it is not an Evident audit package, or not a whole one.',
      'Signature: ABSENT — the package has no manifest.sig.',
      'Files: 0 listed; 0 changed, 0 missing.',
      'Reports: 0; 0 follow from the evidence, 0 do not.',
      'NOT VERIFIED.',
    ]);
  });
});

describe('GET /api/audit/signing-key', () => {
  it('publishes, without a token, the key a package was signed with, with the fingerprint its manifest names', async () => {
    setMode('protected');
    const served = await serve(
      createAuditFamily({
        store: async () => demo.store,
        catalog: () => compileCatalogSources(paths.catalog),
        verifyToken: fakeVerifier(),
        loadTable: tableOf('audit'),
      }),
    );
    try {
      const answer = await fetch(`${served.url}/api/audit/signing-key`);
      expect(answer.status).toBe(200);
      const manifest = json(demo.files.get('manifest.json')!) as { signature: { fingerprint: string; publicKey: string } };
      expect(await answer.json()).toEqual({
        keys: [
          {
            algorithm: 'Ed25519',
            fingerprint: manifest.signature.fingerprint,
            publicKey: demo.publicKey,
            publishedAt: '2026-11-21T10:00:00.000Z',
          },
        ],
      });
      expect(manifest.signature.publicKey).toBe(demo.publicKey);
    } finally {
      setMode('public');
      await served.close();
    }
  });
});
