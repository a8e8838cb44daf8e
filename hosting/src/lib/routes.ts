/** Which page a path names. Pure, so it is tested without a browser. */
import {
  analysisIdPattern,
  controlIdPattern,
  datePattern,
  evidenceIdPattern,
  frameworkIdPattern,
  slugPattern,
  unanchored,
} from '@evident/contract';
import { sourceOfSegment } from './collection-runs.ts';

export type Route =
  | { name: 'today' }
  | { name: 'report'; date: string }
  | { name: 'controls' }
  | { name: 'control'; id: string }
  | { name: 'frameworks' }
  | { name: 'exceptions' }
  | { name: 'requests' }
  | { name: 'framework'; framework: string }
  | { name: 'evidence' }
  | { name: 'evidence-item'; id: string }
  | { name: 'sources' }
  | { name: 'source'; source: string }
  | { name: 'submit' }
  | { name: 'analyses' }
  | { name: 'analysis'; id: string }
  | { name: 'docs' }
  | { name: 'doc'; slug: string }
  | { name: 'webhooks' }
  | { name: 'settings' }
  | { name: 'settings-version'; version: number }
  | { name: 'not-found'; path: string };

/** Each page with a parameter: its path and what the parameter must look like (the API's patterns). */
const page = (prefix: string, pattern: string) => new RegExp(`^/${prefix}/(${unanchored(pattern)})$`);
const patterns: [RegExp, (match: string) => Route][] = [
  [page('reports', datePattern), (date) => ({ name: 'report', date })],
  [page('controls', controlIdPattern), (id) => ({ name: 'control', id })],
  [page('frameworks', frameworkIdPattern), (framework) => ({ name: 'framework', framework })],
  [page('evidence', evidenceIdPattern), (id) => ({ name: 'evidence-item', id })],
  [page('analyses', analysisIdPattern), (id) => ({ name: 'analysis', id })],
  // A source's name, encoded as one segment (collection-runs.ts `sourcePath`).
  [
    /^\/sources\/([^/]+)$/,
    (segment) => {
      const source = sourceOfSegment(segment);
      return source === undefined ? { name: 'not-found', path: `/sources/${segment}` } : { name: 'source', source };
    },
  ],
  [page('docs', slugPattern), (slug) => ({ name: 'doc', slug })],
  // A saved version's number, as GET /api/settings/versions/{version} takes it: from 1, no leading zero.
  [/^\/settings\/versions\/([1-9]\d{0,8})$/, (version) => ({ name: 'settings-version', version: Number(version) })],
];

const pages: Record<string, Route> = {
  '/': { name: 'today' },
  '/controls': { name: 'controls' },
  '/frameworks': { name: 'frameworks' },
  '/exceptions': { name: 'exceptions' },
  '/requests': { name: 'requests' },
  '/evidence': { name: 'evidence' },
  '/sources': { name: 'sources' },
  '/submit': { name: 'submit' },
  '/analyses': { name: 'analyses' },
  '/docs': { name: 'docs' },
  '/settings': { name: 'settings' },
  '/settings/webhooks': { name: 'webhooks' },
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
    case 'framework':
      return 'frameworks';
    case 'evidence-item':
      return 'evidence';
    case 'source':
      return 'sources';
    case 'analysis':
      return 'analyses';
    case 'doc':
      return 'docs';
    case 'settings-version':
      return 'settings';
    default:
      return route.name;
  }
}

/** Pages anyone may open in protected mode: the docs (the server still gates gated pages). */
export const isPublicPage = (route: Route): boolean =>
  route.name === 'docs' || route.name === 'doc' || route.name === 'not-found';

/** The address of `pathname` with the query `params` (none when empty), keeping the fragment `hash`. */
export function addressWithQuery(pathname: string, params: URLSearchParams, hash: string): string {
  const search = params.toString();
  return `${pathname}${search ? `?${search}` : ''}${hash}`;
}
