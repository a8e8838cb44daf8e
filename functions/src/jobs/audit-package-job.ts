/**
 * The audit package worker as the task queue runs it: builds one package (audit/build-package.ts),
 * its manifest signed with `AUDIT_SIGNING_KEY`, then deletes the packages that have lapsed, so
 * storage keeps only what `AUDIT_PACKAGE_DAYS` allows.
 */
import { loadCatalog } from '../assessment/catalog.js';
import { buildPackage, type BuildSources } from '../audit/build-package.js';
import { PackageBuilds } from '../audit/package-builds.js';
import { signingKeyFrom } from '../audit/package-signature.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { logs } from '../logs.js';
import { ReportStore } from '../reports/report-store.js';
import { openStore } from '../storage/open-store.js';
import { auditPackageIdPattern } from '@evident/contract';

const services = loadOnce(async (): Promise<BuildSources> => {
  const [store, catalog] = await Promise.all([openStore(), loadCatalog()]);
  const sources = { store, catalog, reports: new ReportStore(store), evidence: new EvidenceStore(store) };
  // The manifest is signed with the deployment's key (Secret Manager, bound to this worker alone).
  const key = config.auditSigningKeySetting.value();
  const signingKey = key ? signingKeyFrom(key) : undefined;
  return { ...sources, now: () => new Date(), timeZone: config.reportTimeZone, signingKey: () => signingKey };
});
const idShape = new RegExp(auditPackageIdPattern);

export async function runAuditPackageTask(payload: { packageId?: unknown }): Promise<void> {
  const id = payload.packageId;
  // Retrying a task that names no package would never help.
  if (typeof id !== 'string' || !idShape.test(id)) return;
  const s = await services();
  const builds = new PackageBuilds(s.store, config.auditPackageDays);
  const record = await builds.find(id, s.now());
  if (record) await buildPackage(s, record);
  const swept = await builds.sweep(s.now());
  if (swept > 0) logs.auditPackagesSwept(swept);
}
