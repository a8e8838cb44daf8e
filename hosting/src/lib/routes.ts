/** Which page a path names. Pure, so it is tested without a browser. */
import { controlIdSource } from './control-ids.ts';

export type Route =
  | { name: 'today' }
  | { name: 'report'; date: string }
  | { name: 'controls' }
  | { name: 'control'; id: string }
  | { name: 'evidence' }
  | { name: 'evidence-item'; id: string }
  | { name: 'submit' }
  | { name: 'analyses' }
  | { name: 'analysis'; id: string }
  | { name: 'docs' }
  | { name: 'doc'; slug: string }
  | { name: 'not-found'; path: string };

/** Each page with a parameter: its path and what the parameter must look like (the API's patterns). */
const patterns: [RegExp, (match: string) => Route][] = [
  [/^\/reports\/(\d{4}-\d{2}-\d{2})$/, (date) => ({ name: 'report', date })],
  [new RegExp(`^/controls/(${controlIdSource})$`), (id) => ({ name: 'control', id })],
  [/^\/evidence\/([A-Za-z0-9][A-Za-z0-9_:-]{0,127})$/, (id) => ({ name: 'evidence-item', id })],
  [/^\/analyses\/(an-\d{17}-[0-9a-f]{8})$/, (id) => ({ name: 'analysis', id })],
  [/^\/docs\/([a-z0-9]+(?:-[a-z0-9]+)*)$/, (slug) => ({ name: 'doc', slug })],
];

const pages: Record<string, Route> = {
  '/': { name: 'today' },
  '/controls': { name: 'controls' },
  '/evidence': { name: 'evidence' },
  '/submit': { name: 'submit' },
  '/analyses': { name: 'analyses' },
  '/docs': { name: 'docs' },
};

export function routeOf(path: string): Route {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const page = pages[trimmed || '/'];
  if (page) return page;
  for (const [pattern, route] of patterns) {
    const match = pattern.exec(trimmed);
    if (match) return route(match[1]!);
  }
  return { name: 'not-found', path };
}

/** The menu section a route belongs to, for `aria-current`. */
export function sectionOf(route: Route): string {
  switch (route.name) {
    case 'today':
    case 'report':
      return 'reports';
    case 'control':
      return 'controls';
    case 'evidence-item':
      return 'evidence';
    case 'analysis':
      return 'analyses';
    case 'doc':
      return 'docs';
    default:
      return route.name;
  }
}

/** Pages anyone may open in protected mode: the docs (the server still gates gated pages). */
export const isPublicPage = (route: Route): boolean =>
  route.name === 'docs' || route.name === 'doc' || route.name === 'not-found';
