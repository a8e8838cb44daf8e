/**
 * Saves an API response as a file. A plain `<a download>` cannot carry the bearer header, so
 * in protected mode a download goes through the app's authorised fetch and a blob URL.
 */
import { SvelteSet } from 'svelte/reactivity';
import { callApi, errorOf, UnreachableError } from './api.ts';

/** The paths being downloaded now: a second click meanwhile starts nothing. Reactive, for the buttons. */
const inFlight = new SvelteSet<string>();

/** Whether a download of `path` is under way: its button says so. */
export function isDownloading(path: string): boolean {
  return inFlight.has(path);
}

/**
 * Downloads `path` as `filename`, asking for `accept`; false, doing nothing, while a download of
 * `path` is already under way (a double click, or an impatient second one).
 */
export async function downloadFrom(path: string, filename: string, accept = 'application/json'): Promise<boolean> {
  if (inFlight.has(path)) return false;
  inFlight.add(path);
  try {
    await save(path, filename, accept);
    return true;
  } finally {
    inFlight.delete(path);
  }
}

async function save(path: string, filename: string, accept: string): Promise<void> {
  let response: Response;
  try {
    response = await callApi(path, { headers: { Accept: accept } });
  } catch {
    throw new UnreachableError();
  }
  if (!response.ok) throw await errorOf(response);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is no longer needed once it is read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
