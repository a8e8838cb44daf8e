/** The API's response types the pages use, named once. */
import type { components } from '$api-types';

type Schemas = components['schemas'];
export type Report = Schemas['Report'];
export type ReportList = Schemas['ReportList'];
export type ControlList = Schemas['ControlList'];
export type ControlDetail = Schemas['ControlDetail'];
export type Analysis = Schemas['Analysis'];
export type AnalysisPage = Schemas['AnalysisPage'];
export type AnalysisEvent = Schemas['AnalysisEvent'];
export type AnalysisRequest = Schemas['AnalysisRequest'];
export type Citation = Schemas['Citation'];
export type ChatTurn = Schemas['ChatTurn'];
export type ChatRequest = Schemas['ChatRequest'];
export type ChatAnswer = Schemas['ChatAnswer'];
export type ChatEvent = Schemas['ChatEvent'];
export type DocIndex = Schemas['DocIndex'];
export type DocSummary = Schemas['DocSummary'];
export type DocHeading = Schemas['DocHeading'];
export type DocPage = Schemas['DocPage'];
export type EvidenceKind = Schemas['EvidenceKind'];
export type EvidenceItem = Schemas['EvidenceItem'];
export type EvidencePage = Schemas['EvidencePage'];
export type Attachment = Schemas['Attachment'];
export type Submission = Schemas['Submission'];
export type SubmissionPage = Schemas['SubmissionPage'];
export type RequestError = Schemas['RequestError'];
export type ControlHistory = Schemas['ControlHistory'];
