/** Which page a path names. Pure, so it is tested without a browser. */

export type Route = { name: 'today' } | { name: 'report'; date: string } | { name: 'not-found'; path: string };

export function routeOf(path: string): Route {
  if (path === '/' || path === '') return { name: 'today' };
  const report = /^\/reports\/(\d{4}-\d{2}-\d{2})\/?$/.exec(path);
  if (report) return { name: 'report', date: report[1]! };
  return { name: 'not-found', path };
}
