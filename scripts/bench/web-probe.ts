/**
 * Measures the web app in headless Chromium, run by `npm run bench` inside the emulators
 * (public mode, demo data): the JavaScript the dashboard loads before it shows today's report,
 * gzip-compressed as Hosting serves it, and the dashboard's Largest Contentful Paint. Each
 * beside a baseline from the same run: a hello-world Svelte app built by the same Vite, and
 * the dashboard's own rendered HTML served from a bare node:http server with no JavaScript.
 *
 *   node scripts/bench/web-probe.ts <origin> <hello-world dist> <web app dist> <runs> <result.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, findChromium } from '../lib/chromium.ts';
import { median } from './median.ts';

const [origin, helloDist, appDist, runsText, resultFile] = process.argv.slice(2) as [string, string, string, string, string];
const runs = Number(runsText);

export interface WebFigures {
  firstViewScriptsGzipKiB: number;
  firstViewScripts: string[];
  identitySdkLoaded: boolean;
  helloWorldScriptsGzipKiB: number;
  dashboardLcpMs: number;
  staticLcpMs: number;
}

/** Loads a page in a fresh context and returns its LCP once `ready` holds. */
async function lcpOf(browser: Browser, url: string, ready: (page: Page) => Promise<unknown>): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await ready(page);
  // Let the last paint land before asking for the final LCP entry.
  await page.waitForTimeout(250);
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        });
      }),
  );
  await context.close();
  return lcp;
}

/** Gzip bytes of every script a page loads until `ready` holds. */
async function scriptsOf(browser: Browser, url: string, ready: (page: Page) => Promise<unknown>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: { url: string; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then((body) => void scripts.push({ url: response.url(), gzip: gzipSync(body, { level: 9 }).length })),
    );
  });
  await page.goto(url);
  await ready(page);
  await Promise.all(pending);
  const html = await page.content();
  await context.close();
  return { scripts, html };
}

/** Serves a folder (and `/` as the given HTML) on loopback. */
function serve(folder: string, indexHtml?: string): Promise<http.Server> {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.html': 'text/html',
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    try {
      const body =
        path === '/' && indexHtml ? Buffer.from(indexHtml) : readFileSync(join(folder, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'Content-Type': types[extname(path) || '.html'] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs, headless: true });
try {
  const dashboardReady = (page: Page) => page.getByTestId('score').waitFor({ timeout: 30_000 });
  // Warm the functions first: the figure is the app's, not the emulator's cold start.
  const first = await scriptsOf(browser, `${origin}/`, dashboardReady);
  const { scripts, html } = await scriptsOf(browser, `${origin}/`, dashboardReady);

  const hello = await serve(helloDist);
  const helloOrigin = `http://127.0.0.1:${(hello.address() as AddressInfo).port}`;
  const helloScripts = await scriptsOf(browser, `${helloOrigin}/`, (page) => page.getByRole('heading').waitFor());
  hello.close();

  // The same dashboard as plain HTML and CSS, from the web app's own files, without scripts.
  const staticHtml = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
  const bare = await serve(appDist, staticHtml);
  const bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const dashboard: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < runs; run++) {
    dashboard.push(await lcpOf(browser, `${origin}/`, dashboardReady));
    baseline.push(await lcpOf(browser, `${bareOrigin}/`, (page) => page.getByTestId('score').waitFor()));
  }
  bare.close();

  const kib = (list: { gzip: number }[]) => list.reduce((sum, script) => sum + script.gzip, 0) / 1024;
  const figures: WebFigures = {
    firstViewScriptsGzipKiB: kib(scripts),
    firstViewScripts: scripts.map((script) => new URL(script.url).pathname),
    identitySdkLoaded: [...first.scripts, ...scripts].some((script) => script.url.includes('identity-client')),
    helloWorldScriptsGzipKiB: kib(helloScripts.scripts),
    dashboardLcpMs: median(dashboard),
    staticLcpMs: median(baseline),
  };
  writeFileSync(resultFile, JSON.stringify(figures, null, 2));
} finally {
  await browser.close();
}
