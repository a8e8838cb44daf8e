/**
 * The app's routes: the address bar is the state. Links are ordinary `<a href>`s; a click on an
 * internal one becomes a history entry instead of a page load, and back/forward re-render.
 * Hosting serves `index.html` for every non-`/api` path, so a reload on any route works.
 */

import { addressWithQuery, routeOf, type Route } from './routes.ts';

export class Router {
  #path = $state(location.pathname);
  #search = $state(location.search);
  #visits = $state(0);

  get route(): Route {
    return routeOf(this.#path);
  }

  /**
   * Counts arrivals at a page (link, back, forward), not query rewrites by the page itself: a
   * page that reads its filters from the address once is re-created on each arrival.
   */
  get visits(): number {
    return this.#visits;
  }

  get path(): string {
    return this.#path;
  }

  /** The query string's parameters, for pages whose filters live in the address. */
  get query(): URLSearchParams {
    // A fresh snapshot per read; what is reactive is #search, which it is made from.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    return new URLSearchParams(this.#search);
  }

  /**
   * Replaces the query string without a new history entry (a filter change is not a new page),
   * keeping the fragment: a link to a heading still scrolls there after a reload.
   */
  replaceQuery(params: URLSearchParams): void {
    history.replaceState(null, '', addressWithQuery(location.pathname, params, location.hash));
    this.#search = location.search;
  }

  /** Starts following the address bar; returns how to stop. */
  start(): () => void {
    const onPop = () => {
      this.#path = location.pathname;
      this.#search = location.search;
      this.#visits += 1;
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      const anchor = (event.target as Element | null)?.closest('a');
      if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
      // The API, its explorer and files are real documents, not routes of the app.
      if (anchor.pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(anchor.pathname)) return;
      // A fragment on this very page: the browser scrolls to it and keeps the history entry.
      if (anchor.hash && anchor.pathname === location.pathname && anchor.search === location.search) return;
      event.preventDefault();
      this.navigate(anchor.pathname + anchor.search + anchor.hash);
    };
    addEventListener('popstate', onPop);
    document.addEventListener('click', onClick);
    return () => {
      removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick);
    };
  }

  /** Opens another page; a page that loads content scrolls to the address's fragment itself. */
  navigate(to: string): void {
    if (to === location.pathname + location.search + location.hash) return;
    history.pushState(null, '', to);
    this.#path = location.pathname;
    this.#search = location.search;
    this.#visits += 1;
    scrollTo(0, 0);
  }
}
