/**
 * What protected mode adds beyond the access matrix's statuses: event streams refused before
 * they start (and the web app's client giving up on them rather than retrying), answers to a
 * signed-in caller kept out of shared caches, and a sign-in page that works on a phone and a
 * desktop in both themes. The suites whose subject is the mode run in both modes; every other
 * suite runs once, in public mode (scripts/test.ts).
 */
import { describe, expect, it } from 'vitest';
import { followEventStream } from '../../hosting/src/lib/event-stream.ts';
import { ApiError } from '../../hosting/src/lib/api.ts';
import { overflowOf, seriousViolations } from '../support/accessibility.ts';
import { api } from '../support/api.ts';
import { desktop, headingOf, hosting, mode, openPage, phone, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

describe.runIf(mode === 'protected')('protected mode', () => {
  it('refuses event streams without a token with 401 before any stream starts, and the app’s client gives up', async () => {
    const run = await api.post<{ id: string }>('/api/analyses', { controls: ['IAM-01'] }, 202);
    const streams: [string, RequestInit][] = [
      [`/api/analyses/${run.id}/events`, { headers: { Accept: 'text/event-stream' } }],
      [
        '/api/chat',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
          body: '{"message":"hi"}',
        },
      ],
      ['/api/chat/messages/msg-0000000000aa/events', { headers: { Accept: 'text/event-stream' } }],
    ];
    for (const [path, init] of streams) {
      const response = await fetch(`${hosting}${path}`, init);
      expect([path, response.status, response.headers.get('content-type'), response.headers.get('www-authenticate')]).toEqual([
        path,
        401,
        'application/problem+json',
        'Bearer realm="evident"',
      ]);
    }
    await expect(
      followEventStream(`${hosting}/api/analyses/${run.id}/events`, { onEvent: () => undefined }),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it("keeps a signed-in caller's reports out of shared caches: today's revalidated, a past day's immutable", async () => {
    const today = await api.call<{ date: string }>('/api/report/today');
    expect([today.status, today.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
    const { reports } = await api.get<{ reports: { date: string }[] }>('/api/report');
    const past = reports.find((entry) => entry.date < today.body.date)!;
    const answer = await api.call(`/api/report/${past.date}`);
    expect([answer.status, answer.headers.get('cache-control')]).toEqual([200, 'private, max-age=31536000, immutable']);
  });

  for (const screen of [phone, desktop]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`shows the sign-in page on a ${screen.name}, ${colorScheme} theme, with no serious axe violation, fitting its width`, async () => {
        const { page, problems, close } = await openPage(browser(), { screen, colorScheme });
        await page.goto(`${hosting}/`);
        await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
        expect([...(await seriousViolations(page)), await overflowOf(page)]).toEqual(['fits']);
        expect(problems).toEqual([]);
        await close();
      });
    }
  }
});
