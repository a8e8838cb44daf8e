/**
 * What Evident announces, as events with ids that are the same however often they are made: a
 * retried daily job or worker announces the same events again, and their deliveries, named after
 * the event and the subscription, are stored once (webhook-store.ts). So announcing is
 * at-least-once without a receiver seeing an event twice under two ids.
 *
 * Each event's `data` is what a receiver needs without calling back; the `slack` format words
 * the same event as one line of text, every value in it escaped for Slack (`slackEscape`).
 */
import { createHash } from 'node:crypto';
import type { Report } from '../assessment/model.js';
import { plural, type WebhookEventType } from '@evident/contract';

export interface WebhookEvent {
  /** Stable for the same fact: what the delivery ids derive from. */
  id: string;
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

const eventId = (...parts: string[]) => `evt_${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24)}`;

/** A published report: the event for it, and one per control whose status changed. */
export function reportEvents(report: Report, options: { republished: boolean; at: Date }): WebhookEvent[] {
  const timestamp = options.at.toISOString();
  const published: WebhookEvent = {
    id: eventId('report.published', report.date, report.runId),
    type: 'report.published',
    timestamp,
    data: {
      date: report.date,
      runId: report.runId,
      republished: options.republished,
      score: report.summary.score,
      counts: report.summary.counts,
      controls: report.summary.controls,
      overdue: report.summary.overdue ?? 0,
      previousDate: report.diff.previousDate,
      newlyFailing: report.diff.newlyFailing,
      fixed: report.diff.fixed,
      newlyStale: report.diff.newlyStale,
      changes: report.diff.changes,
    },
  };
  const results = new Map(report.controls.map((control) => [control.id, control]));
  const changed = report.diff.changes.map((change): WebhookEvent => {
    const result = results.get(change.id);
    return {
      // The same change of the same day is one event, whichever publication of the day announces it.
      id: eventId('control.status_changed', report.date, change.id, change.from, change.to),
      type: 'control.status_changed',
      timestamp,
      data: {
        date: report.date,
        previousDate: report.diff.previousDate,
        controlId: change.id,
        title: result?.title ?? change.id,
        severity: result?.severity ?? null,
        owner: result?.owner ?? null,
        from: change.from,
        to: change.to,
        dueDate: result?.dueDate ?? null,
      },
    };
  });
  return [published, ...changed];
}

/** An analysis run that completed. */
export function analysisCompleted(
  run: { id: string; controls: number; summary: unknown; published: boolean; date: string },
  at: Date,
): WebhookEvent {
  return {
    id: eventId('analysis.completed', run.id),
    type: 'analysis.completed',
    timestamp: at.toISOString(),
    data: { runId: run.id, date: run.date, controls: run.controls, summary: run.summary, published: run.published },
  };
}

/** Evidence a control reads that goes stale in `daysLeft` days, one reminder per anchor day. */
export function evidenceExpiring(
  reminder: { controlId: string; kind: string; subject: string; evidenceId: string; staleOn: string; daysLeft: number },
  at: Date,
): WebhookEvent {
  return {
    id: eventId('evidence.expiring', reminder.controlId, reminder.evidenceId, String(reminder.daysLeft)),
    type: 'evidence.expiring',
    timestamp: at.toISOString(),
    data: { ...reminder },
  };
}

/** An accepted risk that expires in `daysLeft` days. */
export function exceptionExpiring(
  exception: { id: string; controlId: string; subject: string | null; expiresOn: string; approver: unknown },
  daysLeft: number,
  at: Date,
): WebhookEvent {
  return {
    id: eventId('exception.expiring', exception.id, String(daysLeft)),
    type: 'exception.expiring',
    timestamp: at.toISOString(),
    data: {
      exceptionId: exception.id,
      controlId: exception.controlId,
      subject: exception.subject,
      expiresOn: exception.expiresOn,
      daysLeft,
      approver: exception.approver,
    },
  };
}

/** A collection run that ended incomplete: completed with counts that disagree, or cancelled. */
export function runIncomplete(
  run: {
    id: string;
    source: string;
    kinds: readonly string[];
    incompleteReason?: string;
    endedAt?: string;
    declared?: Record<string, number>;
    received?: Record<string, number>;
  },
  at: Date,
): WebhookEvent {
  return {
    // A run ends once, so it is one event however often it is announced.
    id: eventId('source.run_incomplete', run.id),
    type: 'source.run_incomplete',
    timestamp: at.toISOString(),
    data: {
      runId: run.id,
      source: run.source,
      kinds: run.kinds,
      reason: run.incompleteReason ?? null,
      endedAt: run.endedAt ?? null,
      declared: run.declared ?? null,
      received: run.received ?? null,
    },
  };
}

/** A complete run's population of one kind that shrank by more than the threshold since the previous complete run. */
export function populationDropped(
  run: { id: string; source: string },
  drop: { kind: string; previousRunId: string; previousCount: number; count: number; percent: number },
  at: Date,
): WebhookEvent {
  return {
    // A run's drop of a kind is found once, when it completes.
    id: eventId('population.dropped', run.id, drop.kind),
    type: 'population.dropped',
    timestamp: at.toISOString(),
    data: {
      runId: run.id,
      source: run.source,
      kind: drop.kind,
      previousRunId: drop.previousRunId,
      previousCount: drop.previousCount,
      count: drop.count,
      percent: drop.percent,
    },
  };
}

/** The test event a person asks for; a new one each time. */
export function ping(webhookId: string, at: Date, nonce: string): WebhookEvent {
  return {
    id: eventId('webhook.ping', webhookId, nonce),
    type: 'webhook.ping',
    timestamp: at.toISOString(),
    data: { webhookId, message: 'A test event from Evident: this endpoint receives and verifies its webhooks.' },
  };
}

/** The body a subscription receives for an event, in its format. */
export function payloadOf(event: WebhookEvent, format: 'json' | 'slack'): string {
  if (format === 'json') return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  return JSON.stringify({ text: slackText(event) });
}

/**
 * Text as Slack's mrkdwn reads it literally. Slack's "Escaping text" names exactly three
 * characters: `<` and `>` open and close its control sequences (`<!channel>`, `<@U123>`,
 * `<https://…|label>`), and `&` starts the entities that escape them, so it goes first. Subjects,
 * titles and ids come from evidence and people; unescaped, a subject could ping a whole channel
 * or show a phishing link under an innocent label.
 */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** One line for a chat channel; every value from the event is escaped, whatever its field. */
export function slackText(event: WebhookEvent): string {
  const data = event.data as Record<string, unknown>;
  const text = (key: string) => slackEscape(String(data[key]));
  const list = (key: string) => (data[key] as string[]).map(slackEscape).join(', ');
  switch (event.type) {
    case 'report.published': {
      const counts = data['counts'] as Record<string, number>;
      const what = [
        (data['newlyFailing'] as string[]).length > 0 ? `newly failing: ${list('newlyFailing')}` : '',
        (data['fixed'] as string[]).length > 0 ? `fixed: ${list('fixed')}` : '',
      ].filter(Boolean);
      return (
        `Evident report ${text('date')}${data['republished'] ? ' (republished)' : ''}: score ${text('score')}, ` +
        `${plural(counts['failing'] ?? 0, 'control')} failing` +
        (what.length > 0 ? `; ${what.join('; ')}` : '; no status changed')
      );
    }
    case 'control.status_changed':
      return `${text('controlId')} ${text('title')}: ${text('from')} → ${text('to')} (${text('date')})`;
    case 'evidence.expiring':
      return (
        `The ${text('kind')} evidence for ${text('subject')} goes stale on ${text('staleOn')} ` +
        `(${plural(Number(data['daysLeft']), 'day')} left) and ${text('controlId')} needs it`
      );
    case 'exception.expiring':
      return (
        `The accepted risk ${text('exceptionId')} on ${text('controlId')}` +
        `${data['subject'] ? ` for ${text('subject')}` : ''} expires on ${text('expiresOn')} ` +
        `(${plural(Number(data['daysLeft']), 'day')} left)`
      );
    case 'analysis.completed':
      return `Evident analysis ${text('runId')} completed${data['published'] ? " and republished today's report" : ''}`;
    case 'source.run_incomplete':
      return (
        `The collection run ${text('runId')} of ${text('source')} is incomplete ` +
        `(${data['reason'] === 'cancelled' ? 'cancelled' : 'the counts it declared disagree with those received'})`
      );
    case 'population.dropped':
      return (
        `The ${text('kind')} population of ${text('source')} dropped from ${text('previousCount')} to ` +
        `${text('count')} (−${text('percent')} %) in the collection run ${text('runId')}; acknowledge it with a reason`
      );
    case 'webhook.ping':
      return text('message');
  }
}
