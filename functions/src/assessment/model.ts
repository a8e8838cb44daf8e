/**
 * The assessment's domain types. They are the API's schemas (generated from `openapi/`), so a
 * report the engine builds is exactly what the report endpoints serve.
 */
import type { CollectionRunIncompleteReason, FrameworkId, subjectOutcomes } from '@evident/contract';
import type { components } from '../generated/api-types.js';
import type { Owner, Scope } from '../settings/settings-model.js';

type Schemas = components['schemas'];

export type Report = Schemas['Report'];
export type ReportSummary = Schemas['ReportSummary'];
export type ReportDiff = Schemas['ReportDiff'];
export type ControlResult = Schemas['ControlResult'];
export type ControlStatus = Schemas['ControlStatus'];
export type Finding = Schemas['Finding'];
export type Severity = Schemas['Severity'];
export type StatusCounts = Schemas['StatusCounts'];
export type EvidenceItem = Schemas['EvidenceItem'];
export type EvidenceInput = Schemas['EvidenceInput'];
export type EvidenceKindName = Schemas['EvidenceKind'];
export type FrameworkMappings = Schemas['FrameworkMappings'];
export type EvidenceRequirement = Schemas['EvidenceRequirement'];
export type Check = Schemas['Check'];
export type Attachment = Schemas['Attachment'];
export type Actor = Schemas['Actor'];
export type FrameworkReadiness = Schemas['FrameworkReadiness'];
export type RequirementResult = Schemas['RequirementResult'];
export type ScannerFeed = Schemas['ScannerFeed'];
export type ExpiringItem = Schemas['ExpiringItem'];
export type RequirementCounts = Schemas['RequirementCounts'];
export type ReadinessShares = Schemas['ReadinessShares'];
export type Reconciliation = Schemas['Reconciliation'];
export type PopulationUsed = Schemas['PopulationUsed'];
export type CompletenessIssue = Schemas['CompletenessIssue'];

/** A control as the build compiles it from `functions/catalog/controls/*.md`. */
export interface Control {
  id: string;
  title: string;
  family: string;
  severity: Severity;
  /** Who answers for the control: its file's `owner` (a role label), or the first of `owners`' address. */
  owner: string;
  /** The people the organisation's settings name for it (settings/apply-settings.ts). */
  owners?: Owner[];
  /** What people call its subject where its own text says it otherwise ("MFA", "pentest"), for the chat's search. */
  aliases?: string[];
  frameworks: FrameworkMappings;
  evidence: EvidenceRequirement[];
  checks: Check[];
  /** The scanner checks whose findings count for it (`scanner.finding` evidence). */
  scanner: ScannerFeed;
  /** Populations that must cover one another (populations.ts); none when absent. */
  reconciliations?: Reconciliation[];
  /** Sanitised HTML of the `## Objective` and `## Guidance` sections. */
  objective: string;
  guidance: string;
  /** The same sections as Markdown, for search and chat. */
  objectiveMarkdown: string;
  guidanceMarkdown: string;
}

/**
 * A framework's reference list as the build bundles it from `functions/catalog/reference/`: every
 * requirement id in the framework's order, so readiness can name the ones no control covers.
 */
export interface FrameworkReference {
  id: FrameworkId;
  name: string;
  /** `title` where the text may be reproduced (NIST's); null where it is licensed. */
  requirements: { id: string; title: string | null }[];
}

export interface Catalog {
  /** Fingerprint of the catalog's sources; reports record which catalog evaluated them. */
  version: string;
  controls: Control[];
  /** The frameworks readiness is reported for; a catalog without them reports none. */
  frameworks: FrameworkReference[];
  /** Days a control of each severity may stay failing, stale or missing before it is overdue. */
  dueDays: Readonly<Record<Severity, number>>;
  /** What readiness counts; the narrowest scope (settings/settings-model.ts) when absent. */
  scope?: Scope;
  /** The version of the organisation's settings applied to the catalog; null for the defaults. */
  settingsVersion?: number | null;
}

/**
 * Evidence an evaluation's state left out to keep to its budget of bytes
 * (assessment/evidence-state.ts): every control that reads such evidence fails, saying why.
 */
export interface SetAsideEvidence {
  items: number;
  bytes: number;
  budgetBytes: number;
  /** Items by what reads them: an evidence kind, or `attestation` U+0001 a control id (`*`: any control). */
  byReader: ReadonlyMap<string, number>;
}

/**
 * What evaluation knows of one (source, kind)'s collection runs as of a report's cut-off
 * (runs/population-inputs.ts reads it from the run store): its newest complete population, and
 * the newest run that ended since then without being complete.
 */
export interface SourcePopulation {
  source: string;
  kind: string;
  complete?: {
    runId: string;
    openedAt: string;
    endedAt: string;
    count: number;
    sha256: string;
    subjects: ReadonlySet<string>;
    /** The drop this population made from the one before it, and whether it was acknowledged before the cut-off. */
    drop?: { previousRunId: string; previousCount: number; percent: number; acknowledged: boolean };
  };
  incomplete?: { runId: string; reason: CollectionRunIncompleteReason; endedAt: string };
}

/** One subject of a control's population and what its checks made of it. */
export interface SubjectOutcome {
  subject: string;
  /** The worst over the control's checks of the kind: `fail`, then `error`, then `pass`; `out_of_scope` when no check applied. */
  outcome: (typeof subjectOutcomes)[number];
  evidenceId: string;
}

/** The subjects a control's checks of one kind ran on, in subject order, counted and hashed as `PopulationUsed`. */
export interface ControlPopulation {
  controlId: string;
  kind: string;
  count: number;
  sha256: string;
  subjects: SubjectOutcome[];
}
