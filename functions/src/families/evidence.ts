/** The `evidence` family: ingest from collectors, and reading what was ingested. */
import type { EvidenceInput, EvidenceItem } from '../assessment/model.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { logs } from '../logs.js';
import { ObjectNotFound } from '../storage/object-store.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type EvidenceFamilyOptions = FamilyOptions & ServiceOptions;

type Position = [collectedAt: string, id: string];

/** Newest first; ties broken by id so every item has one place in the order. */
function compare(a: EvidenceItem, b: EvidenceItem): number {
  if (a.collectedAt !== b.collectedAt) return Date.parse(b.collectedAt) - Date.parse(a.collectedAt);
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function encodeCursor(item: EvidenceItem): string {
  return Buffer.from(JSON.stringify([item.collectedAt, item.id] satisfies Position)).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(position) && position.length === 2 && position.every((part) => typeof part === 'string')) {
      if (!Number.isNaN(Date.parse(position[0] as string))) return position as Position;
    }
  } catch {
    // reported below
  }
  throw invalidRequest([{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }]);
}

export function createEvidenceFamily(options: EvidenceFamilyOptions = {}) {
  const services = servicesFrom(options);

  return createFamily(
    'evidence',
    {
      ingestEvidence: async ({ headers, body }, context) => {
        const s = await services();
        const batch = body as { items: EvidenceInput[] } | EvidenceInput;
        const isBatch = 'items' in batch;
        const inputs = isBatch ? batch.items : [batch];
        const outcomes = await s.evidence.ingest(inputs, {
          receivedAt: s.now(),
          ...(headers['Idempotency-Key'] ? { idempotencyKey: headers['Idempotency-Key'] } : {}),
          pointer: (index) => (isBatch ? `/items/${index}` : ''),
        });
        const created = outcomes.filter((outcome) => outcome.status === 'created').length;
        logs.evidenceIngested(context.requestId, created, outcomes.length - created);
        return { status: created > 0 ? 201 : 200, body: { items: outcomes } };
      },

      listEvidence: async ({ query }) => {
        const s = await services();
        let kinds: Set<string> | undefined;
        if (query.control) {
          const control = s.catalog.controls.find((candidate) => candidate.id === query.control);
          if (!control) {
            throw invalidRequest([{ in: 'query', name: 'control', message: 'names no control in the catalog' }]);
          }
          kinds = new Set(control.evidence.map((requirement) => requirement.kind));
        }
        const from = query.from ? Date.parse(query.from) : -Infinity;
        const to = query.to ? Date.parse(query.to) : Infinity;
        const after = query.cursor ? decodeCursor(query.cursor) : undefined;
        const limit = query.limit ?? 50;
        const matching = (await s.evidence.all())
          .filter((item) => !query.kind || item.kind === query.kind)
          .filter((item) => query.subject === undefined || item.subject === query.subject)
          .filter((item) => {
            if (!kinds) return true;
            if (item.kind === 'attestation') return item.controls?.includes(query.control!) ?? false;
            return kinds.has(item.kind);
          })
          .filter((item) => {
            const collected = Date.parse(item.collectedAt);
            return collected >= from && collected < to;
          })
          .sort(compare);
        const start = after
          ? matching.findIndex((item) => compare(item, { collectedAt: after[0], id: after[1] } as EvidenceItem) > 0)
          : 0;
        const page = start === -1 ? [] : matching.slice(start, start + limit);
        const more = start !== -1 && start + limit < matching.length;
        return {
          status: 200,
          body: { items: page, ...(more && page.length > 0 ? { nextCursor: encodeCursor(page[page.length - 1]!) } : {}) },
        };
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

export const handler = createEvidenceFamily();
