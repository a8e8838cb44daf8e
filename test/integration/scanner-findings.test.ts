/**
 * Cloud scanner findings through Hosting on the emulators: Prowler's real output imported with
 * `POST /api/evidence/imports/ocsf` once and only once, the demo's nightly Prowler scan moving
 * IAM-08 in today's report, and the control's page showing the checks that feed it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ControlDetail, Report } from '../../hosting/src/lib/api-types.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { headingOf, mode, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';
import { api } from '../support/api.ts';

const browser = useBrowser();
const scan = readFileSync(join(paths.root, 'test/fixtures/prowler/example_output_azure.ocsf.json'), 'utf8');

describe(`scanner findings, ${mode} mode`, () => {
  it("imports Prowler's json-ocsf output once: the same file again stores nothing", async () => {
    type Imported = { findings: number; items: number; created: number; existing: number };
    const send = () =>
      api.call<Imported>('/api/evidence/imports/ocsf', { body: scan, headers: { 'Content-Type': 'application/json' } });
    const first = await send();
    // A store this file ran on before (a rerun with filters) holds the items already.
    const body = first.body;
    expect([first.status === 201 || first.status === 200, body.findings, body.items, body.created + body.existing]).toEqual([
      true,
      5,
      5,
      5,
    ]);
    const again = await send();
    expect([again.status, again.body]).toEqual([200, { findings: 5, items: 5, created: 0, existing: 5 }]);
    const listed = await api.get<{ items: { source: string; data: { check: string } }[] }>(
      `/api/evidence?${new URLSearchParams({ source: 'Prowler azure <subscription_uid>' })}`,
    );
    expect(listed.items.map((item) => item.data.check).sort()).toEqual([
      'appinsights_ensure_is_configured',
      'defender_additional_email_configured_with_a_security_contact',
      'defender_auto_provisioning_log_analytics_agent_vms_on',
      'defender_container_images_scan_enabled',
      'defender_ensure_defender_for_app_services_is_on',
    ]);
  });

  it("fails IAM-08 for the bucket the demo's Prowler scan finds public, and shows the muted one", async () => {
    const report = await api.get<Report>('/api/report/today');
    const iam08 = report.controls.find((control) => control.id === 'IAM-08')!;
    // The demo's Google Cloud checks: other tests import AWS findings that count for IAM-08 too.
    const demoChecks = ['cloudsql_instance_public_ip', 'cloudstorage_bucket_public_access'];
    const scanned = iam08.findings
      .filter((finding) => finding.kind === 'scanner.finding' && demoChecks.includes(finding.check ?? ''))
      .map((finding) => [finding.outcome, finding.check, finding.subject ?? null]);
    // By check; within one, what passes, then what fails, then what is shown for information.
    expect(scanned).toEqual([
      ['pass', 'cloudsql_instance_public_ip', null],
      ['pass', 'cloudstorage_bucket_public_access', 'acme-customer-uploads'],
      ['fail', 'cloudstorage_bucket_public_access', 'acme-marketing-assets'],
      ['info', 'cloudstorage_bucket_public_access', 'acme-status-page'],
    ]);
    expect(iam08.status).toBe('failing');
  });

  it("lists on the control's page the scanner checks that feed it", async () => {
    const detail = await api.get<ControlDetail>('/api/controls/IAM-08');
    const opened = await openPage(browser());
    try {
      await visit(opened.page, '/controls/IAM-08', 'scanner@example.com');
      // Twelve checks: the list starts folded.
      await opened.page.getByText(`${detail.scanner.checks.length} checks`).click(settles);
      const listed = opened.page.getByTestId('scanner-checks').locator('li');
      await listed.first().waitFor(settles);
      expect(await headingOf(opened.page)).toMatch(/^IAM-08 /);
      expect(await listed.allTextContents()).toEqual(detail.scanner.checks.map((check) => `${check.id} (named by this control)`));
      expect(await opened.page.getByTestId('scanner-summary').textContent()).toMatch(/at most 7 days old/);
      await screenshot(opened.page, 'control-scanner-checks');
      expect(opened.problems).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
