/**
 * Acme's nightly Prowler scan of its Google Cloud project, as Prowler writes it (`json-ocsf`:
 * OCSF 1.4 Detection Findings) and as Evident imports it (ocsf-findings.ts), so the demo shows
 * scanner-fed controls through the same path as a real import:
 *
 *   cloudstorage_bucket_public_access     each bucket; the marketing bucket fails from day 12,
 *                                         when it is opened (IAM-08, with the bucket collector);
 *                                         the public status page's bucket is public on purpose
 *                                         and muted in Prowler's mutelist (shown, decides nothing)
 *   cloudsql_instance_public_ip           each Cloud SQL instance passes (IAM-08)
 *   cloudsql_instance_automated_backups   each Cloud SQL instance passes (BCK-01)
 *   logging_sink_created                  the project passes (LOG-01)
 */
import { convertFinding } from '../../../functions/src/common/ocsf-findings.ts';
import { dataStores, marketingBucket } from './acme.ts';
import type { DayBuilder } from './day-builder.ts';

const project = 'acme-prod';
const region = 'europe-west1';
/** Public on purpose: the status page's static site. */
const statusPageBucket = 'acme-status-page';

interface Check {
  check: string;
  title: string;
  severity: 'Low' | 'Medium' | 'High' | 'Critical';
  resource: { uid: string; type: string };
  failed: boolean;
  muted?: boolean;
  message: string;
  remediation: string;
}

const withoutPrefix = (name: string) => name.slice(name.indexOf('/') + 1);

function checksOf(ago: number): Check[] {
  const buckets = dataStores.filter((store) => store.name.startsWith('gcs/')).map((store) => store.name);
  const instances = dataStores.filter((store) => store.name.startsWith('cloudsql/')).map((store) => withoutPrefix(store.name));
  const bucketCheck = (bucket: string, failed: boolean, muted = false): Check => ({
    check: 'cloudstorage_bucket_public_access',
    title: 'Ensure That Cloud Storage Bucket Is Not Anonymously or Publicly Accessible',
    severity: 'High',
    resource: { uid: bucket, type: 'storage.googleapis.com/Bucket' },
    failed,
    muted,
    message: failed ? `Bucket ${bucket} is publicly accessible.` : `Bucket ${bucket} is not publicly accessible.`,
    remediation:
      'Remove allUsers and allAuthenticatedUsers from the bucket\u2019s IAM policy and enforce public access prevention.',
  });
  return [
    ...buckets.map((name) => bucketCheck(withoutPrefix(name), name === marketingBucket && ago <= 2)),
    bucketCheck(statusPageBucket, true, true),
    ...instances.flatMap((instance): Check[] => [
      {
        check: 'cloudsql_instance_public_ip',
        title: 'Check for Cloud SQL Database Instances with Public IPs',
        severity: 'Medium',
        resource: { uid: instance, type: 'sqladmin.googleapis.com/Instance' },
        failed: false,
        message: `Database Instance ${instance} does not have a public IP.`,
        remediation: 'Use private IP connectivity for Cloud SQL instances.',
      },
      {
        check: 'cloudsql_instance_automated_backups',
        title: 'Ensure That Cloud SQL Database Instances Are Configured With Automated Backups',
        severity: 'Medium',
        resource: { uid: instance, type: 'sqladmin.googleapis.com/Instance' },
        failed: false,
        message: `Database Instance ${instance} has automated backups configured.`,
        remediation: 'Enable automated backups on every Cloud SQL instance.',
      },
    ]),
    {
      check: 'logging_sink_created',
      title: 'Ensure there is at least one sink used to export copies of all the log entries',
      severity: 'Low',
      resource: { uid: project, type: 'Project' },
      failed: false,
      message: `Sink gcp-org-audit-logs is enabled exporting copies of all the log entries in project ${project}.`,
      remediation: 'Create a sink that exports all log entries to a destination you retain.',
    },
  ];
}

/** One finding in Prowler's OCSF shape (the fields Prowler writes that an import reads, and a few more). */
function ocsfFinding(check: Check, time: number): Record<string, unknown> {
  const seconds = Math.floor(time / 1000);
  return {
    message: check.message,
    metadata: {
      event_code: check.check,
      product: { name: 'Prowler', uid: 'prowler', vendor_name: 'Prowler', version: '5.13.0' },
      profiles: ['cloud', 'datetime'],
      version: '1.4.0',
    },
    severity_id: { Low: 2, Medium: 3, High: 4, Critical: 5 }[check.severity],
    severity: check.severity,
    status: check.muted ? 'Suppressed' : 'New',
    status_code: check.failed ? 'FAIL' : 'PASS',
    status_detail: check.message,
    status_id: check.muted ? 3 : 1,
    activity_name: 'Create',
    activity_id: 1,
    finding_info: {
      created_time: seconds,
      desc: check.title,
      product_uid: 'prowler',
      title: check.title,
      types: [],
      uid: `prowler-gcp-${check.check}-${project}-${region}-${check.resource.uid}`,
    },
    resources: [{ cloud_partition: 'gcp', region, name: check.resource.uid, type: check.resource.type, uid: check.resource.uid }],
    category_name: 'Findings',
    category_uid: 2,
    class_name: 'Detection Finding',
    class_uid: 2004,
    cloud: { account: { name: project, type: 'GCP Project', type_id: 5, uid: project }, provider: 'gcp', region },
    remediation: { desc: check.remediation, references: [] },
    time: seconds,
    type_uid: 200401,
    type_name: 'Detection Finding: Create',
  };
}

/** The day's scan, as the OCSF file Prowler would write. */
export function prowlerScanOf(b: DayBuilder): Record<string, unknown>[] {
  const time = b.collectedAt('prowler', 1, project);
  return checksOf(b.day.ago).map((check) => ocsfFinding(check, time));
}

/** The nightly scan, imported. */
export function prowlerScanner(b: DayBuilder): void {
  for (const finding of prowlerScanOf(b)) {
    const converted = convertFinding(finding);
    if ('problem' in converted) throw new Error(`the demo's Prowler finding does not import: ${converted.problem}`);
    b.evidence.push(...converted.items);
  }
}
