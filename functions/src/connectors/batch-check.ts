/**
 * A connector's batch judged as `POST /api/evidence` judges one: by the body validator the build
 * compiled from the description (the evidence family's route table), so a connector is held to
 * the same schema of each kind's data as any collector, from the one source of truth.
 */
import type { EvidenceInput } from '../assessment/model.js';

/** A compiled body validator, as Ajv makes one (the evidence family's route table holds it). */
export interface BodyValidator {
  (data: unknown): boolean;
  errors?: { instancePath: string; keyword: string; message?: string }[] | null;
}

const shownErrors = 3;

/** What is wrong with a batch, in words naming each item by kind and subject; undefined when nothing is. */
export function batchChecker(validate: BodyValidator): (items: readonly EvidenceInput[]) => string | undefined {
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
