/**
 * A second thread for `npm run verify-audit`'s re-derivation: it re-derives the later half of the
 * period's days (functions/src/audit/verify-package.ts, `verifyPackageSplit`) while the first
 * thread re-derives the earlier half. A year's days are some three quarters of the verifier's
 * time, and the thread that unzipped beside the first one (package-zip.ts) is done by then.
 *
 * The thread starts, and loads the engine, while the zip is read; it is then given the files
 * re-derivation reads where they already are, in memory both threads share, by name and place.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type * as VerifyPackageModule from '../../functions/src/audit/verify-package.ts';
import type { Rederivation } from '../../functions/src/audit/verify-package.ts';
import { compiled } from './compiled.ts';

/** Files as the other thread receives them: each a place in one of the shared buffers. */
interface SharedFiles {
  buffers: SharedArrayBuffer[];
  names: string[];
  /** Per file: which buffer, where in it, how many bytes. */
  places: Float64Array;
}

function sharedFiles(files: ReadonlyMap<string, Uint8Array>): SharedFiles {
  const buffers: SharedArrayBuffer[] = [];
  const indexes = new Map<SharedArrayBuffer, number>();
  const places = new Float64Array(files.size * 3);
  let n = 0;
  for (let data of files.values()) {
    // Bytes not yet in shared memory (none, from package-zip.ts) are copied there.
    if (!(data.buffer instanceof SharedArrayBuffer)) {
      const copy = new Uint8Array(new SharedArrayBuffer(data.length));
      copy.set(data);
      data = copy;
    }
    const buffer = data.buffer as SharedArrayBuffer;
    if (!indexes.has(buffer)) indexes.set(buffer, buffers.push(buffer) - 1);
    places.set([indexes.get(buffer)!, data.byteOffset, data.byteLength], n++ * 3);
  }
  return { buffers, names: [...files.keys()], places };
}

function filesOf({ buffers, names, places }: SharedFiles): Map<string, Buffer> {
  return new Map(names.map((name, n) => [name, Buffer.from(buffers[places[n * 3]!]!, places[n * 3 + 1]!, places[n * 3 + 2]!)]));
}

export interface Rederiver {
  /** `dates` re-derived on the other thread from `files`. */
  rederive(files: ReadonlyMap<string, Uint8Array>, dates: readonly string[]): Promise<Rederivation>;
  /** Ends the thread, whether or not it was asked anything. */
  stop(): Promise<void>;
}

const role = 'evident-rederive';

export function startRederiver(): Rederiver {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role } });
  const answer = new Promise<Rederivation>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the re-deriving thread stopped (exit code ${code})`)));
  });
  // Its failure is thrown where rederive() awaits it.
  answer.catch(() => undefined);
  return {
    rederive(files, dates) {
      worker.postMessage({ files: sharedFiles(files), dates });
      return answer;
    },
    async stop() {
      await worker.terminate();
    },
  };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === role) {
  const verifier = compiled<typeof VerifyPackageModule>('audit/verify-package.js');
  parentPort!.once('message', async ({ files, dates }: { files: SharedFiles; dates: string[] }) => {
    parentPort!.postMessage((await verifier).rederiveDays(filesOf(files), dates));
  });
}
