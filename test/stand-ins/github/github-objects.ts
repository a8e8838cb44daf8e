/**
 * The fixture's repositories, protections, environments and alerts as GitHub's REST API writes
 * them (the shapes of api.github.com.subset.json), so the stand-in's answers are what the SDK
 * would receive from github.com. The stand-in validates each of them before it answers.
 */
import type {
  FixtureAlert,
  FixtureEnvironment,
  FixtureMember,
  FixtureProtection,
  FixtureRepository,
  FixtureWorkflow,
} from './fixture.ts';

const web = 'https://github.com';

function user(api: string, login: string, id: number, type: 'User' | 'Organization') {
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${api}/users/${login}`,
    html_url: `${web}/${login}`,
    followers_url: `${api}/users/${login}/followers`,
    following_url: `${api}/users/${login}/following{/other_user}`,
    gists_url: `${api}/users/${login}/gists{/gist_id}`,
    starred_url: `${api}/users/${login}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/users/${login}/subscriptions`,
    organizations_url: `${api}/users/${login}/orgs`,
    repos_url: `${api}/users/${login}/repos`,
    events_url: `${api}/users/${login}/events{/privacy}`,
    received_events_url: `${api}/users/${login}/received_events`,
    type,
    site_admin: false,
  };
}

/** A `simple-user` of GET /orgs/{org}/members. */
export function member(api: string, entry: FixtureMember, id: number) {
  return user(api, entry.login, id, 'User');
}

/** The `simple-repository` fields every repository listing carries. */
export function simpleRepository(api: string, organization: string, name: string, id: number) {
  const url = `${api}/repos/${organization}/${name}`;
  const templated = (resource: string, suffix: string) => `${url}/${resource}${suffix}`;
  return {
    id,
    node_id: `R_kgDO${id}`,
    name,
    full_name: `${organization}/${name}`,
    owner: user(api, organization, 1_000, 'Organization'),
    private: true,
    html_url: `${web}/${organization}/${name}`,
    description: null,
    fork: false,
    url,
    archive_url: templated('{archive_format}', '{/ref}'),
    assignees_url: templated('assignees', '{/user}'),
    blobs_url: templated('git/blobs', '{/sha}'),
    branches_url: templated('branches', '{/branch}'),
    collaborators_url: templated('collaborators', '{/collaborator}'),
    comments_url: templated('comments', '{/number}'),
    commits_url: templated('commits', '{/sha}'),
    compare_url: templated('compare/{base}...{head}', ''),
    contents_url: templated('contents/{+path}', ''),
    contributors_url: templated('contributors', ''),
    deployments_url: templated('deployments', ''),
    downloads_url: templated('downloads', ''),
    events_url: templated('events', ''),
    forks_url: templated('forks', ''),
    git_commits_url: templated('git/commits', '{/sha}'),
    git_refs_url: templated('git/refs', '{/sha}'),
    git_tags_url: templated('git/tags', '{/sha}'),
    hooks_url: templated('hooks', ''),
    issue_comment_url: templated('issues/comments', '{/number}'),
    issue_events_url: templated('issues/events', '{/number}'),
    issues_url: templated('issues', '{/number}'),
    keys_url: templated('keys', '{/key_id}'),
    labels_url: templated('labels', '{/name}'),
    languages_url: templated('languages', ''),
    merges_url: templated('merges', ''),
    milestones_url: templated('milestones', '{/number}'),
    notifications_url: templated('notifications', '{?since,all,participating}'),
    pulls_url: templated('pulls', '{/number}'),
    releases_url: templated('releases', '{/id}'),
    stargazers_url: templated('stargazers', ''),
    statuses_url: templated('statuses', '/{sha}'),
    subscribers_url: templated('subscribers', ''),
    subscription_url: templated('subscription', ''),
    tags_url: templated('tags', ''),
    teams_url: templated('teams', ''),
    trees_url: templated('git/trees', '{/sha}'),
  };
}

const status = (enabled: boolean) => ({ status: enabled ? ('enabled' as const) : ('disabled' as const) });

/** A `minimal-repository` of GET /orgs/{org}/repos, with the security settings an owner sees. */
export function minimalRepository(api: string, organization: string, repository: FixtureRepository, id: number) {
  return {
    ...simpleRepository(api, organization, repository.name, id),
    default_branch: repository.defaultBranch,
    archived: repository.archived,
    disabled: false,
    visibility: 'private',
    security_and_analysis: {
      secret_scanning: status(repository.secretScanning),
      secret_scanning_push_protection: status(repository.secretScanning),
      dependabot_security_updates: status(repository.dependabotAlerts),
    },
  };
}

/** GET /repos/{owner}/{repo}/branches/{branch}/protection of a protected branch. */
export function branchProtection(
  api: string,
  organization: string,
  repository: FixtureRepository,
  protection: FixtureProtection,
) {
  const url = `${api}/repos/${organization}/${repository.name}/branches/${repository.defaultBranch}/protection`;
  return {
    url,
    required_status_checks: protection.requireStatusChecks
      ? {
          url: `${url}/required_status_checks`,
          strict: true,
          contexts: ['ci/build'],
          contexts_url: `${url}/required_status_checks/contexts`,
          checks: [{ context: 'ci/build', app_id: null }],
        }
      : undefined,
    required_pull_request_reviews: {
      url: `${url}/required_pull_request_reviews`,
      dismiss_stale_reviews: protection.dismissStaleApprovals,
      require_code_owner_reviews: false,
      required_approving_review_count: protection.requiredApprovals,
      require_last_push_approval: false,
    },
    enforce_admins: { url: `${url}/enforce_admins`, enabled: protection.enforceForAdmins },
    required_signatures: { url: `${url}/required_signatures`, enabled: protection.requireSignedCommits },
    required_linear_history: { enabled: false },
    allow_force_pushes: { enabled: protection.allowForcePush },
    allow_deletions: { enabled: false },
    block_creations: { enabled: false },
    required_conversation_resolution: { enabled: false },
    lock_branch: { enabled: false },
    allow_fork_syncing: { enabled: false },
  };
}

/** GET /repos/{owner}/{repo}/rules/branches/{branch}: the rules of a ruleset on the branch. */
export function branchRules(organization: string, approvals: number | undefined) {
  if (approvals === undefined) return [];
  const source = { ruleset_source_type: 'Organization', ruleset_source: organization, ruleset_id: 42 };
  return [
    { type: 'non_fast_forward', ...source },
    {
      type: 'pull_request',
      parameters: {
        dismiss_stale_reviews_on_push: true,
        require_code_owner_review: false,
        require_last_push_approval: false,
        required_approving_review_count: approvals,
        required_review_thread_resolution: false,
      },
      ...source,
    },
  ];
}

/** An `environment` of GET /repos/{owner}/{repo}/environments. */
export function environment(api: string, organization: string, repository: string, entry: FixtureEnvironment, id: number) {
  const rules = [];
  if (entry.reviewers > 0) {
    const reviewers = Array.from({ length: entry.reviewers }, (_, index) => ({
      type: 'User',
      reviewer: user(api, `reviewer-${index + 1}`, 2_000 + index, 'User'),
    }));
    rules.push({ id: id * 10 + 1, node_id: `GA_kw${id}1`, type: 'required_reviewers', prevent_self_review: true, reviewers });
  }
  if (entry.branches !== 'any') rules.push({ id: id * 10 + 2, node_id: `GA_kw${id}2`, type: 'branch_policy' });
  return {
    id,
    node_id: `EN_kw${id}`,
    name: entry.name,
    url: `${api}/repos/${organization}/${repository}/environments/${entry.name}`,
    html_url: `${web}/${organization}/${repository}/deployments/activity_log?environments_filter=${entry.name}`,
    created_at: '2026-01-05T09:00:00Z',
    updated_at: '2026-01-05T09:00:00Z',
    protection_rules: rules,
    deployment_branch_policy:
      entry.branches === 'any'
        ? null
        : { protected_branches: entry.branches === 'protected', custom_branch_policies: Array.isArray(entry.branches) },
  };
}

/** A `workflow` of GET /repos/{owner}/{repo}/actions/workflows. */
export function workflow(api: string, organization: string, repository: FixtureRepository, entry: FixtureWorkflow, id: number) {
  const { name: repo, defaultBranch } = repository;
  return {
    id,
    node_id: `W_kw${id}`,
    name: entry.name,
    path: entry.path,
    state: entry.state,
    created_at: '2026-01-05T09:00:00.000Z',
    updated_at: '2026-01-05T09:00:00.000Z',
    url: `${api}/repos/${organization}/${repo}/actions/workflows/${id}`,
    html_url: `${web}/${organization}/${repo}/blob/${defaultBranch}/${entry.path}`,
    badge_url: `${web}/${organization}/${repo}/workflows/${encodeURIComponent(entry.name)}/badge.svg`,
  };
}

/** A `dependabot-alert-with-repository` of GET /orgs/{org}/dependabot/alerts. */
export function dependabotAlert(api: string, organization: string, alert: FixtureAlert, number: number, repositoryId: number) {
  const vulnerability = {
    package: { ecosystem: 'npm', name: `package-${number}` },
    severity: alert.severity,
    vulnerable_version_range: '< 1.2.3',
    first_patched_version: { identifier: '1.2.3' },
  };
  return {
    number,
    state: 'open',
    dependency: { package: vulnerability.package, manifest_path: 'package-lock.json', scope: 'runtime', relationship: 'direct' },
    security_advisory: {
      ghsa_id: `GHSA-0000-0000-${String(number).padStart(4, '0')}`,
      cve_id: null,
      summary: `A vulnerability in package-${number}`,
      description: 'Found by the stand-in.',
      vulnerabilities: [vulnerability],
      severity: alert.severity,
      cvss: { score: 7.5, vector_string: null },
      cwes: [],
      identifiers: [{ type: 'GHSA', value: `GHSA-0000-0000-${String(number).padStart(4, '0')}` }],
      references: [],
      published_at: alert.createdAt,
      updated_at: alert.createdAt,
      withdrawn_at: null,
    },
    security_vulnerability: vulnerability,
    url: `${api}/repos/${organization}/${alert.repository}/dependabot/alerts/${number}`,
    html_url: `${web}/${organization}/${alert.repository}/security/dependabot/${number}`,
    created_at: alert.createdAt,
    updated_at: alert.createdAt,
    dismissed_at: null,
    dismissed_by: null,
    dismissed_reason: null,
    dismissed_comment: null,
    fixed_at: null,
    repository: simpleRepository(api, organization, alert.repository, repositoryId),
  };
}

/** An `organization-secret-scanning-alert` of GET /orgs/{org}/secret-scanning/alerts (secret hidden). */
export function secretScanningAlert(
  api: string,
  organization: string,
  alert: { repository: string; createdAt: string },
  number: number,
  repositoryId: number,
) {
  return {
    number,
    created_at: alert.createdAt,
    updated_at: alert.createdAt,
    url: `${api}/repos/${organization}/${alert.repository}/secret-scanning/alerts/${number}`,
    html_url: `${web}/${organization}/${alert.repository}/security/secret-scanning/${number}`,
    locations_url: `${api}/repos/${organization}/${alert.repository}/secret-scanning/alerts/${number}/locations`,
    state: 'open',
    resolution: null,
    resolved_at: null,
    resolved_by: null,
    secret_type: 'aws_access_key_id',
    secret_type_display_name: 'Amazon AWS Access Key ID',
    validity: 'unknown',
    repository: simpleRepository(api, organization, alert.repository, repositoryId),
  };
}

/** A `code-scanning-analysis` of GET /repos/{owner}/{repo}/code-scanning/analyses. */
export function codeScanningAnalysis(api: string, organization: string, repository: FixtureRepository, id: number) {
  return {
    ref: `refs/heads/${repository.defaultBranch}`,
    commit_sha: 'd99612c3e1f2970085cfbaeadf8f010ef69bad83',
    analysis_key: '.github/workflows/codeql-analysis.yml:analyze',
    environment: '{"language":"javascript"}',
    category: '.github/workflows/codeql-analysis.yml:analyze/language:javascript',
    error: '',
    created_at: '2026-11-20T09:00:00Z',
    results_count: 0,
    rules_count: 120,
    id,
    url: `${api}/repos/${organization}/${repository.name}/code-scanning/analyses/${id}`,
    sarif_id: '6c81cd8e-b078-4ac3-a3be-1dad7dbd0b53',
    tool: { name: 'CodeQL', guid: null, version: '2.19.0' },
    deletable: true,
    warning: '',
  };
}
