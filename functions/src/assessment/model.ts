/**
 * The assessment's domain types. They are the API's schemas (generated from `openapi/`), so a
 * report the engine builds is exactly what the report endpoints serve.
 */
import type { components } from '../generated/api-types.js';

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

/** A control as the build compiles it from `functions/catalog/controls/*.md`. */
export interface Control {
  id: string;
  title: string;
  family: string;
  severity: Severity;
  frameworks: FrameworkMappings;
  evidence: EvidenceRequirement[];
  checks: Check[];
  /** Sanitised HTML of the `## Objective` and `## Guidance` sections. */
  objective: string;
  guidance: string;
  /** The same sections as Markdown, for search and chat. */
  objectiveMarkdown: string;
  guidanceMarkdown: string;
}

export interface Catalog {
  /** Fingerprint of the catalog's sources; reports record which catalog evaluated them. */
  version: string;
  controls: Control[];
}
