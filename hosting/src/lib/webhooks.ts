/**
 * How the webhooks page words and sends outbound webhooks (`/api/webhooks`): what each event
 * means, the form's checks before anything is sent (https only, but for the loopback addresses
 * the local emulators accept) and its body, the server's problems placed under the fields they
 * name, the wording of deliveries and their attempts, the deliveries list kept newest first as
 * pages, pings and redeliveries arrive, and the few refreshes after a ping that show it land.
 * Pure (but for `wait`, a timer), so it is unit tested without a browser.
 */
import { defaultReminderDays, pageLimits, plural, shownWebhookUrl, webhookEventTypes, webhookFormats } from '@evident/contract';
import type { Problem } from './api.ts';
import type { Delivery, DeliveryAttempt, Webhook, WebhookCreated, WebhookInput } from './api-types.ts';

export type WebhookEvent = (typeof webhookEventTypes)[number];
export type WebhookFormat = (typeof webhookFormats)[number];
export type DeliveryState = Delivery['state'];

/** The longest URL and description the API takes (openapi/paths/webhooks.ts). */
export const maxUrlLength = 2048;
export const maxDescriptionLength = 200;

/** "30, 7 or 1 days": the reminder days, as a sentence says them. */
const reminderDays = `${defaultReminderDays.slice(0, -1).join(', ')} or ${defaultReminderDays.at(-1)} days`;

/** Each event a webhook may subscribe to: a short name, and what it announces in one line. */
export const webhookEvents: Record<WebhookEvent, { label: string; explanation: string }> = {
  'report.published': { label: 'Report published', explanation: 'A report was published, with its score and what changed.' },
  'control.status_changed': { label: 'Control status changed', explanation: 'One per control whose status changed.' },
  'evidence.expiring': { label: 'Evidence expiring', explanation: `Evidence will go stale in ${reminderDays}.` },
  'exception.expiring': { label: 'Exception expiring', explanation: `An accepted risk expires in ${reminderDays}.` },
  'analysis.completed': { label: 'Analysis completed', explanation: 'A re-run finished.' },
  'source.run_incomplete': {
    label: 'Collection run incomplete',
    explanation: 'A collector\u2019s run was cancelled, or completed with counts that disagree with what arrived.',
  },
  'population.dropped': {
    label: 'Population dropped',
    explanation: 'A complete run reported fewer subjects of a kind than the previous one, past the threshold.',
  },
};

/** An event type as a person reads it: the test ping and the subscribed events by name, anything newer as sent. */
export function eventLabel(type: string): string {
  if (type === 'webhook.ping') return 'Ping';
  return (webhookEvents as Record<string, { label: string } | undefined>)[type]?.label ?? type;
}

export const webhookFormatLabels: Record<WebhookFormat, string> = { json: 'JSON', slack: 'Slack text' };

export const deliveryStateLabels: Record<DeliveryState, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** "85 ms", "1.2 s", "12 s". */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}

/** "no attempt yet", "1 attempt", "3 attempts". */
export const attemptsText = (count: number): string => (count === 0 ? 'no attempt yet' : plural(count, 'attempt'));

/**
 * One attempt's outcome and how long it took: "HTTP 200 in 85 ms", "Failed: HTTP 503, after
 * 1.2 s", "Failed: connection refused, after 10 s".
 */
export function attemptText(attempt: Pick<DeliveryAttempt, 'outcome' | 'status' | 'error' | 'durationMs'>): string {
  const duration = durationText(attempt.durationMs);
  const status = attempt.status === undefined ? undefined : `HTTP ${attempt.status}`;
  if (attempt.outcome === 'delivered') return `${status ?? 'Delivered'} in ${duration}`;
  const reason = [status, attempt.error].filter(Boolean).join(': ') || 'no answer';
  return `Failed: ${reason}, after ${duration}`;
}

/** How many attempts a delivery took, and whether more are coming: "1 attempt", "2 attempts, retrying". */
export function attemptsSummary(delivery: Pick<Delivery, 'state' | 'attempts'>): string {
  const count = delivery.attempts.length;
  return `${attemptsText(count)}${delivery.state === 'pending' && count > 0 ? ', retrying' : ''}`;
}

// The form.

export interface WebhookValues {
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  description: string;
}

export const emptyWebhookValues = (): WebhookValues => ({ url: '', events: [], format: 'json', description: '' });

export const webhookFields = ['url', 'events', 'format', 'description'] as const;
export type WebhookField = (typeof webhookFields)[number];

export const webhookFieldLabels: Record<WebhookField, string> = {
  url: 'URL',
  events: 'Events',
  format: 'Format',
  description: 'Description',
};

export interface WebhookProblems {
  /** Messages under each field. */
  byField: Partial<Record<WebhookField, string[]>>;
  /** What to say at the top of the form. */
  summary: string;
}

/** The hosts an `http:` URL may name: loopback, which only the local emulators send to. */
export const loopbackHosts: readonly string[] = ['127.0.0.1', 'localhost'];

