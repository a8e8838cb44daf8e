/**
 * The request flow in the web app (docs/authentication.md § The request flow), in a real browser
 * against the emulators: config first; sign-in only in protected mode, through the Firebase SDK
 * on the auth emulator; the bearer header on protected calls; a 401 answered by a config
 * re-check and a token refresh before the person is asked to sign in again; sign-out discards
 * the token.
 */
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { headingOf, hosting, mode, openPage, screenshot, settles, signIn, useBrowser } from '../support/browser.ts';

const browser = useBrowser();
/**
 * The ID token the Firebase SDK keeps for the signed-in user, as the page would restore it after
 * a reload; runs in the page. The SDK keeps it in IndexedDB, or in localStorage when its check of
 * IndexedDB fails (identity-client.ts lists both), so both are read; the database is never made
 * here, which would leave the SDK one without its store.
 */
const storedIdToken = () =>
  new Promise<string | undefined>((resolve, reject) => {
    type Stored = { stsTokenManager?: { accessToken?: string } };
    const inLocalStorage = Object.keys(localStorage)
      .filter((key) => key.startsWith('firebase:authUser:'))
      .map((key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as Stored).stsTokenManager?.accessToken);
    const opened = indexedDB.open('firebaseLocalStorageDb');
    // An open that would create the database is aborted, and fails: the token is then in localStorage.
    opened.onupgradeneeded = () => opened.transaction?.abort();
    opened.onerror = () => resolve(inLocalStorage[0]);
    opened.onsuccess = () => {
      const database = opened.result;
      if (!database.objectStoreNames.contains('firebaseLocalStorage')) {
        database.close();
        return resolve(inLocalStorage[0]);
      }
      const read = database.transaction('firebaseLocalStorage', 'readonly').objectStore('firebaseLocalStorage').getAll();
      read.onerror = () => reject(read.error);
      read.onsuccess = () => {
        const users = (read.result as { fbase_key: string; value: Stored }[]).filter((entry) =>
          entry.fbase_key.startsWith('firebase:authUser:'),
        );
        resolve(users[0]?.value.stsTokenManager?.accessToken ?? inLocalStorage[0]);
        database.close();
      };
    };
  });
const issuedAt = (token: string): number =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number }).iat;
const apiCalls = (requests: Request[], path: string) => requests.filter((request) => new URL(request.url()).pathname === path);

