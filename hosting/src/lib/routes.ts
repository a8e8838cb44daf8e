/** Which page a path names. Pure, so it is tested without a browser. */

export type Route =
  | { name: 'today' }
  | { name: 'report'; date: string }
  | { name: 'controls' }
  | { name: 'control'; id: string }
  | { name: 'not-found'; path: string };

export function routeOf(path: string): Route {
  if (path === '/' || path === '') return { name: 'today' };
  const report = /^\/reports\/(\d{4}-\d{2}-\d{2})\/?$/.exec(path);
  if (report) return { name: 'report', date: report[1]! };
  if (/^\/controls\/?$/.test(path)) return { name: 'controls' };
  const control = /^\/controls\/([A-Z]{2,5}-\d{2,3})\/?$/.exec(path);
  if (control) return { name: 'control', id: control[1]! };
  return { name: 'not-found', path };
}
