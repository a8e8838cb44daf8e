/**
 * The demo's collectors that report on security operations: the vulnerability and TLS scanners,
 * and the GRC tool's access reviews, vendor assessments and incident exercises.
 */
import { accessReviews, assets, domain, tlsEndpoints, vendors } from './acme.ts';
import { fixed, type DayBuilder } from './day-builder.ts';

/** Vulnerability scanners: one scan per asset. */
export function vulnerabilityScanners(b: DayBuilder): void {
  const { ago, index } = b.day;
  const scanners = 'vuln-scanner';
  for (const asset of assets) {
    // A newly published CVE matches the reports worker's 16-day-old base image on day 3; patched on day 10.
    const critical = asset.name === 'image/reports-worker' && ago <= 11 && ago > 4;
    const vpn = asset.name === 'host/vpn-gateway';
    const high = vpn ? 2 : fixed(asset.name, 3);
    b.add('vuln.scan', scanners, asset.name, b.collectedAt(scanners, 3, asset.name), {
      scanner: asset.scanner,
      authenticated: true,
      openCritical: critical ? 1 : 0,
      openHigh: high,
      openMedium: asset.medium + b.vary(asset.name, 2),
      oldestCriticalDays: critical ? 16 + (11 - ago) : 0,
      // The VPN appliance waits for a vendor firmware release.
      oldestHighDays: vpn ? 41 + index : high > 0 ? (fixed(`${asset.name}/high`, 20) + index) % 25 : 0,
    });
  }
}

/** TLS scanner: each public endpoint and its certificate. */
export function tlsScanner(b: DayBuilder): void {
  const { ago, index } = b.day;
  const tls = 'tls-scanner';
  for (const endpoint of tlsEndpoints) {
    // status.acme.example's automatic renewal broke; it is renewed by hand on day 9.
    const daysLeft =
      endpoint.host === `status.${domain}` ? (ago >= 6 ? ago + 7 : 89 - (5 - ago)) : endpoint.certificateDays - index;
    b.add('tls.endpoint', tls, endpoint.host, b.collectedAt(tls, 4, endpoint.host), {
      minTlsVersion: endpoint.minTlsVersion,
      hsts: true,
      certificateDaysLeft: daysLeft,
      weakCiphers: false,
    });
  }
}

/** GRC tool: access reviews, whose sync broke after day 4. */
export function accessReviewSync(b: DayBuilder): void {
  const reviews = 'access-review-collector';
  if (b.day.ago < 10) return;
  for (const review of accessReviews) {
    const completedOn = b.daysAgo(review.completedDaysAgo);
    b.add(
      'access.review',
      reviews,
      review.system,
      b.collectedAt(reviews, 4, review.system),
      {
        completedOn,
        reviewer: review.reviewer,
        accountsReviewed: review.accounts,
        accessRevoked: review.revoked,
        exceptionsOpen: 0,
      },
      { effectiveDate: completedOn },
    );
  }
}

/** GRC tool: vendor assessments, and the tabletop exercise recorded on day 11. */
export function riskRegister(b: DayBuilder): void {
  const { ago } = b.day;
  const grc = 'grc-collector';
  for (const vendor of vendors) {
    const assessedOn = b.daysAgo(vendor.assessedDaysAgo);
    b.add(
      'vendor.assessment',
      grc,
      vendor.name,
      b.collectedAt(grc, 4, vendor.name),
      {
        tier: vendor.tier,
        assessedOn,
        residualRisk: vendor.residualRisk,
        assuranceReportValid: vendor.assuranceReportValid,
        dpaSigned: vendor.dpaSigned,
      },
      { effectiveDate: assessedOn },
    );
  }
  if (ago <= 3) {
    const exercisedOn = b.daysAgo(3);
    b.add(
      'incident.exercise',
      grc,
      'incident-response-plan',
      b.collectedAt(grc, 4, 'incident-response-plan'),
      {
        exercisedOn,
        scenario: 'a leaked GitHub token used to push to a production repository',
        participants: 7,
        lessonsRecorded: true,
        actionItemsOpen: ago <= 1 ? 2 : 3,
      },
      { effectiveDate: exercisedOn },
    );
  }
}

export const securityCollectors = [vulnerabilityScanners, tlsScanner, accessReviewSync, riskRegister];
