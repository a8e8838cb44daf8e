/**
 * The verifier's two commands over the demo's whole history: the single-file `verify/verify.mjs`
 * the package carries, bundled as the build bundles it and run by a plain `node` in the unpacked
 * folder (outside the repository, so nothing installed can be found), and `npm run verify-audit`
 * on the zip, which refuses a truncated one.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOfEvidencePath, rederivationReads } from '../../../functions/src/audit/package-paths.ts';
import { zipStream } from '../../../functions/src/audit/zip-writer.ts';
import { bundleVerifier } from '../../../scripts/lib/verifier-bundle.ts';
import { maxInflatedBytes } from '../../../scripts/lib/package-zip.ts';
import { verifyAudit } from '../../../scripts/verify-audit.ts';
import { demoPackage, type DemoPackage } from '../../support/demo-package.ts';

let demo: DemoPackage;
const scratch = mkdtempSync(join(tmpdir(), 'evident-verify-'));

beforeAll(async () => {
  demo = await demoPackage(await bundleVerifier());
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The files unpacked into a new folder of the scratch folder. */
function unpacked(name: string, files: ReadonlyMap<string, Buffer>): string {
  const folder = join(scratch, name);
  for (const [path, data] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), data);
  }
  return folder;
}

/** The files zipped again, as the package's writer zips them. */
async function zipOf(files: ReadonlyMap<string, Buffer>): Promise<Buffer> {
  const entries = (async function* () {
    for (const [path, data] of files) yield { path, data, modified: new Date('2026-11-21T10:00:00Z') };
  })();
  return buffer(zipStream(entries, () => []));
}

/** `node verify/verify.mjs .` in the folder, with nothing but PATH in the environment. */
function runVerifier(folder: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['verify/verify.mjs', '.', ...args], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, lines: run.stdout.trimEnd().split('\n'), stderr: run.stderr };
}

describe('the single-file verifier inside the package', () => {
  it('verifies the unpacked demo package with a plain node: every report follows', () => {
    const folder = unpacked('whole', demo.files);
    writeFileSync(join(scratch, 'published.pem'), demo.publicKey);
    const { code, lines, stderr } = runVerifier(folder, '--key', join(scratch, 'published.pem'));
    expect(stderr).toBe('');
    expect(lines.slice(-2)).toEqual([
      'Reports: 14; 14 follow from the evidence, 0 do not.',
      'VERIFIED: every file is as signed and every report follows.',
    ]);
    expect(code).toBe(0);
  });

  it('exits 1 and names an evidence item changed in the unpacked folder', () => {
    const path = [...demo.files.keys()].find((candidate) => idOfEvidencePath(candidate) !== undefined)!;
    const files = new Map(demo.files);
    files.set(path, Buffer.from(files.get(path)!.toString('utf8').replace('"kind"', '"kinD"')));
    const { code, lines } = runVerifier(unpacked('tampered', files));
    expect(lines).toContain(`  changed: ${path}`);
    expect(lines.at(-1)).toBe('NOT VERIFIED.');
    expect(code).toBe(1);
  });
});

