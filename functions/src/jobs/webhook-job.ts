/**
 * Webhooks as the jobs use them, with production dependencies: the delivery task's attempt, and
 * what the daily job and the analysis worker announce. Announcing is idempotent (events and
 * deliveries have stable ids), so a retried job announces again without a receiver getting a
 * second message under a new id.
 */
import { expiringEvidence } from '../assessment/expiring-evidence.js';
import { addDays } from '../assessment/dates.js';
import type { CompiledCatalog } from '../assessment/evaluate.js';
import type { Report } from '../assessment/model.js';
import { cloudTaskQueue } from '../common/cloud-tasks.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { webhookDeliveryIdPattern } from '@evident/contract';
import { logs } from '../logs.js';
import type { DailyReportOutcome } from '../reports/daily-report.js';
import type { ObjectStore } from '../storage/object-store.js';
import { openStore } from '../storage/open-store.js';
import { WebhookDispatcher, deliveryFunctionName, deliveryRetry, type DeliveryTask } from '../webhooks/webhook-dispatch.js';
import {
  analysisCompleted,
  evidenceExpiring,
  exceptionExpiring,
  reportEvents,
  type WebhookEvent,
} from '../webhooks/webhook-events.js';
import type { AnalysisEvent, RunRecord } from '../analyses/analysis-model.js';
import type { ReportStore } from '../reports/report-store.js';
import { attemptDelivery } from '../webhooks/webhook-sender.js';
import { keyRingFrom } from '../webhooks/webhook-keys.js';
import { WebhookStore } from '../webhooks/webhook-store.js';

const deliveryIdShape = new RegExp(webhookDeliveryIdPattern);
const webhookKeys = keyRingFrom(config.webhookSecretKey);

const senderDeps = loadOnce(async () => ({
  // The one place besides the webhooks family that opens credentials: deliverWebhook is given the secret.
  store: new WebhookStore(await openStore(), webhookKeys),
  policy: { allowLoopback: config.inEmulator() },
  now: () => new Date(),
}));

export async function runDeliveryTask(deliveryId: unknown, retryCount: number): Promise<void> {
  if (typeof deliveryId !== 'string' || !deliveryIdShape.test(deliveryId)) {
    logs.webhookSkipped(String(deliveryId), 'malformed task');
    return;
  }
  const number = retryCount + 1;
  await attemptDelivery(await senderDeps(), deliveryId, { number, final: number >= deliveryRetry.maxAttempts });
}

/** The dispatcher over a store, queuing on Cloud Tasks. */
export function dispatcherFor(store: ObjectStore): WebhookDispatcher {
  return new WebhookDispatcher(new WebhookStore(store), cloudTaskQueue<DeliveryTask>(deliveryFunctionName), () => new Date());
}

/** What the daily job announces: the report (again, if a retry finds it stored) and the day's reminders. */
export async function announceDay(
  store: ObjectStore,
  compiled: CompiledCatalog,
  outcome: DailyReportOutcome,
  trigger: string,
): Promise<void> {
  const now = new Date();
  const { report } = outcome.stored;
  const events: WebhookEvent[] = reportEvents(report, { republished: false, at: now });
  const days = config.reminderDays();
  if (outcome.evidence) {
    const asOf = new Date(report.asOf);
    // The freshness windows the report was made with, the settings' overrides included.
    for (const reminder of expiringEvidence(outcome.catalog ?? compiled, outcome.evidence, {
      asOf,
      timeZone: report.timeZone,
      reminderDays: days,
    })) {
      events.push(evidenceExpiring(reminder, now));
    }
  }
  events.push(...exceptionReminders(report, days, now));
  const deliveries = await dispatcherFor(store).announce(events);
  logs.webhooksAnnounced(trigger, events.length, deliveries);
}

/**
 * The reminders of exceptions that expire a reminder's number of days after the report's day.
 * The report lists the exceptions in force on its day, so this reads nothing from the store.
 */
export function exceptionReminders(report: Report, days: readonly number[], now: Date): WebhookEvent[] {
  return (report.exceptions ?? []).flatMap((exception) => {
    const daysLeft = days.find((day) => addDays(report.date, day) === exception.expiresOn);
    return daysLeft === undefined ? [] : [exceptionExpiring(exception, daysLeft, now)];
  });
}

/**
 * What a run that completed announces: that it completed and, when it published today's report,
 * the report again (`republished`) with the status changes it brought.
 */
export async function announceRun(
  store: ObjectStore,
  reports: ReportStore,
  record: RunRecord,
  events: readonly AnalysisEvent[],
): Promise<void> {
  const last = events.at(-1);
  if (last?.type !== 'run.completed') return;
  const { summary, published } = last.data as { summary: unknown; published: boolean };
  const now = new Date();
  const announced: WebhookEvent[] = [
    analysisCompleted({ id: record.id, date: record.date, controls: record.controls?.length ?? 0, summary, published }, now),
  ];
  const today = published ? await reports.find(record.date, { fresh: true }) : undefined;
  if (today) announced.push(...reportEvents(today.report, { republished: true, at: now }));
  const deliveries = await dispatcherFor(store).announce(announced);
  logs.webhooksAnnounced(`analysis ${record.id}`, announced.length, deliveries);
}
