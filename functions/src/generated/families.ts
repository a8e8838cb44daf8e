// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.

/** The operation ids of each route family (one Cloud Function each). */
export interface FamilyOperations {
  auth: 'getAuthConfig' | 'getCaller';
  docs: 'listDocs' | 'getDocPage';
  report: 'listReports' | 'getTodayReport' | 'getReport' | 'getReportOscal';
  controls: 'listControls' | 'getControl';
  evidence: 'listEvidence' | 'ingestEvidence' | 'getEvidence';
  submissions: 'listSubmissions' | 'createSubmission' | 'getSubmission' | 'downloadAttachment';
  analyses: 'listAnalyses' | 'startAnalysis' | 'getAnalysis' | 'cancelAnalysis' | 'streamAnalysisEvents';
  chat: 'chat' | 'streamChatAnswer';
  fallback: never;
}

export const families = ['auth', 'docs', 'report', 'controls', 'evidence', 'submissions', 'analyses', 'chat', 'fallback'] as const;
