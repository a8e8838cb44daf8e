/**
 * What a collector run is given: its options, from the command line or a test, and its I/O,
 * which tests replace. A module of its own, so that the run (run-collector.ts) and the planning
 * it calls (plans.ts) both take them without the planning importing the run back.
 */
import type { OpenStream } from './ocsf-files.ts';

export interface CollectorOptions {
  files: string[];
  url: string;
  token?: string;
  batchSize: number;
  /** `evidence` (the default): evidence items; `ocsf`: scanners' OCSF Detection Findings (ocsf-files.ts). */
  format?: 'evidence' | 'ocsf';
  /** Evidence files only: an OCSF finding names its own source. */
  source?: string;
  dryRun: boolean;
  /**
   * Evidence files only: send them under a collection run (collection-run.ts) — what the command
   * line does unless told `--no-run`. Off when absent, so a caller that sends without one says nothing.
   */
  run?: boolean;
  /** Per request; a timed-out request is retried like a network error. */
  timeoutMs?: number;
  /** The body limit to batch for; the API's 4 MiB unless a test says otherwise. */
  maxBatchBytes?: number;
}

export interface CollectorIo {
  out(line: string): void;
  err(line: string): void;
  /** Reads an evidence file whole (default: `fs.readFile`). */
  readFile?(path: string): Promise<Uint8Array>;
  /** Streams an OCSF file (default: `fs.createReadStream`, or `readFile`'s bytes when only that is given). */
  openStream?: OpenStream;
  fetch?: typeof fetch;
  sleep?(ms: number): Promise<void>;
}
