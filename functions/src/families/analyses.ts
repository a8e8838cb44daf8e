/**
 * The `analyses` family: start a run (handed to the task queue, never run in the request),
 * list and read runs, cancel one, and follow its events as a resumable stream.
 */
import { dayIn } from '../assessment/dates.js';
import { AnalysisStore, runKey } from '../analyses/analysis-store.js';
import { analysisLinks, type Analysis, type AnalysisEvent, type AnalysisRequest } from '../analyses/analysis-model.js';
import { cloudTasksQueue, type RunQueue } from '../analyses/task-queue.js';
import { logs } from '../logs.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { describeRunFailure } from '../http/domain-problems.js';
import {
  EventStream,
  resumePoint,
  settingsLimits,
  throughBufferingProxy,
  wantsJson,
  type StreamLimits,
} from '../http/event-stream.js';
import { loadOnce } from '../common/maybe-async.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { idOfKey } from '../storage/newest-first.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type AnalysesFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Where runs are sent; Cloud Tasks unless a test hands runs to an in-process worker. */
    queue?: () => RunQueue;
    /** Stream limits; from the settings unless a test says otherwise. */
    streamLimits?: (buffered: boolean) => StreamLimits;
  };

/** Seconds a client is asked to wait before retrying when the queue refused a run. */
const queueRetryAfterSeconds = 5;

export function createAnalysesFamily(options: AnalysesFamilyOptions = {}) {
  const services = servicesFrom(options);
  const analyses = loadOnce(async () => new AnalysisStore((await services()).store, { describeFailure: describeRunFailure }));
  let runQueue: RunQueue | undefined;
  const queue = () => (runQueue ??= (options.queue ?? cloudTasksQueue)());
  const limits = options.streamLimits ?? settingsLimits;

  async function describeOrThrow(id: string): Promise<Analysis> {
    const analysis = await (await analyses()).describe(id, (await services()).now());
    if (!analysis) throw new ApiProblem('analysis_not_found', `There is no analysis ${id}. GET /api/analyses lists recent runs.`);
    return analysis;
  }

  return createFamily(
    'analyses',
    {
      startAnalysis: async ({ headers, body }, context) => {
        const s = await services();
        const request: Partial<AnalysisRequest> = body ?? {};
        const known = new Set(s.catalog.controls.map((control) => control.id));
        const unknown = (request.controls ?? []).flatMap((id, index) =>
          known.has(id)
            ? []
            : [{ in: 'body' as const, pointer: `/controls/${index}`, message: `"${id}" is not a control in the catalog` }],
        );
        if (unknown.length > 0) throw invalidRequest(unknown);
        const today = dayIn(s.timeZone(), s.now());
        const date = request.date ?? today;
        if (date > today) {
          throw invalidRequest([
            { in: 'body', pointer: '/date', message: `is in the future; today is ${today} (${s.timeZone()})` },
          ]);
        }
        const publish = request.publish ?? false;
        if (publish && date !== today) {
          throw new ApiProblem(
            'report_immutable',
            `The report of ${date} is a past day's and never changes; only today's (${today}) can be republished.`,
          );
        }
        const store = await analyses();
        const { record } = await store.create(
          {
            date,
            controls: request.controls ? [...request.controls] : null,
            publish,
            createdBy: actorOf(context.caller),
          },
          {
            now: s.now(),
            asSent: { date: request.date ?? null, controls: request.controls ?? null, publish },
            ...(headers['Idempotency-Key'] ? { idempotencyKey: headers['Idempotency-Key'] } : {}),
          },
        );
        const analysis = await describeOrThrow(record.id);
        // A retried request re-queues a run that never started; the queue drops the duplicate.
        if (analysis.state === 'queued') {
          try {
            await queue().enqueue(record.id);
          } catch (error) {
            logs.analysisQueueFailed(record.id, error);
            throw new ApiProblem(
              'queue_unavailable',
              `The analysis ${record.id} is recorded but the task queue did not take it; retry with the same Idempotency-Key.`,
              { headers: { 'Retry-After': String(queueRetryAfterSeconds) } },
            );
          }
          logs.analysisQueued(context.requestId, record.id, record.controls?.length ?? 'all', publish);
        }
        return { status: 202, body: analysis, headers: { Location: analysisLinks(record.id).self } };
      },

      listAnalyses: async ({ query }) => {
        const after = placeOf('analyses', query.cursor, (place) => runKey(idOfKey(place)) === place);
        const page = await (
          await analyses()
        ).page({
          limit: query.limit ?? 20,
          now: (await services()).now(),
          ...(after !== undefined ? { after } : {}),
        });
        return { status: 200, body: pageBody('analyses', page) };
      },

      getAnalysis: async ({ path }) => ({ status: 200, body: await describeOrThrow(path.id) }),

      cancelAnalysis: async ({ path }, context) => {
        const s = await services();
        await describeOrThrow(path.id);
        await (await analyses()).cancel(path.id, context.caller?.uid, s.now);
        return { status: 200, body: await describeOrThrow(path.id) };
      },

      streamAnalysisEvents: async ({ path, query, headers }, context) => {
        const analysis = await describeOrThrow(path.id);
        const afterId = resumePoint(headers['Last-Event-ID'], query.lastEventId, analysis.lastEventId, 'run');
        const log = (await analyses()).log(path.id);
        if (wantsJson(context.header('accept'))) {
          return { status: 200, body: { events: log.events.slice(afterId) as AnalysisEvent[], ended: log.ended } };
        }
        if (log.ended && afterId === log.lastId) return { status: 204, body: undefined };
        return {
          status: 200,
          body: new EventStream(`analysis ${path.id}`, log, afterId, limits(throughBufferingProxy(context))),
        };
      },
    },
    options,
  );
}

export const handler = createAnalysesFamily();
