/**
 * How the webhooks page words, checks and sends webhooks: every event explained, the form's own
 * checks (https, loopback http for the emulators, at least one event), its body, the server's
 * problems placed by field, deliveries and attempts worded, the lists kept in order, and the
 * refreshes after a ping that stop once it lands (driven by a stand-in wait, not the clock).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shownWebhookUrl, webhookEventTypes, webhookFormats } from '@evident/contract';
import type { Problem } from '../../../hosting/src/lib/api.ts';
import { apiPath } from '../../../hosting/src/lib/api-client.ts';
import type { Delivery, Webhook, WebhookCreated } from '../../../hosting/src/lib/api-types.ts';
import {
  appendDeliveries,
  attemptText,
  attemptsSummary,
  attemptsText,
  checkWebhook,
  deliveryStateLabels,
  durationText,
  emptyWebhookValues,
  eventLabel,
  hasLanded,
  landingDelays,
  refreshLimit,
  refreshUntil,
  upsertDelivery,
  urlProblem,
  wait,
  webhookBody,
  webhookEvents,
  webhookFormatLabels,
  webhookOf,
  webhookProblemsOf,
  withWebhook,
  withoutWebhook,
  type WebhookValues,
} from '../../../hosting/src/lib/webhooks.ts';

/** The path a page of a webhook's deliveries is asked at, as the API client writes it. */
const deliveriesApiPath = (webhookId: string, query: { limit?: number; cursor?: string } = {}) =>
  apiPath('/api/webhooks/{id}/deliveries', { path: { id: webhookId }, query });

const webhook = (id: string, url = `https://hooks.example.com/${id}`): Webhook => ({
  id,
  url,
  events: ['report.published'],
  format: 'json',
  description: '',
  createdAt: '2026-11-24T09:00:00Z',
  createdBy: { uid: 'u1', email: 'ops@example.com' },
});

const delivery = (id: string, state: Delivery['state'] = 'pending', attempts = 0): Delivery => ({
  id,
  webhookId: 'wh-0123456789ab',
  event: { type: 'webhook.ping', timestamp: '2026-11-24T09:00:00Z' },
  createdAt: '2026-11-24T09:00:00Z',
  state,
  attempts: Array.from({ length: attempts }, (_, index) => ({
    at: `2026-11-24T09:00:0${index}Z`,
    durationMs: 40,
    outcome: state === 'delivered' && index === attempts - 1 ? 'delivered' : 'failed',
    status: state === 'delivered' && index === attempts - 1 ? 200 : 503,
  })),
});

const problem = (fields: Partial<Problem> & Pick<Problem, 'code' | 'status'>): Problem => ({
  type: `/docs/reference-errors#${fields.code}`,
  title: 'A problem',
  requestId: 'req-1',
  ...fields,
});

const values = (overrides: Partial<WebhookValues> = {}): WebhookValues => ({
  ...emptyWebhookValues(),
  url: 'https://hooks.example.com/evident',
  events: ['report.published'],
  ...overrides,
});

describe('what each event and format is called', () => {
  it('explains every event the API lets a webhook subscribe to, in one line each', () => {
    expect(Object.keys(webhookEvents)).toEqual([...webhookEventTypes]);
    for (const type of webhookEventTypes) expect(webhookEvents[type].explanation).toMatch(/^[A-Z][^\n]+\.$/);
    expect(webhookEvents['report.published'].explanation).toBe('A report was published, with its score and what changed.');
    expect(webhookEvents['control.status_changed'].explanation).toBe('One per control whose status changed.');
    expect(webhookEvents['evidence.expiring'].explanation).toBe('Evidence will go stale in 30, 7 or 1 days.');
    expect(webhookEvents['exception.expiring'].explanation).toBe('An accepted risk expires in 30, 7 or 1 days.');
    expect(webhookEvents['analysis.completed'].explanation).toBe('A re-run finished.');
  });

  it('names delivered event types, the ping included, and leaves one it does not know as sent', () => {
    expect(eventLabel('report.published')).toBe('Report published');
    expect(eventLabel('control.status_changed')).toBe('Control status changed');
    expect(eventLabel('webhook.ping')).toBe('Ping');
    expect(eventLabel('something.new')).toBe('something.new');
    expect(eventLabel('toString')).toBe('toString');
  });

  it('labels both formats and every delivery state', () => {
    expect(Object.keys(webhookFormatLabels)).toEqual([...webhookFormats]);
    expect(webhookFormatLabels).toEqual({ json: 'JSON', slack: 'Slack text' });
    expect(deliveryStateLabels).toEqual({ pending: 'Pending', delivered: 'Delivered', failed: 'Failed' });
  });
});

