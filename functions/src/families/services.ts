/**
 * What the assessment families share within one instance: the object store with its evidence
 * and report views (and their caches), the catalog (its checks planned only when something
 * evaluates), the clock and the report time zone. Tests pass their own store, catalog, clock
 * and zone; production opens everything on first use.
 */
import { compileCatalogLazily, loadCatalog } from '../assessment/catalog.js';
import type { CompiledCatalog } from '../assessment/evaluate.js';
import type { Catalog } from '../assessment/model.js';
import type { SubmissionReviewMode } from '@evident/contract';
import * as config from '../config.js';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import { ReportStore } from '../reports/report-store.js';
import { openStore } from '../storage/open-store.js';
import type { ObjectStore } from '../storage/object-store.js';

export interface Services {
  store: ObjectStore;
  evidence: EvidenceStore;
  checkpoints: CheckpointStore;
  reports: ReportStore;
  catalog: Catalog;
  /** The catalog with its CEL checks planned, for evaluation; loads the engine on first call. */
  compiled: () => MaybePromise<CompiledCatalog>;
  now: () => Date;
  timeZone: () => string;
  /** Whether submissions count only once accepted (`SUBMISSION_REVIEW`). */
  submissionReview: () => SubmissionReviewMode;
}

export interface ServiceOptions {
  store?: () => Promise<ObjectStore>;
  catalog?: () => MaybePromise<Catalog>;
  now?: () => Date;
  timeZone?: () => string;
  submissionReview?: () => SubmissionReviewMode;
}

export function servicesFrom(options: ServiceOptions = {}): () => MaybePromise<Services> {
  return loadOnce(async () => {
    const [store, catalog] = await Promise.all([(options.store ?? openStore)(), (options.catalog ?? loadCatalog)()]);
    return {
      store,
      catalog,
      compiled: loadOnce(() => compileCatalogLazily(catalog)),
      evidence: new EvidenceStore(store),
      checkpoints: new CheckpointStore(store),
      reports: new ReportStore(store),
      now: options.now ?? (() => new Date()),
      timeZone: options.timeZone ?? config.reportTimeZone,
      submissionReview: options.submissionReview ?? config.submissionReview,
    };
  });
}