describe('npm run verify-audit', () => {
  it('verifies the zip', async () => {
    const zip = join(scratch, 'package.zip');
    writeFileSync(zip, demo.zip);
    const { code, lines } = await verifyAudit([zip]);
    expect(lines.at(-1)).toBe('VERIFIED: every file is as signed and every report follows.');
    expect(code).toBe(0);
  });

  it('names a changed file re-derivation reads and one it only hashes, each found in the zip', async () => {
    const evidence = [...demo.files.keys()].find((candidate) => idOfEvidencePath(candidate) !== undefined)!;
    const hashedOnly = [...demo.files.keys()].find((candidate) => candidate.startsWith('oscal/'))!;
    expect(rederivationReads(hashedOnly)).toBe(false);
    const files = new Map(demo.files);
    files.set(evidence, Buffer.from(files.get(evidence)!.toString('utf8').replace('"kind"', '"kinD"')));
    files.set(hashedOnly, Buffer.concat([files.get(hashedOnly)!, Buffer.from(' ')]));
    const zip = join(scratch, 'tampered.zip');
    writeFileSync(zip, await zipOf(files));
    const { code, lines } = await verifyAudit([zip]);
    expect(lines.filter((line) => line.startsWith('  changed: ')).sort()).toEqual(
      [`  changed: ${evidence}`, `  changed: ${hashedOnly}`].sort(),
    );
    expect(lines.at(-1)).toBe('NOT VERIFIED.');
    expect(code).toBe(1);
  });

  it('refuses a zip an entry of which does not have its CRC-32, naming the entry', async () => {
    const path = [...demo.files.keys()].find((candidate) => candidate.startsWith('oscal/'))!;
    const files = new Map([[path, Buffer.from('{"a":1}')]]);
    const zip = await zipOf(files);
    // The CRC-32 in the central directory: 16 bytes into its record, which follows the entry.
    const record = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(zip.readUInt32LE(record + 16) ^ 1, record + 16);
    const file = join(scratch, 'bad-crc.zip');
    writeFileSync(file, zip);
    expect(await verifyAudit([file])).toEqual({
      lines: [
        `The package is not a whole zip archive (truncated in download, or not a zip): ${path} does not have the CRC-32 the directory says.`,
        'NOT VERIFIED.',
      ],
      code: 1,
    });
  });

  /** A zip of `data` under an OSCAL path, its central directory record edited by `edit` (given the record's offset). */
  async function editedZip(
    name: string,
    data: Buffer,
    edit: (zip: Buffer, record: number) => void,
  ): Promise<{ file: string; path: string }> {
    const path = [...demo.files.keys()].find((candidate) => candidate.startsWith('oscal/'))!;
    const zip = await zipOf(new Map([[path, data]]));
    edit(zip, zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    const file = join(scratch, name);
    writeFileSync(file, zip);
    return { file, path };
  }

  it('refuses an entry that says it inflates to more than deflate can make of its bytes, before inflating it', async () => {
    // 1,000 letters deflate to a few bytes (method 8); the directory then claims 4,000,000,000.
    const { file, path } = await editedZip('bomb.zip', Buffer.from('a'.repeat(1000)), (zip, record) => {
      expect(zip.readUInt16LE(record + 10)).toBe(8);
      zip.writeUInt32LE(4_000_000_000, record + 24);
    });
    const compressed = readFileSync(file).readUInt32LE(18);
    expect(await verifyAudit([file])).toEqual({
      lines: [
        `The package is not a whole zip archive (truncated in download, or not a zip): ${path} says it inflates to 4000000000 bytes, more than its ${compressed} deflated bytes can.`,
        'NOT VERIFIED.',
      ],
      code: 1,
    });
  });

  it('refuses an entry stored as it is whose two sizes differ', async () => {
    const { file, path } = await editedZip('stored.zip', Buffer.from('{"a":1}'), (zip, record) => {
      expect(zip.readUInt16LE(record + 10)).toBe(0);
      zip.writeUInt32LE(70_000, record + 24);
    });
    expect(await verifyAudit([file])).toEqual({
      lines: [
        `The package is not a whole zip archive (truncated in download, or not a zip): ${path} is stored as it is, yet its sizes differ (7 and 70000 bytes).`,
        'NOT VERIFIED.',
      ],
      code: 1,
    });
  });

  it('refuses a package whose files say they inflate to more than the verifier reads in all', async () => {
    // 2.1 MB that do not shrink (stored), relabelled deflated and claiming just over 2 GiB: a
    // ratio deflate could reach, so only the total stops it.
    const noise = randomBytes(2_100_000);
    const { file } = await editedZip('too-large.zip', noise, (zip, record) => {
      expect(zip.readUInt16LE(record + 10)).toBe(0);
      zip.writeUInt16LE(8, record + 10);
      zip.writeUInt32LE(maxInflatedBytes + 1, record + 24);
    });
    expect(await verifyAudit([file])).toEqual({
      lines: [
        `The package is not a whole zip archive (truncated in download, or not a zip): its files say they inflate to ${maxInflatedBytes + 1} bytes in all, more than the verifier reads (${maxInflatedBytes}).`,
        'NOT VERIFIED.',
      ],
      code: 1,
    });
  });

  it('refuses a truncated zip, saying so', async () => {
    const zip = join(scratch, 'truncated.zip');
    writeFileSync(zip, demo.zip.subarray(0, demo.zip.length - 100));
    expect(await verifyAudit([zip])).toEqual({
      lines: [
        'The package is not a whole zip archive (truncated in download, or not a zip): End of central directory record signature not found. Either not a zip file, or file is truncated.',
        'NOT VERIFIED.',
      ],
      code: 1,
    });
  });
});
