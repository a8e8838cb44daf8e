/**
 * The `chat` family: a question about a day's report, answered from that report alone with
 * citations, as JSON or as a resumable event stream.
 */
import { answerQuestion, offlineReader, type ReportDays } from '../chat/answer.js';
import { AnswerStore, fixedFeed, newAnswerId, type ChatAnswer } from '../chat/answer-events.js';
import type { ToolCallAnswer, ToolCallRequest } from '../chat/model/gemini-tool-call.js';
import type { ReadQuestion } from '../chat/model/model-reader.js';
import * as config from '../config.js';
import { logs } from '../logs.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import {
  acceptsEventStream,
  EventStream,
  resumePoint,
  settingsLimits,
  throughBufferingProxy,
  type StreamLimits,
} from '../http/event-stream.js';
import { loadOnce } from '../common/maybe-async.js';
import type { RequestContext } from '../http/operation-types.js';
import { ApiProblem } from '../http/problem.js';
import { askedReports } from './asked-report.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type ChatFamilyOptions = FamilyOptions &
  ServiceOptions & {
    streamLimits?: (buffered: boolean) => StreamLimits;
    /** The model's tool calls when CHAT_PROVIDER is vertex-gemini; Vertex AI's by default, a stand-in's in tests. */
    callModel?: (request: ToolCallRequest) => Promise<ToolCallAnswer>;
  };

export function createChatFamily(options: ChatFamilyOptions = {}) {
  const services = servicesFrom(options);
  const answers = loadOnce(async () => new AnswerStore((await services()).store));
  const asked = askedReports(services);
  const limits = options.streamLimits ?? settingsLimits;

  /**
   * The model reader and Gemini's tool calls, when the setting asks for them: loaded on the first
   * question that needs them, so an offline deployment's cold start never loads the question
   * schemas or the SDK. The calls are built once.
   */
  const model = loadOnce(async () => {
    const [{ modelReader }, { geminiToolCaller }] = await Promise.all([
      import('../chat/model/model-reader.js'),
      import('../chat/model/gemini-tool-call.js'),
    ]);
    const callTool =
      options.callModel ??
      geminiToolCaller({ project: config.runtimeProjectId(), location: config.chatModelLocation, model: config.chatModel() });
    return { modelReader, callTool };
  });
  const readerFor = (history: ReportDays, requestId: string): ReadQuestion => {
    const offline = offlineReader(history);
    if (config.chatProvider() !== 'vertex-gemini') return offline;
    return async (input) => {
      const { modelReader, callTool } = await model();
      const read = modelReader({
        callTool,
        fallback: offline,
        timeoutMs: config.chatModelTimeoutMs(),
        onFallback: (reason) => logs.chatReaderFellBack(requestId, `vertex-gemini:${config.chatModel()}`, reason),
      });
      return read(input);
    };
  };

  const stream = (id: string, events: Parameters<typeof fixedFeed>[0], afterId: number, context: RequestContext) =>
    new EventStream(`chat ${id}`, fixedFeed(events), afterId, limits(throughBufferingProxy(context)));

  return createFamily(
    'chat',
    {
      chat: async ({ body }, context) => {
        const s = await services();
        const stored = await (body.date === undefined
          ? asked.reports.today(s)
          : asked.reports.get(s, body.date, { in: 'body', pointer: '/date' }));
        const question = {
          message: body.message,
          history: body.history ?? [],
          report: stored.report,
          catalog: s.catalog,
          ...(await asked.of(stored)),
        };
        const composed = await answerQuestion({ ...question, read: readerFor(question.days, context.requestId) });
        const answer: ChatAnswer = { id: newAnswerId(s.now()), date: stored.date, ...composed };
        if (!acceptsEventStream(context.header('accept'))) return { status: 200, body: answer };
        const events = await (await answers()).save(answer);
        return {
          status: 200,
          body: stream(answer.id, events, 0, context),
          headers: { 'Content-Location': `/api/chat/messages/${answer.id}/events` },
        };
      },

      streamChatAnswer: async ({ path, query, headers }, context) => {
        const events = await (await answers()).events(path.id);
        if (!events) {
          throw new ApiProblem('chat_message_not_found', `There is no answer ${path.id}; ask the question again.`);
        }
        const afterId = resumePoint(headers['Last-Event-ID'], query.lastEventId, events.length, 'answer');
        if (afterId === events.length) return { status: 204, body: undefined };
        return { status: 200, body: stream(path.id, events, afterId, context) };
      },
    },
    options,
  );
}

export const handler = createChatFamily();
