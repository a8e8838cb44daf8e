/**
 * Whether the server can be reached, so pages can keep what they show when the network drops,
 * say so, and pick up again by themselves. Offline is what the browser reports (`offline`
 * events) or a call that could not reach the server; while the browser thinks it is online
 * but the server stays unreachable, the configuration is probed until it answers.
 *
 * Nothing is cached for offline use: no service worker keeps API answers, so a shared device
 * never holds a signed-in person's data after they leave.
 */
import { apiPath } from './api-client.ts';

const probeEveryMs = 5000;

export class Connectivity {
  #browserOffline = $state(typeof navigator !== 'undefined' && navigator.onLine === false);
  #unreachable = $state(false);
  #showing = $state<string | undefined>(undefined);
  #waiting: (() => void)[] = [];
  #probe: ReturnType<typeof setTimeout> | undefined;

  /** Starts following the browser's network events; returns how to stop. */
  start(): () => void {
    const onOffline = () => (this.#browserOffline = true);
    const onOnline = () => {
      this.#browserOffline = false;
      // The browser has a network again; whether the server answers, the next call will tell.
      this.#unreachable = false;
      this.#back();
    };
    addEventListener('offline', onOffline);
    addEventListener('online', onOnline);
    return () => {
      removeEventListener('offline', onOffline);
      removeEventListener('online', onOnline);
    };
  }

  get offline(): boolean {
    return this.#browserOffline || this.#unreachable;
  }

  /** What the page shows from before the drop ("the report of 24 Nov 2026"), for the notice. */
  get showing(): string | undefined {
    return this.#showing;
  }

  /** Names what the page shows; returns how to forget it when the page goes away. */
  show(what: string): () => void {
    this.#showing = what;
    return () => {
      if (this.#showing === what) this.#showing = undefined;
    };
  }

  /** A call could not reach the server: offline until the browser or a probe says otherwise. */
  lost(): void {
    this.#unreachable = true;
    this.#scheduleProbe();
  }

  /** A call reached the server. */
  reached(): void {
    if (!this.#unreachable) return;
    this.#unreachable = false;
    if (!this.#browserOffline) this.#back();
  }

  /** Runs `retry` once when the server can be reached again. */
  whenBack(retry: () => void): void {
    this.#waiting.push(retry);
  }

  #back(): void {
    clearTimeout(this.#probe);
    this.#probe = undefined;
    for (const retry of this.#waiting.splice(0)) retry();
  }

  #scheduleProbe(): void {
    if (this.#probe !== undefined) return;
    this.#probe = setTimeout(async () => {
      this.#probe = undefined;
      if (!this.#unreachable) return;
      // The browser's own offline state ends with an `online` event; no need to probe through it.
      if (this.#browserOffline) return this.#scheduleProbe();
      try {
        await fetch(apiPath('/api/auth/config'), { headers: { Accept: 'application/json' }, cache: 'no-store' });
        this.reached();
      } catch {
        this.#scheduleProbe();
      }
    }, probeEveryMs);
  }
}
