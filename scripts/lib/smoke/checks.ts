/**
 * The smoke test's checks, in the order an operator would reason about a deployment: is the site
 * up and describing itself, can a browser bootstrap without a token, is everything else guarded
 * as the mode says, are gated docs gated, does the explorer load, do event streams stream, and
 * does a signed-in user get today's report.
 *
 * It changes nothing on the site: in protected mode the writes it sends carry no token and an
 * empty body, so they are refused; in public mode it sends only reads, and one chat question
 * (whose answer the site keeps, as it keeps every answer, for its stream to be resumed).
 */
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { operationsOf, samplePath, type Operation } from './operations.ts';
import { expectStatus, expectThat, jsonOf, SmokeRun, type CheckResult, type SmokeOptions } from './smoke-run.ts';

/** A token no project issued: a public endpoint must not answer it with 401 either. */
const foreignToken = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJzbW9rZSJ9.';

interface Site {
  authRequired: boolean;
  description: OpenAPIObject;
  pages: { slug: string; gated: boolean }[];
}

export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const run = new SmokeRun(options);
  const site = await bootstrap(run);
  if (site) {
    await guards(run, site);
    await gatedDocs(run, site);
    await explorer(run);
    await eventStream(run, site);
    await signedIn(run, site);
  }
  return run.results;
}

/** The endpoints a client reads before it knows the mode; nothing else is checked when they fail. */
async function bootstrap(run: SmokeRun): Promise<Site | undefined> {
  const site: Partial<Site> = {};
  await run.check('GET /api/auth/config answers 200 with the mode, without a token', async () => {
    const answer = await run.call('/api/auth/config');
    expectStatus(answer, 200, 'GET /api/auth/config');
    const { authRequired } = jsonOf<{ authRequired?: unknown }>(answer, 'GET /api/auth/config');
    expectThat(typeof authRequired === 'boolean', `"authRequired" is ${JSON.stringify(authRequired)}, not a boolean`);
    site.authRequired = authRequired;
  });
  await run.check('GET /api/openapi.json is an OpenAPI 3.1 description of the version the API announces', async () => {
    const answer = await run.call('/api/openapi.json');
    expectStatus(answer, 200, 'GET /api/openapi.json');
    const description = jsonOf<OpenAPIObject>(answer, 'GET /api/openapi.json');
    expectThat(/^3\.1\./.test(String(description.openapi)), `"openapi" is ${JSON.stringify(description.openapi)}`);
    const announced = (await run.call('/api/auth/config')).headers.get('evident-api-version');
    expectThat(
      announced === description.info?.version,
      `the API announces version ${announced ?? '(none)'} but the description is ${description.info?.version}`,
    );
    site.description = description;
  });
  await run.check('GET /api/docs/index lists the docs without a token', async () => {
    const answer = await run.call('/api/docs/index');
    expectStatus(answer, 200, 'GET /api/docs/index');
    const { pages } = jsonOf<{ pages?: Site['pages'] }>(answer, 'GET /api/docs/index');
    expectThat(Array.isArray(pages) && pages.some((page) => !page.gated), 'the index lists no open page');
    site.pages = pages;
  });
  if (site.authRequired === undefined || !site.description || !site.pages) return undefined;
  const open = site.pages.find((page) => !page.gated)!;
  await run.check('the bootstrap endpoints never answer 401, even to a token they cannot verify', async () => {
    for (const path of [
      '/api/auth/config',
      '/api/openapi.json',
      '/api/swagger',
      '/api/docs/index',
      `/api/docs/page/${open.slug}`,
    ]) {
      for (const token of [undefined, foreignToken]) {
        const answer = await run.call(path, { token });
        expectStatus(answer, 200, `GET ${path} ${token ? 'with a token it cannot verify' : 'without a token'}`);
      }
    }
  });
  return site as Site;
}

/** Protected mode: every protected operation refuses a call without a token. Public mode: reads answer anyone. */
async function guards(run: SmokeRun, site: Site): Promise<void> {
  const operations = operationsOf(site.description).filter((operation) => operation.access === 'protected');
  if (!site.authRequired) {
    await publicReads(run, operations);
    return;
  }
  for (const operation of operations) {
    const path = samplePath(operation);
    await run.check(`${operation.method} ${operation.path} answers 401 with a Bearer challenge without a token`, async () => {
      const answer = await run.call(path, {
        method: operation.method,
        // An empty body of the type it takes: refused for its content, were the token not checked first.
        ...(operation.bodyType ? { headers: { 'Content-Type': operation.bodyType }, body: '' } : {}),
      });
      expectStatus(answer, 401, `${operation.method} ${path}`);
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expectThat(/^Bearer\b/.test(challenge), `WWW-Authenticate is "${challenge}", not a Bearer challenge`);
      expectThat(
        answer.headers.get('content-type') === 'application/problem+json',
        `the 401 is ${answer.headers.get('content-type')}, not application/problem+json`,
      );
    });
  }
}

