/**
 * What a connector's bench scenario measures: its collect run to the end against its stand-in
 * charging a fixed latency per call, beside the least the vendor's API allows.
 */
export interface ConnectorBenchFigures {
  connector: string;
  subjects: number;
  items: number;
  calls: number;
  /** The fewest calls the vendor's API needs for `subjects`, from its own limits. */
  minimumCalls: number;
  /** The calls in flight at once the vendor's API allows or recommends. */
  concurrency: number;
  latencyMs: number;
  wallMs: number;
  peakRssMiB: number;
}
