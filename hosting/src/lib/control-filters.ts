/**
 * The control list's filters as they live in the address bar (`?status=failing&family=IAM&framework=CC6.1`),
 * so a filtered list is a link. The server does the filtering (`GET /api/controls` takes the same names).
 */

export interface ControlFilters {
  status: string;
  family: string;
  framework: string;
}

export function filtersFrom(query: URLSearchParams): ControlFilters {
  return { status: query.get('status') ?? '', family: query.get('family') ?? '', framework: query.get('framework') ?? '' };
}

export function queryOf(filters: ControlFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value.trim()) query.set(name, value.trim());
  return query;
}
