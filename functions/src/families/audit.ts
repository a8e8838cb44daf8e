/**
 * The `audit` family: the audit package of a period, one zip made while it is sent
 * (audit/audit-package.ts for what it holds, audit/zip-writer.ts for the archive), or built in
 * the background and downloaded from storage (audit-packages.ts).
 */
import { dayIn } from '../assessment/dates.js';
import { closingFiles, newPackageFacts, packageFiles, type PackageRequest } from '../audit/audit-package.js';
import { publishedSigningKeys } from '../audit/package-signing-key.js';
import { zipStream } from '../audit/zip-writer.js';
import { apiVersion } from '../generated/api-version.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { periodOf } from './period.js';
import { servicesFrom, type ServiceOptions } from './services.js';
import { PackageBuilds } from '../audit/package-builds.js';
import { cloudTasksAuditPackageQueue, type AuditPackageQueue } from '../audit/package-queue.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { settingsLimits, type StreamLimits } from '../http/event-stream.js';
import {
  downloadPackage,
  getPackage,
  listPackages,
  startPackage,
  streamPackageEvents,
  type PackageDependencies,
} from './audit-packages.js';

export type AuditFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Where builds are sent; Cloud Tasks unless a test hands them to an in-process worker. */
    queue?: () => AuditPackageQueue;
    streamLimits?: (buffered: boolean) => StreamLimits;
  };

export function createAuditFamily(options: AuditFamilyOptions = {}) {
  const services = servicesFrom(options);
  let queue: AuditPackageQueue | undefined;
  const packages: PackageDependencies = {
    services,
    builds: loadOnce(async () => new PackageBuilds((await services()).store, config.auditPackageDays)),
    queue: () => (queue ??= (options.queue ?? cloudTasksAuditPackageQueue)()),
    limits: options.streamLimits ?? settingsLimits,
  };

  return createFamily(
    'audit',
    {
      getAuditSigningKey: async () => ({ status: 200, body: { keys: await publishedSigningKeys((await services()).store) } }),

      getAuditPackage: async ({ query }, context) => {
        const s = await services();
        const today = dayIn(s.timeZone(), s.now());
        // Both ends are required by the description; the default length is never used.
        const { from, to } = periodOf(query, today, s.timeZone(), 1);
        // Everything that can refuse the request is settled before the first byte is sent.
        const dates = await s.reports.datesBetween(from, to);
        if (dates.length === 0)
          throw new ApiProblem(
            'report_not_found',
            `No report exists from ${from} to ${to}; GET /api/report lists the days that have one.`,
          );
        const request: PackageRequest = {
          from,
          to,
          dates,
          today,
          timeZone: s.timeZone(),
          generatedAt: s.now(),
          apiVersion,
          requestedBy: actorOf(context.caller),
        };
        const facts = newPackageFacts();
        return {
          status: 200,
          body: zipStream(packageFiles(s, request, facts), (archived) => closingFiles(request, facts, archived)),
          contentType: 'application/zip',
          headers: { 'Content-Disposition': `attachment; filename="evident-audit-${from}-to-${to}.zip"` },
        };
      },
      startAuditPackage: (input, context) => startPackage(packages, input, context),
      listAuditPackages: () => listPackages(packages),
      getAuditPackageBuild: ({ path }) => getPackage(packages, path.id),
      streamAuditPackageEvents: (input, context) => streamPackageEvents(packages, input, context),
      downloadAuditPackage: (input) => downloadPackage(packages, input),
    },
    options,
  );
}

export const handler = createAuditFamily();
