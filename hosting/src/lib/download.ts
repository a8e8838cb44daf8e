/**
 * Saves an API response as a file. A plain `<a download>` cannot carry the bearer header, so
 * in protected mode a download goes through the app's authorised fetch and a blob URL.
 */
import { SvelteSet } from 'svelte/reactivity';
import { errorOf, UnreachableError } from './api.ts';

/** The app's downloads: one shared by every page, so a button says a download is under way wherever it was started. */
export class Downloads {
  /** The paths being downloaded now: a second click meanwhile starts nothing. Reactive, for the buttons. */
  readonly #inFlight = new SvelteSet<string>();
  readonly #fetch: typeof fetch;

  /** `fetcher` is the app's authorised fetch. */
  constructor(fetcher: typeof fetch) {
    this.#fetch = fetcher;
  }

  // Arrow functions, so a page can take them out of the shared object and call them alone.

  /** Whether a download of `path` is under way: its button says so. */
  isDownloading = (path: string): boolean => this.#inFlight.has(path);

  /**
   * Downloads `path` as `filename`, asking for `accept`; false, doing nothing, while a download of
   * `path` is already under way (a double click, or an impatient second one).
   */
  downloadFrom = async (path: string, filename: string, accept = 'application/json'): Promise<boolean> => {
    if (this.#inFlight.has(path)) return false;
    this.#inFlight.add(path);
    try {
      await this.#save(path, filename, accept);
      return true;
    } finally {
      this.#inFlight.delete(path);
    }
  };

  /**
   * Downloads `path` as `filename` in `ranges` (`Range` headers, in order), each asked again up to
   * three times when the connection drops, so a long download resumes where it stopped and each
   * request stays short; `onProgress` hears how many ranges are in. False while one is under way.
   */
  downloadInRanges = async (
    path: string,
    filename: string,
    ranges: readonly string[],
    onProgress: (done: number) => void = () => {},
  ): Promise<boolean> => {
    if (this.#inFlight.has(path)) return false;
    this.#inFlight.add(path);
    try {
      const parts: Blob[] = [];
      for (const range of ranges) {
        parts.push(await this.#range(path, range));
        onProgress(parts.length);
      }
      this.#saveBlob(new Blob(parts, { type: 'application/zip' }), filename);
      return true;
    } finally {
      this.#inFlight.delete(path);
    }
  };

  async #range(path: string, range: string, attempts = 3): Promise<Blob> {
    let response: Response;
    try {
      response = await this.#fetch(path, { headers: { Range: range } });
    } catch {
      if (attempts > 1) return this.#range(path, range, attempts - 1);
      throw new UnreachableError();
    }
    if (response.status !== 206) throw await errorOf(response);
    return response.blob();
  }

  async #save(path: string, filename: string, accept: string): Promise<void> {
    let response: Response;
    try {
      response = await this.#fetch(path, { headers: { Accept: accept } });
    } catch {
      throw new UnreachableError();
    }
    if (!response.ok) throw await errorOf(response);
    this.#saveBlob(await response.blob(), filename);
  }

  #saveBlob(blob: Blob, filename: string): void {
    const url = URL.createObjectURL(blob);
    const link = Object.assign(document.createElement('a'), { href: url, download: filename });
    document.body.append(link);
    link.click();
    link.remove();
    // The click has started the download; the URL is no longer needed once it is read.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
