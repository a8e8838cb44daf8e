/**
 * The control list's filters as they live in the address bar
 * (`?status=failing&family=IAM&framework=CC6.1&overdue=true`), so a filtered list is a link. The
 * server filters by status, family and framework (`GET /api/controls` takes the same names); the
 * page itself keeps the overdue ones, as the answer already says which those are.
 */
import type { QueryOf } from './api-types.ts';
import type { ControlStatus } from './format.ts';

export interface ControlFilters {
  status: string;
  family: string;
  framework: string;
  /** Only controls past their due date in the newest report. */
  overdue: boolean;
}

export function filtersFrom(query: URLSearchParams): ControlFilters {
  return {
    status: query.get('status') ?? '',
    family: query.get('family') ?? '',
    framework: query.get('framework') ?? '',
    overdue: query.get('overdue') === 'true',
  };
}

/** What the API is asked to filter by. */
export function apiQueryOf({ status, family, framework }: ControlFilters): QueryOf<'listControls'> {
  return {
    // The address may hold any status; the server answers for one that is not.
    status: (status.trim() || undefined) as ControlStatus | undefined,
    family: family.trim() || undefined,
    framework: framework.trim() || undefined,
  };
}

/** The address's query: the API's filters, and the page's own. */
export function queryOf(filters: ControlFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(apiQueryOf(filters))) if (value) query.set(name, value);
  if (filters.overdue) query.set('overdue', 'true');
  return query;
}

/** The controls of the API's answer the page shows. */
export const shownOf = <T extends { latest: { overdue?: boolean } | null }>(
  controls: readonly T[],
  filters: ControlFilters,
): T[] => (filters.overdue ? controls.filter((control) => control.latest?.overdue === true) : [...controls]);