/** In public mode every read without parameters answers without a token, and a token it cannot verify changes nothing. */
async function publicReads(run: SmokeRun, operations: Operation[]): Promise<void> {
  const reads = operations.filter(
    (operation) => operation.method === 'GET' && !operation.path.includes('{') && !operation.parameters.some((p) => p.required),
  );
  for (const operation of reads) {
    await run.check(`public mode: GET ${operation.path} answers 200 without a token, and with one it cannot verify`, async () => {
      for (const token of [undefined, foreignToken])
        expectStatus(await run.call(operation.path, { token }), 200, `GET ${operation.path}`);
    });
  }
}

async function gatedDocs(run: SmokeRun, site: Site): Promise<void> {
  const name = 'gated docs pages are listed and served only where they can be read';
  if (!site.authRequired) {
    await run.check(name, async () => {
      const gated = site.pages.find((page) => page.gated);
      expectThat(gated !== undefined, 'public mode lists no gated page, so none can be checked');
      expectStatus(await run.call(`/api/docs/page/${gated.slug}`), 200, `GET /api/docs/page/${gated.slug} without a token`);
    });
    return;
  }
  await run.check('protected mode: the docs index lists no gated page without a token', async () => {
    const listed = site.pages.filter((page) => page.gated).map((page) => page.slug);
    expectThat(listed.length === 0, `gated pages listed without a token: ${listed.join(', ')}`);
  });
  if (!run.token) return run.skip(name, 'needs --token: only a signed-in user learns which pages are gated');
  await run.check(name, async () => {
    const index = await run.call('/api/docs/index', { token: run.token });
    expectStatus(index, 200, 'GET /api/docs/index with the token');
    const gated = jsonOf<{ pages: Site['pages'] }>(index, 'GET /api/docs/index').pages.find((page) => page.gated);
    expectThat(gated !== undefined, 'the index lists no gated page to a signed-in user');
    const path = `/api/docs/page/${gated.slug}`;
    const refused = await run.call(path);
    expectStatus(refused, 401, `GET ${path} without a token`);
    expectStatus(await run.call(path, { token: run.token }), 200, `GET ${path} with the token`);
  });
}

/** The explorer page and every script and style it loads from the site. */
async function explorer(run: SmokeRun): Promise<void> {
  await run.check('GET /api/swagger serves the API explorer and its assets', async () => {
    const page = await run.call('/api/swagger');
    expectStatus(page, 200, 'GET /api/swagger');
    expectThat((page.headers.get('content-type') ?? '').startsWith('text/html'), 'the explorer is not HTML');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/api\/[^"]{1,200})"/g)].map((match) => match[1]!);
    expectThat(assets.length > 0, 'the explorer page loads no asset from /api/');
    for (const asset of assets) expectStatus(await run.call(asset), 200, `GET ${asset}`);
  });
}

/** One chat answer as an event stream: the headers proxies and browsers need, a retry hint, and its end. */
async function eventStream(run: SmokeRun, site: Site): Promise<void> {
  const name = 'POST /api/chat answers as an event stream with its headers, a retry hint and an end';
  if (site.authRequired && !run.token) return run.skip(name, 'needs --token in protected mode');
  await run.check(name, async () => {
    const answer = await run.call('/api/chat', {
      method: 'POST',
      token: run.token,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'What is our score today?' }),
    });
    expectStatus(answer, 200, 'POST /api/chat');
    const type = answer.headers.get('content-type');
    expectThat(type === 'text/event-stream; charset=utf-8', `Content-Type is ${type}`);
    const cache = answer.headers.get('cache-control');
    expectThat(cache === 'no-store, no-transform', `Cache-Control is ${cache}, which lets a proxy hold the stream`);
    expectThat(/^retry: \d+\n\n/.test(answer.text), 'the stream does not open with a retry hint');
    expectThat(/^event: done$/m.test(answer.text), 'the stream never says it is done');
  });
}

async function signedIn(run: SmokeRun, site: Site): Promise<void> {
  const name = "GET /api/report/today serves today's report to a signed-in user";
  if (!run.token) return run.skip(name, site.authRequired ? 'needs --token' : 'public mode: checked above without one');
  await run.check('GET /api/auth/me knows the signed-in user', async () => {
    const answer = await run.call('/api/auth/me', { token: run.token });
    expectStatus(answer, 200, 'GET /api/auth/me with the token');
    const me = jsonOf<{ authenticated?: boolean }>(answer, 'GET /api/auth/me');
    expectThat(me.authenticated === true, 'the token was not recognised: is it from the project the server accepts?');
  });
  await run.check(name, async () => {
    const answer = await run.call('/api/report/today', { token: run.token });
    expectStatus(answer, 200, 'GET /api/report/today with the token');
    const report = jsonOf<{ date?: string }>(answer, 'GET /api/report/today');
    expectThat(/^\d{4}-\d{2}-\d{2}$/.test(report.date ?? ''), `the report's date is ${JSON.stringify(report.date)}`);
    expectThat(answer.headers.get('etag') !== null, 'the report has no ETag, so clients cannot revalidate it');
  });
}
