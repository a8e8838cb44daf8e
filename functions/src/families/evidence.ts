/** The `evidence` family: ingest from collectors (under a collection run or not), and reading what was ingested. */
import type { EvidenceInput } from '../assessment/model.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import * as config from '../config.js';
import type { IngestOutcome } from '../evidence/evidence-store.js';
import { listEvidence } from '../evidence/evidence-listing.js';
import { readScan } from '../evidence/ocsf-import.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { rethrowAsProblem } from '../http/domain-problems.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { logs } from '../logs.js';
import { RunStore } from '../runs/run-store.js';
import { ObjectNotFound } from '../storage/object-store.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type EvidenceFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Hours a collection run stays open; `RUN_ABANDON_HOURS` unless a test says otherwise. */
    abandonHours?: () => number;
  };

export function createEvidenceFamily(options: EvidenceFamilyOptions = {}) {
  const services = servicesFrom(options);
  // Batches never complete a run, so the drop threshold is read here only to build the store.
  const runs = loadOnce(
    async () =>
      new RunStore((await services()).store, options.abandonHours ?? config.runAbandonHours, config.populationDropPercent),
  );

  return createFamily(
    'evidence',
    {
      ingestEvidence: (input, context) => ingest(services, runs, input, context),

      importOcsfFindings: async ({ body }, context) => {
        const s = await services();
        // Refusals (a finding that cannot be read, a file over the limits, a conflict) become problems in the core (domain-problems.ts).
        const scan = readScan(body);
        // One ingest for the whole file: every item is checked, and every claim decided, before
        // anything is written, so a refusal stores nothing. The ids are the findings', so a
        // retry after a failure stores nothing twice.
        const outcomes = scan.items.length === 0 ? [] : await s.evidence.ingest(scan.items, { receivedAt: s.now() });
        const created = outcomes.filter((outcome) => outcome.status === 'created').length;
        const existing = scan.items.length - created;
        logs.evidenceIngested(context.requestId, created, existing);
        return {
          status: created > 0 ? 201 : 200,
          body: { findings: scan.findings, items: scan.items.length, created, existing },
        };
      },

      listEvidence: async ({ query }) => {
        const s = await services();
        let control: { id: string; kinds: string[] } | undefined;
        if (query.control) {
          const found = s.catalog.controls.find((candidate) => candidate.id === query.control);
          if (!found) throw invalidRequest([{ in: 'query', name: 'control', message: 'names no control in the catalog' }]);
          control = { id: found.id, kinds: found.evidence.map((requirement) => requirement.kind) };
        }
        const after = placeOf('evidence', query.cursor);
        const page = await listEvidence(s.store, s.evidence, {
          ...(query.kind ? { kind: query.kind } : {}),
          ...(query.subject !== undefined ? { subject: query.subject } : {}),
          ...(query.source !== undefined ? { source: query.source } : {}),
          ...(control ? { control } : {}),
          ...(query.from ? { from: Date.parse(query.from) } : {}),
          ...(query.to ? { to: Date.parse(query.to) } : {}),
          limit: query.limit,
          ...(after !== undefined ? { after } : {}),
        });
        return { status: 200, body: pageBody('evidence', page) };
      },

      getEvidence: async ({ path }) => {
        const s = await services();
        try {
          return { status: 200, body: await s.evidence.get(path.id) };
        } catch (error) {
          if (error instanceof ObjectNotFound)
            throw new ApiProblem('evidence_not_found', `No evidence item has the id "${path.id}".`);
          throw error;
        }
      },
    },
    options,
  );
}

/** Stores a batch, under its collection run when it names one: checked against the run first, counted for it after. */
async function ingest(
  services: () => MaybePromise<Services>,
  runs: () => MaybePromise<RunStore>,
  { headers, query, body }: OperationInput<'ingestEvidence'>,
  context: RequestContext,
): Promise<OperationResult<'ingestEvidence'>> {
  const s = await services();
  const batch = body as { items: EvidenceInput[] } | EvidenceInput;
  const isBatch = 'items' in batch;
  const inputs = isBatch ? batch.items : [batch];
  const refuse = rethrowAsProblem(isBatch ? { items: '/items' } : {});
  const receivedAt = s.now();
  if (query.run) await (await runs()).admit(query.run, inputs, receivedAt).catch(refuse);
  const outcomes = await s.evidence
    .ingest(inputs, {
      receivedAt,
      ...(headers['Idempotency-Key'] ? { idempotencyKey: headers['Idempotency-Key'] } : {}),
      ...(query.run ? { extra: { runId: query.run } } : {}),
    })
    .catch(refuse);
  if (query.run) await (await runs()).recordBatch(query.run, receivedItems(inputs, outcomes));
  const created = outcomes.filter((outcome) => outcome.status === 'created').length;
  logs.evidenceIngested(context.requestId, created, outcomes.length - created);
  return { status: created > 0 ? 201 : 200, body: { items: outcomes } };
}

/** The items of a batch as its run's receipt names them: the ids they were stored (or found) under. */
function receivedItems(inputs: readonly EvidenceInput[], outcomes: readonly IngestOutcome[]) {
  return inputs.map((input, index) => ({ id: outcomes[index]!.id, kind: input.kind, subject: input.subject }));
}

export const handler = createEvidenceFamily();
