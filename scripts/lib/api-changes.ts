/**
 * What changed in the API between two OpenAPI descriptions, and the semantic-version bump that
 * asks for. api-smart-diff finds and classifies the changes (it resolves `$ref`s, so a change to
 * a shared schema shows up at every operation that uses it); this module applies the project's
 * rules on top:
 *
 *   breaking change to a stable operation          major
 *   breaking change to an `x-beta` operation       minor (beta operations may change)
 *   an addition, or a deprecation                  minor
 *   a new value of an enumeration in an answer     minor (clients are told to expect them), with
 *                                                  the bound of a map keyed by that enumeration
 *   anything else (descriptions, examples, …)      patch
 *   outside the operations (components, info)      patch: judged where it reaches an operation
 *
 * An operation's stability is the baseline's: marking a stable operation `x-beta` is itself a
 * breaking change. And nothing stable is removed that the baseline had not marked
 * `deprecated: true`, so clients hear of a removal at least one release before it happens.
 */
import { apiCompare, type Diff } from 'api-smart-diff';

export type Bump = 'major' | 'minor' | 'patch';

const bumpOrder: readonly Bump[] = ['patch', 'minor', 'major'];

/** An OpenAPI description, as far as this module reads it. */
export type Document = {
  info: { version: string } & Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

export interface ApiChange {
  /** `GET /api/report/today`, or undefined for a change outside the operations (components, info). */
  operation: string | undefined;
  beta: boolean;
  kind: 'added' | 'changed' | 'deprecated' | 'removed';
  breaking: boolean;
  description: string;
  /** Where in the description, as a JSON pointer. */
  pointer: string;
  /** What was removed, for a removal. */
  removed?: unknown;
  requires: Bump;
}

const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function pointerOf(path: readonly (string | number)[]): string {
  return '/' + path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/** The operations a diff at `path` concerns: one, or every operation of a path added or removed whole. */
function operationsAt(path: readonly (string | number)[], before: Document, after: Document): { name: string; beta: boolean }[] {
  if (path[0] !== 'paths' || path.length < 2) return [];
  const template = String(path[1]);
  const item = (before.paths[template] ?? after.paths[template] ?? {}) as Record<string, { 'x-beta'?: boolean }>;
  const named =
    path.length >= 3 && methods.has(String(path[2])) ? [String(path[2])] : Object.keys(item).filter((key) => methods.has(key));
  return named.map((method) => {
    const baseline = before.paths[template]?.[method] as { 'x-beta'?: boolean } | undefined;
    const current = after.paths[template]?.[method] as { 'x-beta'?: boolean } | undefined;
    return { name: `${method.toUpperCase()} ${template}`, beta: (baseline ?? current)?.['x-beta'] === true };
  });
}

function kindOf(diff: Diff): ApiChange['kind'] {
  if (diff.type === 'deprecated') return 'deprecated';
  if (diff.action === 'add') return 'added';
  if (diff.action === 'remove') return 'removed';
  return 'changed';
}

/** Whether a removed part (a field, a parameter, a list of parameters) was marked deprecated. */
function wasDeprecated(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(wasDeprecated);
  return (value as { deprecated?: unknown } | null)?.deprecated === true;
}

/**
 * Whether a change to an operation can break a client. api-smart-diff calls the removal of a
 * deprecated part non-breaking; it still breaks whoever uses it, which a deprecation only warned
 * about. A shared definition's change shows at every operation it reaches and is judged there;
 * by itself (components, info, tags) it is documentation.
 */
function isBreaking(diff: Diff, becameBeta: boolean, grown: ReadonlySet<string>): boolean {
  if (diff.path[0] !== 'paths' || isAnswerEnumGrowth(diff) || isBoundOfGrownNames(diff, grown)) return false;
  return diff.type === 'breaking' || becameBeta || (diff.action === 'remove' && wasDeprecated(diff.before));
}

/**
 * A value added to an enumeration in an answer (an evidence kind, a finding's outcome).
 * api-smart-diff calls it breaking, since a client that assumed the list was closed may fail on
 * it; docs/api-versions.md tells clients to expect new values, so the catalog of kinds and
 * outcomes can grow within a major version.
 */
function isAnswerEnumGrowth(diff: Diff): boolean {
  return diff.action === 'add' && diff.path.includes('responses') && diff.path.at(-2) === 'enum';
}

/**
 * An answer's `maxProperties` raised to follow its `propertyNames` enumeration (a map keyed by
 * evidence kind allows one entry per kind): the same growth as the new name itself, which
 * `grown` holds, by the pointer of the object whose names grew.
 */
function isBoundOfGrownNames(diff: Diff, grown: ReadonlySet<string>): boolean {
  if (diff.action !== 'replace' || diff.path.at(-1) !== 'maxProperties' || !diff.path.includes('responses')) return false;
  return Number(diff.after) > Number(diff.before) && grown.has(pointerOf(diff.path.slice(0, -1)));
}

/** The objects of answers whose `propertyNames` enumeration gained a value, by pointer. */
function objectsWithGrownNames(diffs: readonly Diff[]): Set<string> {
  return new Set(
    diffs
      .filter((diff) => isAnswerEnumGrowth(diff) && diff.path.at(-3) === 'propertyNames')
      .map((diff) => pointerOf(diff.path.slice(0, -3))),
  );
}

function requirement(diff: Diff, breaking: boolean, beta: boolean): Bump {
  if (breaking) return beta ? 'minor' : 'major';
  if (diff.path[0] !== 'paths') return 'patch';
  if (diff.type === 'deprecated') return 'minor';
  if (diff.action === 'add' && (diff.type === 'non-breaking' || isAnswerEnumGrowth(diff))) return 'minor';
  return 'patch';
}

/** Every change from `before` to `after`, with the bump each requires. The version number itself is not a change. */
export function apiChanges(before: Document, after: Document): ApiChange[] {
  const { diffs } = apiCompare(before, after);
  const changes: ApiChange[] = [];
  const grown = objectsWithGrownNames(diffs);
  for (const diff of diffs) {
    if (diff.path[0] === 'info' && diff.path[1] === 'version') continue;
    const pointer = pointerOf(diff.path);
    const becameBeta = diff.path.at(-1) === 'x-beta' && diff.after === true && diff.path.length === 4;
    const breaking = isBreaking(diff, becameBeta, grown);
    const operations = operationsAt(diff.path, before, after);
    const description = diff.description || `${diff.action} ${pointer}`;
    for (const operation of operations.length > 0 ? operations : [undefined]) {
      const beta = operation?.beta ?? false;
      changes.push({
        operation: operation?.name,
        beta,
        kind: kindOf(diff),
        breaking,
        description: becameBeta ? '[Changed] the operation from stable to beta (x-beta)' : description,
        pointer,
        ...(diff.action === 'remove' ? { removed: diff.before } : {}),
        requires: requirement(diff, breaking, beta),
      });
    }
  }
  return changes;
}

/** The largest bump `changes` require, or undefined when there are none. */
export function requiredBump(changes: readonly ApiChange[]): Bump | undefined {
  let required: Bump | undefined;
  for (const change of changes) {
    if (!required || bumpOrder.indexOf(change.requires) > bumpOrder.indexOf(required)) required = change.requires;
  }
  return required;
}

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export function parseVersion(version: string): [number, number, number] {
  const match = semver.exec(version);
  if (!match) throw new Error(`"${version}" is not a version (MAJOR.MINOR.PATCH)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** `version` raised by `bump`: 1.4.2 → major 2.0.0, minor 1.5.0, patch 1.4.3. */
export function bumped(version: string, bump: Bump): string {
  const [major, minor, patch] = parseVersion(version);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** The bump from `from` to `to` (the largest part raised), undefined when they are equal; an error when `to` is lower. */
export function bumpBetween(from: string, to: string): Bump | undefined {
  const [a, b] = [parseVersion(from), parseVersion(to)];
  for (const [index, bump] of (['major', 'minor', 'patch'] as const).entries()) {
    if (b[index]! > a[index]!) return bump;
    if (b[index]! < a[index]!) throw new Error(`version ${to} is lower than the released ${from}`);
  }
  return undefined;
}

/** The node at `path` in `document`, following `$ref`s on the way, or undefined. */
function nodeAt(document: unknown, path: readonly (string | number)[]): unknown {
  const follow = (node: unknown): unknown => {
    for (let hops = 0; hops < 32; hops++) {
      const ref = (node as { $ref?: unknown } | null)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
      node = ref
        .slice(2)
        .split('/')
        .reduce<unknown>(
          (at, part) => (at as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')],
          document,
        );
    }
    return node;
  };
  let node = follow(document);
  for (const part of path) node = follow((node as Record<string | number, unknown> | undefined)?.[part]);
  return node;
}

/** Stable operations, parameters and fields removed without the baseline marking them `deprecated: true`. */
export function removalsWithoutDeprecation(before: Document, changes: readonly ApiChange[]): ApiChange[] {
  return changes.filter((change) => {
    if (change.kind !== 'removed' || !change.breaking || change.beta || !change.operation) return false;
    const path = change.pointer
      .slice(1)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (wasDeprecated(nodeAt(before, path.slice(0, 3))) || wasDeprecated(change.removed)) return false;
    // A name dropped from `required` goes with its property: deprecated there, or not at all.
    if (path.at(-2) === 'required') {
      const holder = nodeAt(before, path.slice(0, -2)) as { properties?: Record<string, unknown> } | undefined;
      return !wasDeprecated(holder?.properties?.[String(change.removed)]);
    }
    return true;
  });
}

export interface VersionCheck {
  baseline: string;
  current: string;
  changes: ApiChange[];
  required: Bump | undefined;
  /** What is wrong, one line each; empty when the version suits the changes. */
  problems: string[];
}

/** Whether `after`'s `info.version` is raised from `before`'s at least as far as their differences require. */
export function checkVersion(before: Document, after: Document): VersionCheck {
  const changes = apiChanges(before, after);
  const required = requiredBump(changes);
  const problems: string[] = [];
  const { version: baseline } = before.info;
  const { version: current } = after.info;
  let actual: Bump | undefined;
  try {
    actual = bumpBetween(baseline, current);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length === 0 && required && (!actual || bumpOrder.indexOf(actual) < bumpOrder.indexOf(required))) {
    problems.push(
      `the changes since ${baseline} require a ${required} release (at least ${bumped(baseline, required)}), ` +
        `not ${current}. Run: npm run release -- ${required}`,
    );
  }
  for (const change of removalsWithoutDeprecation(before, changes)) {
    problems.push(
      `${change.operation}: ${change.description} without being deprecated in ${baseline}; ` +
        'mark it `deprecated: true` for at least one minor release first',
    );
  }
  return { baseline, current, changes, required, problems };
}

/** The changes as lines for a person, the largest requirement first. */
export function describeChanges(changes: readonly ApiChange[]): string[] {
  return [...changes]
    .sort((a, b) => bumpOrder.indexOf(b.requires) - bumpOrder.indexOf(a.requires))
    .map(
      (change) =>
        `${change.requires.padEnd(5)} ${change.operation ?? change.pointer}${change.beta ? ' (beta)' : ''}: ${change.description}`,
    );
}
