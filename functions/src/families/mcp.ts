/**
 * The `mcp` family: the chat's question kinds as Model Context Protocol tools, so a team's own
 * assistant (Claude, ChatGPT, an IDE) can ask about today's report, with the same bearer token
 * and access as every protected operation. The MCP server is in mcp/; this module gives it
 * today's report, loaded as the chat loads it, and turns its answer into the HTTP answer.
 */
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { invalidRequest } from '../http/problem.js';
import { answerMcpRequest } from '../mcp/stateless-server.js';
import type { AskedReport } from '../chat/answer.js';
import { loadOnce } from '../common/maybe-async.js';
import type { ServiceOptions } from './services.js';

export type McpFamilyOptions = FamilyOptions & ServiceOptions;

export function createMcpFamily(options: McpFamilyOptions = {}) {
  // What a tool call reads (the store, today's report and its search index, with the chat's
  // modules) loads on the first call: `initialize` and `tools/list`, an assistant's first
  // requests, read no report.
  const asked = loadOnce(async () => {
    const [{ servicesFrom }, { askedReports }] = await Promise.all([import('./services.js'), import('./asked-report.js')]);
    const services = servicesFrom(options);
    return { services, reports: askedReports(services) };
  });
  const today = async (): Promise<AskedReport> => {
    const { services, reports } = await asked();
    return reports.of(await reports.reports.today(await services()));
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
