/**
 * What the GitHub stand-in answers to each operation it serves, from its fixture, with GitHub's
 * pagination: numbered pages (`page`, `per_page` capped at 100) linked by rel="prev", "next",
 * "last" and "first", or an opaque `after` cursor linked by rel="next" (Dependabot alerts).
 */
import { randomBytes } from 'node:crypto';
import type { FixtureRepository, GitHubFixture } from './fixture.ts';
import {
  branchProtection,
  branchRules,
  codeScanningAnalysis,
  dependabotAlert,
  environment,
  member,
  minimalRepository,
  secretScanningAlert,
  workflow,
} from './github-objects.ts';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Request {
  fixture: GitHubFixture;
  origin: string;
  url: URL;
  parameters: Record<string, string>;
  installationTokens: Set<string>;
  app?: { installationId: number };
}

const maxPerPage = 100;
const notFound: Answer = {
  status: 404,
  body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
};

function perPage(url: URL): number {
  return Math.min(Number(url.searchParams.get('per_page') ?? 30), maxPerPage);
}

function linkTo(url: URL, changes: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(changes)) target.searchParams.set(name, value);
  return `<${target.href}>`;
}

/** One numbered page of `entries`, with GitHub's Link header. */
function numberedPage<T>(url: URL, entries: readonly T[]): { page: T[]; headers: Record<string, string> } {
  const size = perPage(url);
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const last = Math.max(1, Math.ceil(entries.length / size));
  const links = [];
  if (page > 1) links.push(`${linkTo(url, { page: String(page - 1) })}; rel="prev"`);
  if (page < last)
    links.push(`${linkTo(url, { page: String(page + 1) })}; rel="next"`, `${linkTo(url, { page: String(last) })}; rel="last"`);
  if (page > 1) links.push(`${linkTo(url, { page: '1' })}; rel="first"`);
  return { page: entries.slice((page - 1) * size, page * size), headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

/** One page of `entries` after an opaque cursor, with rel="next" while more remain. */
function cursorPage<T>(url: URL, entries: readonly T[]): { page: T[]; headers: Record<string, string> } {
  const size = perPage(url);
  const after = url.searchParams.get('after');
  const start = after === null ? 0 : Number(Buffer.from(after, 'base64url').toString('utf8').replace('cursor:v2:', ''));
  const end = start + size;
  const next =
    end < entries.length
      ? `${linkTo(url, { after: Buffer.from(`cursor:v2:${end}`).toString('base64url') })}; rel="next"`
      : undefined;
  return { page: entries.slice(start, end), headers: next === undefined ? {} : { link: next } };
}

const indexes = new WeakMap<GitHubFixture, Map<string, { repository: FixtureRepository; id: number }>>();

/** The fixture's repository a request names, if it is in the organisation. */
function repositoryOf(request: Request): { repository: FixtureRepository; id: number } | undefined {
  let index = indexes.get(request.fixture);
  if (index === undefined) {
    index = new Map(
      request.fixture.repositories.map((repository, position) => [repository.name, { repository, id: 500_000 + position }]),
    );
    indexes.set(request.fixture, index);
  }
  return request.parameters.owner === request.fixture.organization ? index.get(request.parameters.repo ?? '') : undefined;
}

function idOf(request: Request, name: string): number {
  return repositoryOf({ ...request, parameters: { owner: request.fixture.organization, repo: name } })?.id ?? 0;
}

type Route = (request: Request) => Answer;

export const routes: Record<string, Route> = {
  'POST /app/installations/{installation_id}/access_tokens'(request) {
    if (Number(request.parameters.installation_id) !== request.app?.installationId) return notFound;
    const token = `ghs_${randomBytes(18).toString('base64url')}`;
    request.installationTokens.add(token);
    return {
      status: 201,
      body: { token, expires_at: new Date(Date.now() + 3_600_000).toISOString(), repository_selection: 'all' },
    };
  },
  'GET /orgs/{org}/repos'(request) {
    if (request.parameters.org !== request.fixture.organization) return notFound;
    const { page, headers } = numberedPage(request.url, request.fixture.repositories);
    const api = request.origin;
    return {
      status: 200,
      body: page.map((repository) =>
        minimalRepository(api, request.fixture.organization, repository, idOf(request, repository.name)),
      ),
      headers,
    };
  },
  'GET /orgs/{org}/members'(request) {
    if (request.parameters.org !== request.fixture.organization) return notFound;
    const role = request.url.searchParams.get('role') ?? 'all';
    const without = request.url.searchParams.get('filter') === '2fa_disabled';
    const listed = request.fixture.members.filter(
      (entry) => (role === 'all' || entry.owner === (role === 'admin')) && (!without || !entry.twoFactor),
    );
    const { page, headers } = numberedPage(request.url, listed);
    const ids = new Map(request.fixture.members.map((entry, position) => [entry, 2_000_000 + position]));
    return { status: 200, body: page.map((entry) => member(request.origin, entry, ids.get(entry) ?? 0)), headers };
  },
  'GET /orgs/{org}/dependabot/alerts'(request) {
    if (request.parameters.org !== request.fixture.organization) return notFound;
    const { page, headers } = cursorPage(request.url, request.fixture.dependabotAlerts);
    const start = page[0] === undefined ? 0 : request.fixture.dependabotAlerts.indexOf(page[0]);
    const body = page.map((alert, offset) =>
      dependabotAlert(request.origin, request.fixture.organization, alert, start + offset + 1, idOf(request, alert.repository)),
    );
    return { status: 200, body, headers };
  },
  'GET /orgs/{org}/secret-scanning/alerts'(request) {
    if (request.parameters.org !== request.fixture.organization) return notFound;
    const { page, headers } = numberedPage(request.url, request.fixture.secretScanningAlerts);
    const start = page[0] === undefined ? 0 : request.fixture.secretScanningAlerts.indexOf(page[0]);
    const body = page.map((alert, offset) =>
      secretScanningAlert(
        request.origin,
        request.fixture.organization,
        alert,
        start + offset + 1,
        idOf(request, alert.repository),
      ),
    );
    return { status: 200, body, headers };
  },
  'GET /repos/{owner}/{repo}/branches/{branch}/protection'(request) {
    const found = repositoryOf(request);
    if (found === undefined || request.parameters.branch !== found.repository.defaultBranch) return notFound;
    const { repository } = found;
    if (repository.protection === undefined)
      return {
        status: 404,
        body: {
          message: 'Branch not protected',
          documentation_url: 'https://docs.github.com/rest/branches/branch-protection#get-branch-protection',
          status: '404',
        },
      };
    return {
      status: 200,
      body: branchProtection(request.origin, request.fixture.organization, repository, repository.protection),
    };
  },
  'GET /repos/{owner}/{repo}/rules/branches/{branch}'(request) {
    const found = repositoryOf(request);
    if (found === undefined) return notFound;
    const rules =
      request.parameters.branch === found.repository.defaultBranch
        ? branchRules(request.fixture.organization, found.repository.rulesetApprovals)
        : [];
    const { page, headers } = numberedPage(request.url, rules);
    return { status: 200, body: page, headers };
  },
  'GET /repos/{owner}/{repo}/environments'(request) {
    const found = repositoryOf(request);
    if (found === undefined) return notFound;
    const { page, headers } = numberedPage(request.url, found.repository.environments);
    const environments = page.map((entry, offset) =>
      environment(request.origin, request.fixture.organization, found.repository.name, entry, found.id * 10 + offset),
    );
    return { status: 200, body: { total_count: found.repository.environments.length, environments }, headers };
  },
  'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies'(request) {
    const found = repositoryOf(request);
    const entry = found?.repository.environments.find((candidate) => candidate.name === request.parameters.environment_name);
    if (entry === undefined) return notFound;
    const names = Array.isArray(entry.branches) ? entry.branches : [];
    const { page, headers } = numberedPage(request.url, names);
    const policies = page.map((name, offset) => ({
      id: offset + 1,
      node_id: `MDE2OkdhdGVCcmFuY2hQb2xpY3k${offset + 1}`,
      name,
      type: 'branch',
    }));
    return { status: 200, body: { total_count: names.length, branch_policies: policies }, headers };
  },
  'GET /repos/{owner}/{repo}/actions/workflows'(request) {
    const found = repositoryOf(request);
    if (found === undefined) return notFound;
    const { workflows } = found.repository;
    const { page, headers } = numberedPage(request.url, workflows);
    const body = page.map((entry) =>
      workflow(
        request.origin,
        request.fixture.organization,
        found.repository,
        entry,
        found.id * 1_000 + workflows.indexOf(entry),
      ),
    );
    return { status: 200, body: { total_count: workflows.length, workflows: body }, headers };
  },
  'GET /repos/{owner}/{repo}/vulnerability-alerts'(request) {
    const found = repositoryOf(request);
    if (found === undefined || !found.repository.dependabotAlerts) return { status: 404, body: notFound.body };
    return { status: 204 };
  },
  'GET /repos/{owner}/{repo}/code-scanning/analyses'(request) {
    const found = repositoryOf(request);
    if (found === undefined) return notFound;
    if (!found.repository.codeScanning)
      return {
        status: 404,
        body: {
          message: 'no analysis found',
          documentation_url:
            'https://docs.github.com/rest/code-scanning/code-scanning#list-code-scanning-analyses-for-a-repository',
          status: '404',
        },
      };
    const { page, headers } = numberedPage(request.url, [
      codeScanningAnalysis(request.origin, request.fixture.organization, found.repository, found.id),
    ]);
    return { status: 200, body: page, headers };
  },
};
