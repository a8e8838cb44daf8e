/**
 * Compiles and runs the catalog's checks with a real CEL implementation (@bufbuild/cel).
 *
 * Each expression is parsed and planned once per run; evaluating it is then a call with the
 * evidence bound to `item`/`data` (an `each` check, per subject) or `items` (an `all` check).
 * Anything that is not `true` or `false` — a missing field, a type mismatch — is an error
 * outcome with CEL's message, never an exception.
 */
import { CelScalar, celEnv, isCelError, parse, plan, type CelResult } from '@bufbuild/cel';
import type { Check } from './model.js';

const environment = celEnv({ variables: { item: CelScalar.DYN, data: CelScalar.DYN, items: CelScalar.DYN } });

export type Program = (bindings: Record<string, unknown>) => CelResult;

export interface CompiledCheck {
  check: Check;
  test: Program;
  where?: Program;
}

export class CheckCompileError extends Error {
  readonly field: 'expression' | 'where';

  constructor(field: 'expression' | 'where', message: string) {
    super(message);
    this.field = field;
    this.name = 'CheckCompileError';
  }
}

function compileExpression(source: string, field: 'expression' | 'where'): Program {
  try {
    return plan(environment, parse(source)) as Program;
  } catch (error) {
    throw new CheckCompileError(field, `does not compile as CEL: ${(error as Error).message}`);
  }
}

/** A CEL filter over `item` and `data` on its own (a reconciliation's `where`). */
export const compileFilter = (source: string): Program => compileExpression(source, 'where');

export function compileCheck(check: Check): CompiledCheck {
  return {
    check,
    test: compileExpression(check.expression, 'expression'),
    ...(check.where ? { where: compileExpression(check.where, 'where') } : {}),
  };
}

export type Outcome = { outcome: 'pass' | 'fail' } | { outcome: 'error'; message: string };

/** Reads a CEL result as a check outcome. */
export function outcomeOf(result: CelResult): Outcome {
  if (result === true) return { outcome: 'pass' };
  if (result === false) return { outcome: 'fail' };
  if (isCelError(result)) return { outcome: 'error', message: result.message };
  return { outcome: 'error', message: `the expression gave ${typeof result}, not a boolean` };
}