describe.runIf(mode === 'public')('the web app in public mode', () => {
  it('reads the config first, never loads the identity SDK, and sends no bearer header', async () => {
    const { page, problems, close } = await openPage(browser());
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(`${hosting}/`);
    await expect.poll(() => page.getByTestId('score').count(), settles).toBe(1);
    const api = requests.filter((request) => new URL(request.url()).pathname.startsWith('/api/'));
    expect(new URL(api[0]!.url()).pathname).toBe('/api/auth/config');
    expect(api.every((request) => request.headers().authorization === undefined)).toBe(true);
    expect(requests.filter((request) => request.url().includes('identity-client'))).toEqual([]);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});

describe.runIf(mode === 'protected')('the web app in protected mode', () => {
  it('asks to sign in, signs in on the auth emulator, sends the token, and signs out', async () => {
    const { page, problems, close } = await openPage(browser());
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(`${hosting}/controls/IAM-01`);
    await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
    // No protected call was made without a session.
    expect(requests.filter((request) => new URL(request.url()).pathname.startsWith('/api/controls'))).toEqual([]);
    await screenshot(page, 'sign-in');

    await signIn(page, 'ada@example.com', 'Ada Lovelace');
    await expect.poll(() => headingOf(page), settles).toMatch(/^IAM-01 /);
    const calls = apiCalls(requests, '/api/controls/IAM-01');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((request) => /^Bearer [\w-]+\.[\w-]+\.[\w-]*$/.test(request.headers().authorization ?? ''))).toBe(true);

    // The session survives a reload (the SDK keeps it).
    await page.reload();
    await expect.poll(() => headingOf(page), settles).toMatch(/^IAM-01 /);
    expect(await page.getByTestId('signed-in-as').textContent()).toBe('ada@example.com');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
    requests.length = 0;
    await page.goto(`${hosting}/`);
    await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
    expect(requests.filter((request) => request.headers().authorization !== undefined)).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  });

  it('on a 401 re-checks the config and refreshes the token, then asks to sign in again if it persists', async () => {
    const { page, problems, close } = await openPage(browser());
    await page.goto(`${hosting}/`);
    await signIn(page, 'grace@example.com');
    await expect.poll(() => page.getByTestId('score').count(), settles).toBe(1);

    // Once: the server rejects the first call (as it would an expired token); the retry passes.
    const seen: string[] = [];
    let rejectNext = 1;
    let rejectedToken = '';
    await page.route('**/api/controls', async (route) => {
      seen.push(`${route.request().url().replace(hosting, '')} ${route.request().headers().authorization ? 'bearer' : 'none'}`);
      if (rejectNext-- > 0) {
        rejectedToken = (route.request().headers().authorization ?? '').replace(/^Bearer /, '');
        await route.fulfill({
          status: 401,
          contentType: 'application/problem+json',
          body: '{"type":"about:blank","title":"Unauthorized","status":401}',
        });
      } else await route.continue();
    });
    const configReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/config') configReads.push(request.method());
    });
    await page.getByRole('link', { name: 'Controls', exact: true }).click();
    await expect.poll(() => page.getByTestId('control-count').count(), settles).toBe(1);
    expect(configReads).toEqual(['GET']);
    expect(seen.slice(0, 2)).toEqual(['/api/controls bearer', '/api/controls bearer']);
    expect(await page.getByTestId('signed-in-as').textContent()).toBe('grace@example.com');

    // Always: the 401 persists after the refresh, so the session is discarded and sign-in asked for again.
    await page.unroute('**/api/controls');
    await page.route('**/api/controls', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        body: '{"type":"about:blank","title":"Unauthorized","status":401}',
      }),
    );
    const refused: string[] = [];
    const identityCalls: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/api/controls')
        refused.push(`${response.status()} ${response.request().headers().authorization ? 'bearer' : 'none'}`);
      // For the diagnosis if the notice never shows: what the identity provider answered.
      if (url.port === '9099') identityCalls.push(`${response.status()} ${url.pathname}`);
    });
    // The refresh above must be over before the next 401: wait until the SDK has stored a token
    // issued no earlier than the refused one (within its second the emulator issues the same
    // token again), so the two flows do not overlap.
    await expect
      .poll(
        async () => {
          const stored = await page.evaluate(storedIdToken);
          return stored !== undefined && issuedAt(stored) >= issuedAt(rejectedToken);
        },
        { ...settles, message: 'the refreshed session was never stored' },
      )
      .toBe(true);
    // Within the page, not by reloading it: a reload restores the session from storage while the
    // refresh above may still be writing it, and the SDK can then report no one signed in for a
    // moment, which asks to sign in for another reason than the 401 under test.
    await page.getByRole('link', { name: 'Docs', exact: true }).click();
    await page.waitForURL(`${hosting}/docs`);
    await page.getByRole('link', { name: 'Controls', exact: true }).click();
    // The page asks to sign in once the session is discarded: wait for the notice itself.
    await expect
      .poll(() => page.getByTestId('session-ended').count(), {
        ...settles,
        message: 'the session-ended notice never showed',
      })
      .toBe(1)
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}\n/api/controls answers: ${refused.join(', ')}\nidentity provider: ${identityCalls.join(', ')}` +
            `\nconsole: ${problems.join(' | ')}\npage: ${await page.locator('main').innerText()}`,
        );
      });
    expect(await headingOf(page)).toBe('Sign in to continue');
    expect(await page.getByTestId('session-ended').textContent()).toBe('Your session has ended. Sign in again to continue.');
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await close();
  });

  it("says in the blocking function's words why someone outside the organisation cannot sign in", async () => {
    const { page, close } = await openPage(browser());
    await page.goto(`${hosting}/`);
    await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
    const form = page.getByRole('form', { name: 'Sign in on the local auth emulator' });
    await form.getByLabel('Email').fill('stranger@example.org');
    await form.getByRole('button', { name: 'Sign in with Google (emulator)' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), settles)
      .toBe('Sign-in was refused: stranger@example.org may not sign in here. Locally, addresses at example.com may sign in.');
    expect(await page.getByTestId('signed-in-as').count()).toBe(0);
    await close();
  });
});
