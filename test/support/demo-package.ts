/**
 * The audit package of the demo's whole history (14 days), signed with a key made for the test,
 * as files and as the zip the audit family sends: what the verifier's tests tamper with.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { vi } from 'vitest';
import { compileCatalog } from '../../functions/src/assessment/evaluate.ts';
import { closingFiles, newPackageFacts, packageFiles, type PackageRequest } from '../../functions/src/audit/audit-package.ts';
import { zipStream, type ArchiveFile } from '../../functions/src/audit/zip-writer.ts';
import { EvidenceStore } from '../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../functions/src/logs.ts';
import { ReportStore } from '../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../scripts/lib/catalog-bundle.ts';
import { seedDemoHistory } from '../../scripts/lib/demo/seed.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { demoSeedDependencies } from './demo-seed.ts';

export interface DemoPackage {
  store: MemoryStore;
  files: Map<string, Buffer>;
  zip: Buffer;
  dates: string[];
  publicKey: string;
  privateKey: KeyObject;
}

export const demoToday = '2026-11-21';

/** Seeds the demo history over a fresh store and packages all of it; `verifierScript` goes in as `verify/verify.mjs`. */
export async function demoPackage(verifierScript?: Buffer): Promise<DemoPackage> {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  const catalog = compileCatalogSources(paths.catalog);
  const store = new MemoryStore();
  const seeded = await seedDemoHistory(demoSeedDependencies(store, compileCatalog(catalog)), {
    today: demoToday,
    timeZone: 'UTC',
    now: new Date(`${demoToday}T09:00:00Z`),
  });
  if (!seeded.seeded) throw new Error('the demo history was not seeded');
  const reports = new ReportStore(store);
  const dates = await reports.datesBetween(seeded.from, seeded.to);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const request: PackageRequest = {
    from: seeded.from,
    to: seeded.to,
    dates,
    today: demoToday,
    timeZone: 'UTC',
    generatedAt: new Date(`${demoToday}T10:00:00Z`),
    apiVersion: 'test',
    requestedBy: { uid: 'auditor', email: 'auditor@example.com' },
    signingKey: privateKey,
  };
  const sources = {
    store,
    reports,
    evidence: new EvidenceStore(store),
    catalog,
    verifierScript: async () => verifierScript,
  };
  const made: ArchiveFile[] = [];
  const collect = async function* (files: AsyncIterable<ArchiveFile>) {
    for await (const file of files) {
      made.push(file);
      yield file;
    }
  };
  const facts = newPackageFacts();
  const zip = await buffer(
    zipStream(collect(packageFiles(sources, request, facts)), (archived) => {
      const closing = [...closingFiles(request, facts, archived)];
      made.push(...closing);
      return closing;
    }),
  );
  return {
    store,
    files: new Map(made.map((file) => [file.path, file.data])),
    zip,
    dates,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
  };
}
