/**
 * What Evident announces, as events with ids that are the same however often they are made: a
 * retried daily job or worker announces the same events again, and their deliveries, named after
 * the event and the subscription, are stored once (webhook-store.ts). So announcing is
 * at-least-once without a receiver seeing an event twice under two ids.
 *
 * Each event's `data` is what a receiver needs without calling back; the `slack` format words
 * the same event as one line of text.
 */
import { createHash } from 'node:crypto';
import type { Report } from '../assessment/model.js';
import { plural, type WebhookEventType } from '../contract.js';

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

/** One line for a chat channel. */
export function slackText(event: WebhookEvent): string {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'report.published': {
      const counts = data['counts'] as Record<string, number>;
      const newlyFailing = data['newlyFailing'] as string[];
      const fixed = data['fixed'] as string[];
      const what = [
        newlyFailing.length > 0 ? `newly failing: ${newlyFailing.join(', ')}` : '',
        fixed.length > 0 ? `fixed: ${fixed.join(', ')}` : '',
      ].filter(Boolean);
      return (
        `Evident report ${String(data['date'])}${data['republished'] ? ' (republished)' : ''}: score ${String(data['score'])}, ` +
        `${plural(counts['failing'] ?? 0, 'control')} failing` +
        (what.length > 0 ? `; ${what.join('; ')}` : '; no status changed')
      );
    }
    case 'control.status_changed':
      return `${String(data['controlId'])} ${String(data['title'])}: ${String(data['from'])} → ${String(data['to'])} (${String(data['date'])})`;
    case 'evidence.expiring':
      return (
        `The ${String(data['kind'])} evidence for ${String(data['subject'])} goes stale on ${String(data['staleOn'])} ` +
        `(${plural(Number(data['daysLeft']), 'day')} left) and ${String(data['controlId'])} needs it`
      );
    case 'exception.expiring':
      return (
        `The accepted risk ${String(data['exceptionId'])} on ${String(data['controlId'])}` +
        `${data['subject'] ? ` for ${String(data['subject'])}` : ''} expires on ${String(data['expiresOn'])} ` +
        `(${plural(Number(data['daysLeft']), 'day')} left)`
      );
    case 'analysis.completed':
      return `Evident analysis ${String(data['runId'])} completed${data['published'] ? " and republished today's report" : ''}`;
    case 'webhook.ping':
      return String(data['message']);
  }
}
