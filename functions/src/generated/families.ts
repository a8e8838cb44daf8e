// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.

/** The operation ids of each route family (one Cloud Function each). */
export interface FamilyOperations {
  auth: 'getAuthConfig' | 'getCaller';
  docs: 'listDocs' | 'getDocPage';
  report: 'listReports' | 'getTodayReport' | 'getReport' | 'getReportOscal' | 'getReportPoam' | 'listReportVersions' | 'getReportVersion';
  controls: 'listControls' | 'getCatalogOscal' | 'getControl' | 'getControlHistory' | 'exportControlHistory' | 'getControlSample' | 'exportControlSample' | 'getControlPopulation' | 'exportControlPopulation' | 'getControlSubjectSample' | 'exportControlSubjectSample';
  frameworks: 'listFrameworks' | 'getFramework';
  exceptions: 'listExceptions' | 'createException' | 'getException' | 'approveException' | 'refuseException' | 'revokeException';
  audit: 'getAuditSigningKey' | 'getAuditPackage' | 'listAuditPackages' | 'startAuditPackage' | 'getAuditPackageBuild' | 'streamAuditPackageEvents' | 'downloadAuditPackage';
  requests: 'listAuditRequests' | 'createAuditRequest' | 'importAuditRequests' | 'exportAuditRequests' | 'getAuditRequest' | 'editAuditRequest' | 'answerAuditRequest' | 'acceptAuditRequest' | 'returnAuditRequest' | 'reopenAuditRequest';
  evidence: 'listEvidence' | 'ingestEvidence' | 'importOcsfFindings' | 'getEvidence';
  runs: 'listCollectionRuns' | 'openCollectionRun' | 'listCollectionSources' | 'listCollectionPopulations' | 'getCollectionRun' | 'completeCollectionRun' | 'acknowledgeCollectionRunDrop' | 'cancelCollectionRun';
  connectors: 'listConnectors' | 'getConnector' | 'startConnectorRun' | 'getConnectorRun' | 'cancelConnectorRun' | 'streamConnectorRunEvents';
  submissions: 'listSubmissions' | 'createSubmission' | 'getSubmission' | 'reviewSubmission' | 'downloadAttachment';
  analyses: 'listAnalyses' | 'startAnalysis' | 'getAnalysis' | 'cancelAnalysis' | 'streamAnalysisEvents';
  chat: 'chat' | 'streamChatAnswer';
  mcp: 'mcp';
  webhooks: 'listWebhooks' | 'createWebhook' | 'getWebhook' | 'deleteWebhook' | 'pingWebhook' | 'listWebhookDeliveries' | 'redeliverWebhook';
  settings: 'getSettings' | 'saveSettings' | 'listSettingsVersions' | 'getSettingsVersion';
  fallback: never;
}

export const families = ['auth', 'docs', 'report', 'controls', 'frameworks', 'exceptions', 'audit', 'requests', 'evidence', 'runs', 'connectors', 'submissions', 'analyses', 'chat', 'mcp', 'webhooks', 'settings', 'fallback'] as const;

/** The query parameters of each operation that the HTTP core gives their default when a request leaves them out. */
export interface QueryDefaults {
  listReportVersions: 'limit';
  exportControlSample: 'rows';
  getControlPopulation: 'limit';
  listExceptions: 'state' | 'limit';
  listEvidence: 'limit';
  listCollectionRuns: 'limit';
  listCollectionSources: 'limit';
  listCollectionPopulations: 'limit';
  listSubmissions: 'limit';
  listAnalyses: 'limit';
  listWebhookDeliveries: 'limit';
  listSettingsVersions: 'limit';
}

/** The largest request body, in bytes, any operation of each family accepts (`x-body-limit`), its media types, and the largest of each. */
export const familyBodies: Record<string, { limit: number; mediaTypes: readonly string[]; limits: Readonly<Record<string, number>> }> = {
  auth: { limit: 0, mediaTypes: [], limits: {  } },
  docs: { limit: 0, mediaTypes: [], limits: {  } },
  report: { limit: 0, mediaTypes: [], limits: {  } },
  controls: { limit: 0, mediaTypes: [], limits: {  } },
  frameworks: { limit: 0, mediaTypes: [], limits: {  } },
  exceptions: { limit: 16384, mediaTypes: ['application/json'], limits: { 'application/json': 16384 } },
  audit: { limit: 1024, mediaTypes: ['application/json'], limits: { 'application/json': 1024 } },
  requests: { limit: 524288, mediaTypes: ['application/json', 'text/csv'], limits: { 'application/json': 65536, 'text/csv': 524288 } },
  evidence: { limit: 16777216, mediaTypes: ['application/json', 'application/x-ndjson'], limits: { 'application/json': 16777216, 'application/x-ndjson': 16777216 } },
  runs: { limit: 8192, mediaTypes: ['application/json'], limits: { 'application/json': 8192 } },
  connectors: { limit: 0, mediaTypes: [], limits: {  } },
  submissions: { limit: 53477376, mediaTypes: ['multipart/form-data', 'application/json'], limits: { 'multipart/form-data': 53477376, 'application/json': 8192 } },
  analyses: { limit: 65536, mediaTypes: ['application/json'], limits: { 'application/json': 65536 } },
  chat: { limit: 262144, mediaTypes: ['application/json'], limits: { 'application/json': 262144 } },
  mcp: { limit: 65536, mediaTypes: ['application/json'], limits: { 'application/json': 65536 } },
  webhooks: { limit: 8192, mediaTypes: ['application/json'], limits: { 'application/json': 8192 } },
  settings: { limit: 262144, mediaTypes: ['application/json'], limits: { 'application/json': 262144 } },
  fallback: { limit: 0, mediaTypes: [], limits: {  } },
};
