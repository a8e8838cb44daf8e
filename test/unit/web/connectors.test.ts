/** How the Sources page words a connector (hosting/src/lib/connectors.ts): cadence, guide, missing settings, progress, endings. */
import { describe, expect, it } from 'vitest';
import {
  cadenceText,
  endingText,
  guidePath,
  missingSettings,
  progressLines,
  waitText,
} from '../../../hosting/src/lib/connectors.ts';
import { headingId } from '../../../scripts/lib/markdown.ts';

describe('cadenceText', () => {
  it.each([
    [1, 'hourly'],
    [6, 'every 6 hours'],
    [12, 'every 12 hours'],
    [24, 'daily'],
    [48, 'every 2 days'],
  ])('words %i hours as %j', (hours, text) => {
    expect(cadenceText(hours)).toBe(text);
  });
});

describe('guidePath', () => {
  it.each(['GitHub', 'Google Cloud', 'Google Workspace', 'Okta'])(
    'links %j to its heading as the docs bundle ids it',
    (title) => {
      expect(guidePath(title)).toBe(`/docs/connectors#${headingId(title)}`);
    },
  );

  it('gives the ids the guide’s headings have', () => {
    expect(['GitHub', 'Google Cloud'].map(guidePath)).toEqual(['/docs/connectors#github', '/docs/connectors#google-cloud']);
  });
});

describe('missingSettings', () => {
  const setting = (name: string, required: boolean, value?: string) => ({
    name,
    description: `The ${name}.`,
    required,
    example: 'acme',
    ...(value === undefined ? {} : { value }),
  });

  it('names the required settings without a value, empty ones included, and never the optional ones', () => {
    const settings = [
      setting('organisation', true),
      setting('baseUrl', false),
      setting('project', true, ''),
      setting('tenant', true, 'acme'),
    ];
    expect(missingSettings({ settings }).map((each) => each.name)).toEqual(['organisation', 'project']);
  });
});

describe('progressLines', () => {
  it('says how many calls, items collected and stored, and that the vendor never asked to wait', () => {
    expect(progressLines({ calls: 0, items: 0, sent: 0, rateLimitWaits: 0, waitedSeconds: 0 })).toEqual([
      '0 calls to the vendor’s API',
      '0 items collected, 0 stored',
      'No rate-limit wait',
    ]);
  });

  it('counts in the singular for one and with separators past a thousand, and adds up the waits', () => {
    expect(progressLines({ calls: 1, items: 1, sent: 0, rateLimitWaits: 1, waitedSeconds: 30 })).toEqual([
      '1 call to the vendor’s API',
      '1 item collected, 0 stored',
      '1 rate-limit wait, 30 s in all',
    ]);
    expect(progressLines({ calls: 1250, items: 20000, sent: 19500, rateLimitWaits: 3, waitedSeconds: 61.25 })).toEqual([
      '1,250 calls to the vendor’s API',
      '20,000 items collected, 19,500 stored',
      '3 rate-limit waits, 61.3 s in all',
    ]);
  });
});

describe('waitText', () => {
  it('says how long it waited and why', () => {
    expect(waitText({ seconds: 60, reason: 'secondary rate limit' })).toBe(
      'The vendor asked it to slow down: it waited 60 s (secondary rate limit).',
    );
  });
});

describe('endingText', () => {
  it('says what a run that succeeded collected per kind, kinds in order', () => {
    expect(
      endingText({ type: 'run.completed', status: 'complete', counts: { 'vuln.scan': 3, 'repo.branch_protection': 1200 } }),
    ).toEqual({ headline: 'Succeeded.', tone: 'ok', detail: 'Collected repo.branch_protection 1,200, vuln.scan 3.' });
    expect(endingText({ type: 'run.completed', status: 'complete', counts: {} })).toEqual({
      headline: 'Succeeded.',
      tone: 'ok',
      detail: 'Collected nothing.',
    });
  });

  it('says a completed run whose counts disagree ended incomplete', () => {
    expect(endingText({ type: 'run.completed', status: 'incomplete', counts: { 'idp.user': 2 } })).toEqual({
      headline: 'Ended incomplete.',
      tone: 'bad',
      detail: 'Not every item it counted was stored; it sent idp.user 2.',
    });
  });

  it('says why a run failed, with the permission it lacks when the vendor named one', () => {
    const detail = 'GitHub refused to list the alerts of acme/api.';
    expect(
      endingText({
        type: 'run.failed',
        problem: { reason: 'permission_missing', detail, permission: 'Dependabot alerts: read' },
      }),
    ).toEqual({
      headline: 'Failed',
      tone: 'bad',
      detail: `(permission missing): ${detail}`,
      permission: 'Dependabot alerts: read',
    });
    expect(endingText({ type: 'run.failed', problem: { reason: 'credential_rejected', detail: 'Bad credentials.' } })).toEqual({
      headline: 'Failed',
      tone: 'bad',
      detail: '(credential rejected): Bad credentials.',
    });
  });

  it('says a cancelled run keeps what it stored', () => {
    expect(endingText({ type: 'run.cancelled' })).toEqual({
      headline: 'Cancelled.',
      tone: 'muted',
      detail: 'What it stored before stays stored.',
    });
  });
});