describe('attempts and durations', () => {
  it('words a duration in ms below a second, tenths below ten seconds, whole seconds above', () => {
    expect(durationText(0)).toBe('0 ms');
    expect(durationText(85)).toBe('85 ms');
    expect(durationText(999)).toBe('999 ms');
    expect(durationText(1000)).toBe('1.0 s');
    expect(durationText(1234)).toBe('1.2 s');
    expect(durationText(9_949)).toBe('9.9 s');
    expect(durationText(10_000)).toBe('10 s');
    expect(durationText(12_600)).toBe('13 s');
  });

  it("says an attempt's status or error and how long it took", () => {
    expect(attemptText({ outcome: 'delivered', status: 204, durationMs: 85 })).toBe('HTTP 204 in 85 ms');
    expect(attemptText({ outcome: 'delivered', durationMs: 85 })).toBe('Delivered in 85 ms');
    expect(attemptText({ outcome: 'failed', status: 503, durationMs: 1200 })).toBe('Failed: HTTP 503, after 1.2 s');
    expect(attemptText({ outcome: 'failed', status: 500, error: 'Internal Server Error', durationMs: 40 })).toBe(
      'Failed: HTTP 500: Internal Server Error, after 40 ms',
    );
    expect(attemptText({ outcome: 'failed', error: 'connection refused', durationMs: 10_000 })).toBe(
      'Failed: connection refused, after 10 s',
    );
    expect(attemptText({ outcome: 'failed', durationMs: 10_000 })).toBe('Failed: no answer, after 10 s');
  });

  it('counts attempts, and says a pending delivery with attempts is being retried', () => {
    expect(attemptsText(0)).toBe('no attempt yet');
    expect(attemptsText(1)).toBe('1 attempt');
    expect(attemptsText(3)).toBe('3 attempts');
    expect(attemptsSummary(delivery('m', 'pending', 0))).toBe('no attempt yet');
    expect(attemptsSummary(delivery('m', 'pending', 2))).toBe('2 attempts, retrying');
    expect(attemptsSummary(delivery('m', 'delivered', 1))).toBe('1 attempt');
    expect(attemptsSummary(delivery('m', 'failed', 8))).toBe('8 attempts');
  });
});

describe("the form's own checks", () => {
  it('takes https URLs, and http only to 127.0.0.1 or localhost (the emulators)', () => {
    for (const url of [
      'https://hooks.example.com/evident',
      '  https://hooks.slack.com/services/T0/B0/x  ',
      'HTTPS://EXAMPLE.COM',
      'http://127.0.0.1:9999/hook',
      'http://localhost:8080/hook',
      'http://localhost',
    ])
      expect([url, urlProblem(url)]).toEqual([url, undefined]);
  });

  it('says what is wrong with any other URL', () => {
    expect(urlProblem('')).toBe('Enter the URL to send the events to.');
    expect(urlProblem('   ')).toBe('Enter the URL to send the events to.');
    const notFull = 'The URL must be a full address, such as https://hooks.example.com/evident.';
    expect(urlProblem('hooks.example.com/evident')).toBe(notFull);
    expect(urlProblem('https://')).toBe(notFull);
    const notHttps =
      'The URL must start with https:// (http:// only to 127.0.0.1 or localhost, which the local emulators accept).';
    for (const url of [
      'http://hooks.example.com',
      'http://10.0.0.1/hook',
      'http://127.0.0.2',
      'ftp://example.com',
      'mailto:a@b.c',
    ])
      expect([url, urlProblem(url)]).toEqual([url, notHttps]);
    expect(urlProblem(`https://example.com/${'a'.repeat(2048)}`)).toBe('The URL is longer than 2048 characters.');
    expect(urlProblem('https://user:secret@hooks.example.com/')).toBe('The URL must not carry a user name or password.');
    expect(urlProblem('https://token@hooks.example.com/')).toBe('The URL must not carry a user name or password.');
  });

  it('asks for at least one event, and says every problem in the summary, URL first', () => {
    expect(checkWebhook(values())).toBeUndefined();
    expect(checkWebhook(values({ events: [] }))).toEqual({
      byField: { events: ['Choose at least one event.'] },
      summary: 'Choose at least one event.',
    });
    const both = checkWebhook(values({ url: 'http://hooks.example.com', events: [] }));
    expect(Object.keys(both!.byField)).toEqual(['url', 'events']);
    expect(both!.summary).toMatch(/^The URL must start with https:\/\/ .* Choose at least one event\.$/);
    expect(checkWebhook(values({ description: 'x'.repeat(201) }))?.byField).toEqual({
      description: ['The description is longer than 200 characters.'],
    });
  });

  it('sends the URL and description trimmed, the events in the API order, and no empty description', () => {
    expect(
      webhookBody(
        values({
          url: ' https://a.example/h ',
          events: ['analysis.completed', 'report.published'],
          format: 'slack',
          description: '  ',
        }),
      ),
    ).toEqual({ url: 'https://a.example/h', events: ['report.published', 'analysis.completed'], format: 'slack' });
    expect(webhookBody(values({ description: ' CI alerts ' }))).toEqual({
      url: 'https://hooks.example.com/evident',
      events: ['report.published'],
      format: 'json',
      description: 'CI alerts',
    });
  });
});

