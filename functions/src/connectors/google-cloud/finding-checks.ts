/**
 * The scanner checks the Google Cloud connector answers itself, in a module of their own: the
 * connector's description names them (which controls it feeds), and every function loads that
 * description, so it must not pull in the mapping of assets to evidence (asset-evidence.ts). See docs/connectors.md.
 */
export const findingChecks = {
  /** Prowler's check id for the same test: a KMS key's IAM policy grants nothing to anyone. */
  cryptoKeyPublic: 'kms_key_not_publicly_accessible',
  /** Prowler's check id for the same test on a BigQuery dataset. */
  datasetPublic: 'bigquery_dataset_public_access',
  /** Evident's own: any other resource's IAM policy grants nothing to anyone. */
  resourcePublic: 'gcp_iam_policy_not_public',
  /** Prowler's (CIS Google Cloud 2.1) check id: data access audit logs on for all services, no exemptions. */
  auditLogs: 'iam_audit_logs_enabled',
} as const;
