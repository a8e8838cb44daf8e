/**
 * The `audit` family: the audit package of a period, one zip made while it is sent
 * (audit/audit-package.ts for what it holds, audit/zip-writer.ts for the archive).
 */
import { dayIn } from '../assessment/dates.js';
import { closingFiles, packageFiles, type PackageFacts, type PackageRequest } from '../audit/audit-package.js';
import { publishedSigningKeys } from '../audit/package-signing-key.js';
import { zipStream } from '../audit/zip-writer.js';
import { apiVersion } from '../generated/api-version.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { periodOf } from './period.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type AuditFamilyOptions = FamilyOptions & ServiceOptions;

export function createAuditFamily(options: AuditFamilyOptions = {}) {
  const services = servicesFrom(options);

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
        const facts: PackageFacts = { reports: [], versions: [], evidence: 0, attachments: 0, unavailable: [] };
        return {
          status: 200,
          body: zipStream(packageFiles(s, request, facts), (archived) => closingFiles(request, facts, archived)),
          contentType: 'application/zip',
          headers: { 'Content-Disposition': `attachment; filename="evident-audit-${from}-to-${to}.zip"` },
        };
      },
    },
    options,
  );
}

export const handler = createAuditFamily();
