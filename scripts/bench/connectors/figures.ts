/** What a connector's bench scenario measures: one collection to the end against its stand-in. */
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
