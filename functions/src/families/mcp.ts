/**
 * The `mcp` family: the chat's question kinds as Model Context Protocol tools, so a team's own
 * assistant (Claude, ChatGPT, an IDE) can ask about today's report, with the same bearer token
 * and access as every protected operation. The MCP server is in mcp/; this module gives it
 * today's report, loaded as the chat loads it, and turns its answer into the HTTP answer.
 */
import { dayIn } from '../assessment/dates.js';
import { indexReport, type ReportIndex } from '../chat/report-index.js';
import { loadOnce } from '../common/maybe-async.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { invalidRequest } from '../http/problem.js';
import type { AskedReport } from '../mcp/question-tools.js';
import { answerMcpRequest } from '../mcp/stateless-server.js';
import { StoredReportDays } from '../reports/report-days.js';
import type { StoredReport } from '../reports/report-store.js';
import { reportsByDate } from './report-of-date.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type McpFamilyOptions = FamilyOptions & ServiceOptions;

export function createMcpFamily(options: McpFamilyOptions = {}) {
  const services = servicesFrom(options);
  const reports = reportsByDate();
  /** Each day's summary and statuses, kept once read, for trends and histories. */
  const days = loadOnce(async () => {
    const s = await services();
    return new StoredReportDays(s.reports, () => dayIn(s.timeZone(), s.now()));
  });
  /** Each stored report's search index, built on its first question. */
  const indexes = new WeakMap<StoredReport, ReportIndex>();

  const today = async (): Promise<AskedReport> => {
    const s = await services();
    const stored = await reports.today(s);
    let index = indexes.get(stored);
    if (!index) indexes.set(stored, (index = indexReport(stored.report, s.catalog)));
    const reportOn = async (date: string) => {
      const lookup = await reports.find(s, date);
      return 'found' in lookup ? lookup.found.report : undefined;
    };
    return { index, days: await days(), reportOn };
  };

  return createFamily(
    'mcp',
    {
      mcp: async ({ body, headers }) => {
        const answer = await answerMcpRequest({ body, protocolVersion: headers['MCP-Protocol-Version'], today });
        if ('refused' in answer) {
          const { in: where, message } = answer.refused;
          throw invalidRequest([
            where === 'header' ? { in: where, name: 'MCP-Protocol-Version', message } : { in: where, pointer: '', message },
          ]);
        }
        // The SDK's serialisation, sent as it is.
        return answer.status === 202 ? { status: 202, body: undefined } : { status: 200, body: Buffer.from(answer.body) };
      },
    },
    options,
  );
}

export const handler = createMcpFamily();