/** Why the URL cannot be sent to, before asking the server (which checks more: what the name resolves to). */
export function urlProblem(value: string): string | undefined {
  const url = value.trim();
  if (url === '') return 'Enter the URL to send the events to.';
  if (url.length > maxUrlLength) return `The URL is longer than ${maxUrlLength} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The URL must be a full address, such as https://hooks.example.com/evident.';
  }
  const https = parsed.protocol === 'https:' && parsed.hostname !== '';
  if (!https && !(parsed.protocol === 'http:' && loopbackHosts.includes(parsed.hostname)))
    return 'The URL must start with https:// (http:// only to 127.0.0.1 or localhost, which the local emulators accept).';
  // The server refuses them too: they would end up in logs and in the list; the signature authenticates Evident.
  if (parsed.username !== '' || parsed.password !== '') return 'The URL must not carry a user name or password.';
  return undefined;
}

/** What is wrong with the form before it is sent, or undefined when nothing is. */
export function checkWebhook(values: WebhookValues): WebhookProblems | undefined {
  const byField: Partial<Record<WebhookField, string[]>> = {};
  const url = urlProblem(values.url);
  if (url) byField.url = [url];
  if (values.events.length === 0) byField.events = ['Choose at least one event.'];
  if (!(webhookFormats as readonly string[]).includes(values.format)) byField.format = ['Choose JSON or Slack text.'];
  if (values.description.trim().length > maxDescriptionLength)
    byField.description = [`The description is longer than ${maxDescriptionLength} characters.`];
  const messages = webhookFields.flatMap((field) => byField[field] ?? []);
  return messages.length === 0 ? undefined : { byField, summary: messages.join(' ') };
}

/** The body of `POST /api/webhooks`: the events in the API's order, the description only when given. */
export function webhookBody(values: WebhookValues): WebhookInput {
  const description = values.description.trim();
  return {
    url: values.url.trim(),
    events: webhookEventTypes.filter((type) => values.events.includes(type)),
    format: values.format,
    ...(description ? { description } : {}),
  };
}

/**
 * Places a problem answer on the form: a refused URL's reason goes under the URL, a body error
 * whose pointer names a field goes under it ("Events must NOT have fewer than 1 items"), and the
 * summary is the server's `detail`.
 */
export function webhookProblemsOf(problem: Problem): WebhookProblems {
  const byField: Partial<Record<WebhookField, string[]>> = {};
  const summary = problem.detail ?? problem.title;
  if (problem.code === 'webhook_target_refused') byField.url = [summary];
  for (const error of problem.errors ?? []) {
    const name = error.in === 'body' ? error.pointer?.split('/')[1] : undefined;
    if (!(webhookFields as readonly string[]).includes(name ?? '')) continue;
    const field = name as WebhookField;
    (byField[field] ??= []).push(`${webhookFieldLabels[field]} ${error.message}`);
  }
  return { byField, summary };
}

// The list.

/**
 * The subscription a creation answered as the list shows it: without its secret, and its URL
 * shortened as the API lists it (both are shown once, on the form).
 */
export const webhookOf = ({ id, url, events, format, description, createdAt, createdBy }: WebhookCreated): Webhook => ({
  id,
  url: shownWebhookUrl(url),
  events,
  format,
  description,
  createdAt,
  createdBy,
});

/** The list with `webhook` in it: in place when listed, else last (the API lists oldest first). */
export function withWebhook(list: readonly Webhook[], webhook: Webhook): Webhook[] {
  return list.some((each) => each.id === webhook.id)
    ? list.map((each) => (each.id === webhook.id ? webhook : each))
    : [...list, webhook];
}

export const withoutWebhook = (list: readonly Webhook[], id: string): Webhook[] => list.filter((each) => each.id !== id);

// Deliveries.

/** Deliveries shown per page. */
export const deliveryPageSize = 10;

/** How many to ask for when refreshing: as many as are shown (at least a page, at most what the API gives). */
export const refreshLimit = (shown: number, pageSize = deliveryPageSize): number =>
  Math.min(pageLimits.webhookDeliveries.maximum, Math.max(pageSize, shown));

/** The list with `delivery` in it: in place when listed (a redelivery), else first (a new one is the newest). */
export function upsertDelivery(list: readonly Delivery[], delivery: Delivery): Delivery[] {
  return list.some((each) => each.id === delivery.id)
    ? list.map((each) => (each.id === delivery.id ? delivery : each))
    : [delivery, ...list];
}

/** An older page after those shown, each delivery once. */
export function appendDeliveries(list: readonly Delivery[], older: readonly Delivery[]): Delivery[] {
  const shown = new Set(list.map((each) => each.id));
  return [...list, ...older.filter((each) => !shown.has(each.id))];
}

/**
 * Whether a delivery queued as `queued` (a ping, a redelivery) has landed, as `now` lists it: a
 * new attempt was recorded, or the state left `pending`. Not yet when it is not listed.
 */
export function hasLanded(
  queued: Pick<Delivery, 'state' | 'attempts'>,
  now: Pick<Delivery, 'state' | 'attempts'> | undefined,
): boolean {
  if (now === undefined) return false;
  return now.attempts.length > queued.attempts.length || (queued.state === 'pending' && now.state !== 'pending');
}

/** The waits, in ms, before each refresh after a ping or a redelivery: about 12 s in all. */
export const landingDelays: readonly number[] = [500, 1000, 1500, 2000, 3000, 4000];

/** Resolves after `ms`, or at once when `signal` aborts. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Refreshes after each of `delays` until `refresh` says what it waited for has happened; stops
 * when the delays run out or `signal` aborts (the page was left). Resolves to whether it happened.
 * `sleep` is the wait, replaced in tests.
 */
export async function refreshUntil(
  refresh: () => Promise<boolean>,
  {
    delays = landingDelays,
    sleep = wait,
    signal,
  }: { delays?: readonly number[]; sleep?: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal } = {},
): Promise<boolean> {
  for (const delay of delays) {
    await sleep(delay, signal);
    if (signal?.aborted) return false;
    if (await refresh()) return true;
  }
  return false;
}