describe("the server's problems on the form", () => {
  it('puts a refused URL under the URL field, in the words of its detail', () => {
    const refused = problem({
      code: 'webhook_target_refused',
      status: 422,
      detail: 'hooks.internal resolves to 10.0.0.5, a private address.',
    });
    expect(webhookProblemsOf(refused)).toEqual({
      byField: { url: ['hooks.internal resolves to 10.0.0.5, a private address.'] },
      summary: 'hooks.internal resolves to 10.0.0.5, a private address.',
    });
  });

  it('keeps a full deployment to the summary, and places body errors by their pointer', () => {
    expect(webhookProblemsOf(problem({ code: 'too_many_webhooks', status: 409, detail: 'At most 25.' }))).toEqual({
      byField: {},
      summary: 'At most 25.',
    });
    const invalid = problem({
      code: 'invalid_request',
      status: 400,
      title: 'Invalid request',
      errors: [
        { in: 'body', pointer: '/events/0', message: 'must be equal to one of the allowed values' },
        { in: 'body', pointer: '/description', message: 'must NOT have more than 200 characters' },
        { in: 'body', pointer: '/extra', message: 'must NOT have additional properties' },
        { in: 'query', name: 'url', message: 'is not allowed' },
      ],
    });
    expect(webhookProblemsOf(invalid)).toEqual({
      byField: {
        events: ['Events must be equal to one of the allowed values'],
        description: ['Description must NOT have more than 200 characters'],
      },
      summary: 'Invalid request',
    });
  });
});

describe('a webhook URL as lists show it', () => {
  it('keeps the origin and at most the last four characters of the path and query, when they are more than eight', () => {
    expect(
      [
        'https://hooks.slack.com/services/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',
        'https://hooks.example.com/a/b?token=12345678wxyz',
        'http://127.0.0.1:5005/receiver',
        'https://hooks.example.com/evident',
        'https://hooks.example.com/',
        'https://[2606:4700::1]:8443/hook',
      ].map(shownWebhookUrl),
    ).toEqual([
      'https://hooks.slack.com/…Op0a',
      'https://hooks.example.com/…wxyz',
      'http://127.0.0.1:5005/…',
      'https://hooks.example.com/…',
      'https://hooks.example.com/',
      'https://[2606:4700::1]:8443/…',
    ]);
  });
});

describe('the list of webhooks', () => {
  it('adds a new one last without its secret and its URL shortened, replaces one already listed, and drops a deleted one', () => {
    const created: WebhookCreated = {
      ...webhook('wh-00000000000c', 'https://hooks.slack.com/services/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'),
      secret: 'whsec_abc',
    };
    const list = [webhook('wh-00000000000a'), webhook('wh-00000000000b')];
    const added = withWebhook(list, webhookOf(created));
    expect(added.map((each) => each.id)).toEqual(['wh-00000000000a', 'wh-00000000000b', 'wh-00000000000c']);
    expect(added[2]).not.toHaveProperty('secret');
    expect(webhookOf(created)).toEqual(webhook('wh-00000000000c', 'https://hooks.slack.com/…Op0a'));
    const changed = withWebhook(added, { ...webhook('wh-00000000000a'), description: 'now described' });
    expect(changed.map((each) => [each.id, each.description])).toEqual([
      ['wh-00000000000a', 'now described'],
      ['wh-00000000000b', ''],
      ['wh-00000000000c', ''],
    ]);
    expect(withoutWebhook(changed, 'wh-00000000000b').map((each) => each.id)).toEqual(['wh-00000000000a', 'wh-00000000000c']);
    expect(list).toHaveLength(2);
  });
});

