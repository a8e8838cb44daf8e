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
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { describeRunFailure } from '../http/domain-problems.js';
import {
  EventStream,
  resumePoint,
  settingsLimits,
  throughBufferingProxy,
  wantsJson,
  type StreamLimits,
} from '../http/event-stream.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { idOfKey } from '../storage/newest-first.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type AnalysesFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Where runs are sent; Cloud Tasks unless a test hands runs to an in-process worker. */
    queue?: () => RunQueue;
    /** Stream limits; from the settings unless a test says otherwise. */
    streamLimits?: (buffered: boolean) => StreamLimits;
  };

/** Seconds a client is asked to wait before retrying when the queue refused a run. */
const queueRetryAfterSeconds = 5;

/** What the handlers share: the services, the run store and the queue (each opened on first use), and the stream limits. */
interface AnalysesDependencies {
  services: () => MaybePromise<Services>;
  analyses: () => MaybePromise<AnalysisStore>;
  queue: () => RunQueue;
  limits: (buffered: boolean) => StreamLimits;
}

export function createAnalysesFamily(options: AnalysesFamilyOptions = {}) {
  const services = servicesFrom(options);
  const analyses = loadOnce(async () => new AnalysisStore((await services()).store, { describeFailure: describeRunFailure }));
  let runQueue: RunQueue | undefined;
  const queue = () => (runQueue ??= (options.queue ?? cloudTasksQueue)());
  const deps: AnalysesDependencies = { services, analyses, queue, limits: options.streamLimits ?? settingsLimits };

  return createFamily(
    'analyses',
    {
      startAnalysis: (input, context) => startAnalysis(deps, input, context),
      listAnalyses: (input) => listAnalyses(deps, input),
      getAnalysis: async ({ path }) => ({ status: 200, body: await describeOrThrow(deps, path.id) }),
      cancelAnalysis: (input, context) => cancelAnalysis(deps, input, context),
      streamAnalysisEvents: (input, context) => streamAnalysisEvents(deps, input, context),
    },
    options,
  );
}

async function describeOrThrow({ services, analyses }: AnalysesDependencies, id: string): Promise<Analysis> {
  const analysis = await (await analyses()).describe(id, (await services()).now());
  if (!analysis) throw new ApiProblem('analysis_not_found', `There is no analysis ${id}. GET /api/analyses lists recent runs.`);
  return analysis;
}

async function startAnalysis(
  deps: AnalysesDependencies,
  { headers, body }: OperationInput<'startAnalysis'>,
  context: RequestContext,
): Promise<OperationResult<'startAnalysis'>> {
  const s = await deps.services();
  const request: Partial<AnalysisRequest> = body ?? {};
  const { date, publish } = checkRunRequest(s, request);
  const store = await deps.analyses();
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
  const analysis = await describeOrThrow(deps, record.id);
  // A retried request re-queues a run that never started; the queue drops the duplicate.
  if (analysis.state === 'queued') {
    await enqueueRun(deps.queue, record.id);
    logs.analysisQueued(context.requestId, record.id, record.controls?.length ?? 'all', publish);
  }
  return { status: 202, body: analysis, headers: { Location: analysisLinks(record.id).self } };
}

/** The day to analyse and whether to publish, once the controls exist, the day is not ahead and only today is republished. */
function checkRunRequest(s: Services, request: Partial<AnalysisRequest>): { date: string; publish: boolean } {
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
    throw invalidRequest([{ in: 'body', pointer: '/date', message: `is in the future; today is ${today} (${s.timeZone()})` }]);
  }
  const publish = request.publish ?? false;
  if (publish && date !== today) {
    throw new ApiProblem(
      'report_immutable',
      `The report of ${date} is a past day's and never changes; only today's (${today}) can be republished.`,
    );
  }
  return { date, publish };
}

/** Hands a recorded run to the queue; a refusal becomes a retryable problem, the run staying recorded. */
async function enqueueRun(queue: () => RunQueue, id: string): Promise<void> {
  try {
    await queue().enqueue(id);
  } catch (error) {
    logs.analysisQueueFailed(id, error);
    throw new ApiProblem(
      'queue_unavailable',
      `The analysis ${id} is recorded but the task queue did not take it; retry with the same Idempotency-Key.`,
      { headers: { 'Retry-After': String(queueRetryAfterSeconds) } },
    );
  }
}

async function listAnalyses(
  { services, analyses }: AnalysesDependencies,
  { query }: OperationInput<'listAnalyses'>,
): Promise<OperationResult<'listAnalyses'>> {
  const after = placeOf('analyses', query.cursor, (place) => runKey(idOfKey(place)) === place);
  const page = await (
    await analyses()
  ).page({
    limit: query.limit,
    now: (await services()).now(),
    ...(after !== undefined ? { after } : {}),
  });
  return { status: 200, body: pageBody('analyses', page) };
}

async function cancelAnalysis(
  deps: AnalysesDependencies,
  { path }: OperationInput<'cancelAnalysis'>,
  context: RequestContext,
): Promise<OperationResult<'cancelAnalysis'>> {
  const s = await deps.services();
  await describeOrThrow(deps, path.id);
  await (await deps.analyses()).cancel(path.id, context.caller?.uid, s.now);
  return { status: 200, body: await describeOrThrow(deps, path.id) };
}

/** The run's events after the resume point: as JSON when asked, else as a stream (or 204 when nothing is left). */
async function streamAnalysisEvents(
  deps: AnalysesDependencies,
  { path, query, headers }: OperationInput<'streamAnalysisEvents'>,
  context: RequestContext,
): Promise<OperationResult<'streamAnalysisEvents'>> {
  const analysis = await describeOrThrow(deps, path.id);
  const afterId = resumePoint(headers['Last-Event-ID'], query.lastEventId, analysis.lastEventId, 'run');
  const log = (await deps.analyses()).log(path.id);
  if (wantsJson(context.header('accept'))) {
    return { status: 200, body: { events: log.events.slice(afterId) as AnalysisEvent[], ended: log.ended } };
  }
  if (log.ended && afterId === log.lastId) return { status: 204, body: undefined };
  return {
    status: 200,
    body: new EventStream(`analysis ${path.id}`, log, afterId, deps.limits(throughBufferingProxy(context))),
  };
}

export const handler = createAnalysesFamily();
