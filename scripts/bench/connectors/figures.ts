/**
 * What a connector's bench scenario measures: one collection to the end against its stand-in,
 * charging a latency per call, beside the least number of calls the vendor's API allows for it.
 */
export interface ConnectorBenchFigures {
  connector: string;
  subjects: number;
  items: number;
  calls: number;
  minimumCalls: number;
  concurrency: number;
  latencyMs: number;
  wallMs: number;
  peakRssMiB: number;
}
