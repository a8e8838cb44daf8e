/**
 * What `seedDemoHistory` needs (scripts/lib/demo/seed.ts), built from the sources over one
 * store, as the unit tests seed the demo: `npm start` builds the same from the compiled
 * functions (scripts/lib/seed-demo.ts). Runs expire and drop by the defaults of
 * `RUN_ABANDON_HOURS` and `POPULATION_DROP_PERCENT`.
 */
import type { CompiledCatalog } from '../../functions/src/assessment/evaluate.ts';
import { EvidenceStore } from '../../functions/src/evidence/evidence-store.ts';
import { produceDailyReport } from '../../functions/src/reports/daily-report.ts';
import { ReportStore } from '../../functions/src/reports/report-store.ts';
import { RunStore } from '../../functions/src/runs/run-store.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';
import { SubmissionStore } from '../../functions/src/submissions/submission-store.ts';
import type { SeedDependencies } from '../../scripts/lib/demo/seed.ts';

export function demoSeedDependencies(store: ObjectStore, catalog: CompiledCatalog): SeedDependencies {
  const evidence = new EvidenceStore(store);
  return {
    store,
    evidence,
    reports: new ReportStore(store),
    submissions: new SubmissionStore(store, evidence),
    runs: new RunStore(
      store,
      () => 6,
      () => 10,
    ),
    catalog,
    produceDailyReport,
  };
}
