/**
 * What Acme's people tell Evident by hand rather than through a collector: the policies and the
 * governance, risk, asset and physical security records imported on day 1, the penetration test
 * attested on day 8, and two submissions made through the web app (the incident response plan on
 * day 5, a new cryptography policy on day 10), each with a file.
 */
import { domain, email, importedAttestations, importedRecords, type ImportedAttestation } from './acme.ts';
import { minuteMs, type DayBuilder } from './day-builder.ts';

/** The source of the records imported from the compliance register (GOV, RSK, AST, PHY). */
export const recordsSource = 'records-import';

/** Imports `attestations` on day 1 from `source`, five minutes apart from `fromMinute` of the day. */
function importOnDayOne(b: DayBuilder, source: string, attestations: readonly ImportedAttestation[], fromMinute: number): void {
  if (b.day.index !== 0) return;
  attestations.forEach((attestation, n) => {
    const effectiveDate = b.daysAgo(attestation.approvedDaysAgo);
    b.add(
      'attestation',
      source,
      attestation.subject,
      b.at((fromMinute + 5 * n) * minuteMs),
      {
        statement: attestation.statement,
        ...(attestation.notApplicable ? { notApplicable: true } : {}),
        submittedBy: email('chloe.martin'),
      },
      { effectiveDate, controls: attestation.controls },
    );
  });
}

/** Policies and scoping decisions, imported as attestations on day 1; PPL-01 is scoped out. */
export const importedPolicies = (b: DayBuilder): void => importOnDayOne(b, 'policy-import', importedAttestations, 10 * 60);

/** The governance, risk, asset and physical security records, imported on day 1 after the policies. */
export const importedRegister = (b: DayBuilder): void => importOnDayOne(b, recordsSource, importedRecords, 13 * 60);

/** The annual penetration test, attested by the security team on day 8 (VUL-05 passes). */
export function penetrationTest(b: DayBuilder): void {
  if (b.day.ago !== 6) return;
  b.add(
    'attestation',
    'security-team',
    'annual-penetration-test',
    b.at((11 * 60 + 40) * minuteMs),
    {
      statement:
        `An independent penetration test of app.${domain} and the public API was completed by Northwind Security; ` +
        'it found no critical and two high findings, both fixed and retested.',
      submittedBy: email('amara.okafor'),
    },
    { effectiveDate: b.daysAgo(9), controls: ['VUL-05'] },
  );
}

/** The incident response plan, submitted on day 5 with its Markdown (INC-01 and INC-04 pass). */
export function incidentResponsePlan(b: DayBuilder): void {
  const { ago, date } = b.day;
  if (ago !== 9) return;
  b.submissions.push({
    submittedAt: new Date(b.at((14 * 60 + 20) * minuteMs)).toISOString(),
    controls: ['INC-01', 'INC-04'],
    subject: 'incident-response-plan',
    statement:
      'The incident response plan v3 was approved by the CTO: severity levels, the on-call rota, notification ' +
      'duties (customers within 72 hours, regulators where required) and a post-incident review for every SEV1 and SEV2.',
    effectiveDate: date,
    notApplicable: false,
    submittedBy: { uid: 'demo-amara-okafor', email: email('amara.okafor'), name: 'Amara Okafor' },
    files: [
      {
        name: 'incident-response-plan-v3.md',
        mediaType: 'text/markdown',
        data: Buffer.from(
          [
            '# Incident response plan (v3)',
            '',
            `Approved by Maya Chen (CTO) on ${date}.`,
            '',
            '## Severity levels',
            '',
            '- **SEV1**: customer data exposed or production down: page on-call, CTO and CEO.',
            '- **SEV2**: a security control is bypassed or degraded: page on-call.',
            '- **SEV3**: a suspicious event worth a look during working hours.',
            '',
            '## After every SEV1 and SEV2',
            '',
            'Record the timeline, notify customers within 72 hours where their data is affected, and hold a',
            'blameless review within five working days.',
            '',
          ].join('\n'),
        ),
      },
    ],
  });
}

/** The cryptography policy v2, submitted on day 10 with its approval note (ENC-05 passes again). */
export function cryptographyPolicy(b: DayBuilder): void {
  const { ago, date } = b.day;
  if (ago !== 4) return;
  b.submissions.push({
    submittedAt: new Date(b.at((15 * 60 + 5) * minuteMs)).toISOString(),
    controls: ['ENC-05'],
    subject: 'cryptography-policy',
    statement:
      'The cryptography and key management policy v2 was approved by the CTO: AES-256 or better at rest, TLS 1.2 or ' +
      'later in transit, keys in Cloud KMS rotated at least yearly.',
    effectiveDate: date,
    notApplicable: false,
    submittedBy: { uid: 'demo-maya-chen', email: email('maya.chen'), name: 'Maya Chen' },
    files: [
      {
        name: 'cryptography-policy-v2-approval.txt',
        mediaType: 'text/plain',
        data: Buffer.from(
          `Cryptography and key management policy v2\nApproved by: Maya Chen, CTO\nDate: ${date}\n` +
            'Changes from v1: TLS 1.0/1.1 forbidden everywhere; signing keys must live in an HSM.\n',
        ),
      },
    ],
  });
}

export const attestedByHand = [importedPolicies, importedRegister, penetrationTest, incidentResponsePlan, cryptographyPolicy];
