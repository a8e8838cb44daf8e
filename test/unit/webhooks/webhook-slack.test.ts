/**
 * The `slack` format: every piece of text that comes from evidence, the catalog or a person is
 * escaped as Slack's "Escaping text" asks (`&`, `<`, `>` only), so a subject cannot ping a
 * channel or hide a link in the message Evident posts.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../functions/src/webhooks/webhook-events.ts';
import { evidenceExpiring, exceptionExpiring, payloadOf } from '../../../functions/src/webhooks/webhook-events.ts';

const at = new Date('2026-11-24T06:00:00Z');
/** The subject of the issue: a channel-wide ping and a disguised link. */
const hostile = '<!channel> … <https://evil.example|sign in>';

const slackText = (event: WebhookEvent) => (JSON.parse(payloadOf(event, 'slack')) as { text: string }).text;

describe('slack payloads', () => {
  it('escape an evidence subject that would ping the channel and show a phishing link', () => {
    const event = evidenceExpiring(
      {
        controlId: 'IAM-01',
        kind: 'idp.users',
        subject: hostile,
        evidenceId: 'ev-1',
        staleOn: '2026-12-01',
        daysLeft: 7,
      },
      at,
    );
    expect(payloadOf(event, 'slack')).toBe(
      JSON.stringify({
        text:
          'The idp.users evidence for &lt;!channel&gt; … &lt;https://evil.example|sign in&gt; goes stale on 2026-12-01 ' +
          '(7 days left) and IAM-01 needs it',
      }),
    );
  });

  it('escape an ampersand first, so text that looks escaped already stays as written', () => {
    const event = exceptionExpiring(
      { id: 'exc-1', controlId: 'NET-02', subject: 'R&D &lt;lab&gt;', expiresOn: '2026-12-01', approver: null },
      7,
      at,
    );
    expect(slackText(event)).toBe(
      'The accepted risk exc-1 on NET-02 for R&amp;D &amp;lt;lab&amp;gt; expires on 2026-12-01 (7 days left)',
    );
  });

  it('escape a control title and the control ids of a report', () => {
    const changed: WebhookEvent = {
      id: 'evt_1',
      type: 'control.status_changed',
      timestamp: at.toISOString(),
      data: { controlId: 'IAM-08', title: 'Buckets <!here>', from: 'passing', to: 'failing', date: '2026-11-24' },
    };
    expect(slackText(changed)).toBe('IAM-08 Buckets &lt;!here&gt;: passing → failing (2026-11-24)');
    const published: WebhookEvent = {
      id: 'evt_2',
      type: 'report.published',
      timestamp: at.toISOString(),
      data: {
        date: '2026-11-24',
        republished: false,
        score: 80,
        counts: { failing: 1 },
        newlyFailing: ['<@U123>'],
        fixed: ['A&B'],
      },
    };
    expect(slackText(published)).toBe(
      'Evident report 2026-11-24: score 80, 1 control failing; newly failing: &lt;@U123&gt;; fixed: A&amp;B',
    );
  });
});
