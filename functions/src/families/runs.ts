/**
 * The `runs` family: collection runs (runs/run-store.ts). A collector opens a run, sends its
 * batches to `POST /api/evidence?run=<id>` (families/evidence.ts), and completes it with its
 * counts; a run that ends incomplete — counts that disagree, or cancelled — is announced to
 * webhooks as `source.run_incomplete`, and a complete run's population drops (run-store.ts) as
 * `population.dropped`, one per kind, until someone acknowledges them. A run abandoned (never completed) is not announced: it
 * is found incomplete from the clock when read, and nothing runs at the moment it expires.
 */
import { cloudTaskQueue, type NamedTaskQueue } from '../common/cloud-tasks.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { logs } from '../logs.js';
import { runKey } from '../runs/run-layout.js';
import { RunStore, type CollectionRun } from '../runs/run-store.js';
import { WebhookDispatcher, deliveryFunctionName, type DeliveryTask } from '../webhooks/webhook-dispatch.js';
import { populationDropped, runIncomplete } from '../webhooks/webhook-events.js';
import { WebhookStore } from '../webhooks/webhook-store.js';
import { idOfKey } from '../storage/newest-first.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type RunsFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Where webhook deliveries are queued; Cloud Tasks unless a test delivers in process. */
    queue?: () => NamedTaskQueue<DeliveryTask>;
    /** Hours a run stays open; `RUN_ABANDON_HOURS` unless a test says otherwise. */
    abandonHours?: () => number;
    /** Percent a population may shrink before it is a drop; `POPULATION_DROP_PERCENT` unless a test says otherwise. */
    dropPercent?: () => number;
  };

export function createRunsFamily(options: RunsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const deps = loadOnce(async () => {
    const s = await services();
    const queue = (options.queue ?? (() => cloudTaskQueue<DeliveryTask>(deliveryFunctionName)))();
    return {
      s,
      runs: new RunStore(
        s.store,
        options.abandonHours ?? config.runAbandonHours,
        options.dropPercent ?? config.populationDropPercent,
      ),
      dispatcher: new WebhookDispatcher(new WebhookStore(s.store), queue, s.now),
    };
  });

  /** Logs how a run ended and announces it when incomplete or its population dropped; a queue that refuses does not undo the end. */
  const ended = async (run: CollectionRun): Promise<CollectionRun> => {
    logs.collectionRunEnded(run.id, run.source, run.status, run.incompleteReason);
    const { s, dispatcher } = await deps();
    const events =
      run.status === 'complete'
        ? (run.drops ?? []).map((drop) => populationDropped(run, drop, s.now()))
        : [runIncomplete(run, s.now())];
    if (events.length === 0) return run;
    await dispatcher.announce(events).catch((error: unknown) => {
      logs.collectionRunAnnounceFailed(run.id, error);
    });
    return run;
  };

  return createFamily(
    'runs',
    {
      openCollectionRun: async ({ body }, context) => {
        const { s, runs } = await deps();
        const run = await runs.open({ source: body.source, kinds: body.kinds, openedBy: actorOf(context.caller) }, s.now());
        return { status: 201, body: run, headers: { Location: `/api/runs/${run.id}` } };
      },
      listCollectionRuns: async ({ query }) => {
        const { s, runs } = await deps();
        const after = placeOf('runs', query.cursor, (place) => runKey(idOfKey(place)) === place);
        const page = await runs.page({ source: query.source, limit: query.limit, ...(after ? { after } : {}) }, s.now());
        return { status: 200, body: pageBody('runs', page) };
      },
      listCollectionSources: async ({ query }) => {
        const { s, runs } = await deps();
        const after = placeOf('sources', query.cursor);
        const page = await runs.sources({ limit: query.limit, ...(after ? { after } : {}) }, s.now());
        return { status: 200, body: pageBody('sources', page) };
      },
      listCollectionPopulations: async ({ query }) => {
        const { runs } = await deps();
        const page = await runs.populations(populationsQuery(query));
        return { status: 200, body: pageBody('populations', page) };
      },
      getCollectionRun: async ({ path }) => {
        const { s, runs } = await deps();
        return { status: 200, body: await runs.get(path.id, s.now()) };
      },
      completeCollectionRun: async ({ path, body }, context) => {
        const { s, runs } = await deps();
        const run = await runs.complete(path.id, body.counts, actorOf(context.caller), s.now());
        return { status: 200, body: await ended(run) };
      },
      acknowledgeCollectionRunDrop: async ({ path, body }, context) => {
        const { s, runs } = await deps();
        const by = actorOf(context.caller);
        return { status: 200, body: await runs.acknowledgeDrop(path.id, path.kind, { by, reason: body.reason }, s.now()) };
      },
      cancelCollectionRun: async ({ path, body }, context) => {
        const { s, runs } = await deps();
        const run = await runs.cancel(path.id, body?.reason, actorOf(context.caller), s.now());
        return { status: 200, body: await ended(run) };
      },
    },
    options,
  );
}

/**
 * A populations listing's query as the store takes it: the cursor's place, whose id must be a
 * run's, and `since`, a day, from its first moment (UTC).
 */
function populationsQuery(query: { source: string; kind: string; limit: number; since?: string; cursor?: string }) {
  const after = placeOf('populations', query.cursor, (place) => runKey(idOfKey(place)) !== undefined);
  return {
    source: query.source,
    kind: query.kind,
    limit: query.limit,
    ...(after ? { after } : {}),
    ...(query.since !== undefined ? { since: Date.parse(`${query.since}T00:00:00Z`) } : {}),
  };
}

export const handler = createRunsFamily();
