/** What each connector's bench scenario measures, for `npm run bench` to compare with its targets. */
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