describe('deliveries', () => {
  it('asks for a page by limit and cursor', () => {
    expect(deliveriesApiPath('wh-0123456789ab')).toBe('/api/webhooks/wh-0123456789ab/deliveries');
    expect(deliveriesApiPath('wh-0123456789ab', { limit: 10 })).toBe('/api/webhooks/wh-0123456789ab/deliveries?limit=10');
    expect(deliveriesApiPath('wh-0123456789ab', { limit: 10, cursor: 'a+b/c=' })).toBe(
      '/api/webhooks/wh-0123456789ab/deliveries?limit=10&cursor=a%2Bb%2Fc%3D',
    );
  });

  it('refreshes as many as are shown: at least a page, at most what the API gives', () => {
    expect(refreshLimit(0)).toBe(10);
    expect(refreshLimit(7)).toBe(10);
    expect(refreshLimit(30)).toBe(30);
    expect(refreshLimit(250)).toBe(100);
    expect(refreshLimit(3, 20)).toBe(20);
  });

  it('puts a new delivery first, a redelivered one in its place, and an older page after, each once', () => {
    const list = [delivery('msg_b'), delivery('msg_a', 'delivered', 1)];
    expect(upsertDelivery(list, delivery('msg_c')).map((each) => each.id)).toEqual(['msg_c', 'msg_b', 'msg_a']);
    const again = upsertDelivery(list, delivery('msg_a', 'pending', 1));
    expect(again.map((each) => [each.id, each.state])).toEqual([
      ['msg_b', 'pending'],
      ['msg_a', 'pending'],
    ]);
    expect(appendDeliveries(list, [delivery('msg_a'), delivery('msg_9')]).map((each) => each.id)).toEqual([
      'msg_b',
      'msg_a',
      'msg_9',
    ]);
  });

  it('knows a queued delivery has landed once an attempt is added or it leaves pending', () => {
    const ping = delivery('msg_a', 'pending', 0);
    expect(hasLanded(ping, undefined)).toBe(false);
    expect(hasLanded(ping, delivery('msg_a', 'pending', 0))).toBe(false);
    expect(hasLanded(ping, delivery('msg_a', 'delivered', 1))).toBe(true);
    expect(hasLanded(ping, delivery('msg_a', 'pending', 1))).toBe(true);
    // A redelivery of one delivered before lands with its new attempt, not at once.
    const redelivered = delivery('msg_b', 'delivered', 1);
    expect(hasLanded(redelivered, delivery('msg_b', 'delivered', 1))).toBe(false);
    expect(hasLanded(redelivered, delivery('msg_b', 'delivered', 2))).toBe(true);
  });
});

describe('refreshing until a delivery lands', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits before each refresh and stops at the first that finds it landed', async () => {
    const waited: number[] = [];
    const answers = [false, false, true, true];
    let refreshes = 0;
    const landed = await refreshUntil(async () => answers[refreshes++]!, {
      sleep: async (ms) => void waited.push(ms),
    });
    expect(landed).toBe(true);
    expect(refreshes).toBe(3);
    expect(waited).toEqual(landingDelays.slice(0, 3));
  });

  it('gives up when the delays run out, after a short while in all', async () => {
    const waited: number[] = [];
    let refreshes = 0;
    const landed = await refreshUntil(async () => (refreshes++, false), { sleep: async (ms) => void waited.push(ms) });
    expect(landed).toBe(false);
    expect(refreshes).toBe(landingDelays.length);
    const total = waited.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThanOrEqual(5_000);
    expect(total).toBeLessThanOrEqual(20_000);
  });

  it('stops without refreshing once the page is left', async () => {
    const left = new AbortController();
    let refreshes = 0;
    const landed = await refreshUntil(async () => (refreshes++, false), {
      delays: [1, 1, 1],
      signal: left.signal,
      sleep: async () => {
        if (refreshes === 1) left.abort();
      },
    });
    expect(landed).toBe(false);
    expect(refreshes).toBe(1);
  });

  it('waits on the clock, and ends the wait at once when aborted', async () => {
    vi.useFakeTimers();
    let done = false;
    void wait(500).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);

    const stop = new AbortController();
    let stopped = false;
    void wait(10_000, stop.signal).then(() => (stopped = true));
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await wait(10_000, stop.signal);
  });
});
