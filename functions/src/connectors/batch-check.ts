/**
 * A connector's batch judged as `POST /api/evidence` judges one: by the body validator the build
 * compiled from the description (the evidence family's route table), so a connector is held to
 * the same schema of each kind's data as any collector, from the one source of truth.
 */
import type { EvidenceInput } from '../assessment/model.js';
import type { RouteTable } from '../http/route-table.js';

const shownErrors = 3;

/** What is wrong with a batch, in words naming each item by kind and subject; undefined when nothing is. */
export function batchChecker(table: RouteTable): (items: readonly EvidenceInput[]) => string | undefined {
  const validate = table.operations.find((operation) => operation.operationId === 'ingestEvidence')?.validate.body;
  if (!validate) throw new Error('the evidence route table has no ingestEvidence body validator');
  return (items) => {
    if (validate({ items })) return undefined;
    // The leaves: an `if`/`then` error only says that a kind's data schema failed, which its own errors say better.
    const all = validate.errors ?? [];
    const leaves = all.filter((error) => error.keyword !== 'if');
    const errors = leaves.length > 0 ? leaves : all;
    return errors
      .slice(0, shownErrors)
      .map((error) => {
        const [, index, ...rest] = error.instancePath.split('/').slice(1);
        const item = items[Number(index)];
        const where = item ? `${item.kind} "${item.subject}"` : 'the batch';
        return `${where}: /${rest.join('/')} ${error.message ?? error.keyword}`;
      })
      .join('; ')
      .concat(errors.length > shownErrors ? ` (and ${errors.length - shownErrors} more)` : '');
  };
}
