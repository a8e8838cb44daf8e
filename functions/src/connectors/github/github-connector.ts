/**
 * The GitHub connector, as data: what it collects from an organisation on github.com or GitHub
 * Enterprise Server, what it needs and what it must be granted. collect-github.ts does the work.
 */
import type { Connector, SettingValue } from '../connector.js';
import { defaultNeeds } from '../connector.js';
import { credentialSecret } from './github-credential.js';

const settings = [
  {
    name: 'organization',
    description: 'The GitHub organisation whose repositories and members are collected.',
    required: true,
    example: 'acme',
  },
  {
    name: 'baseUrl',
    description: 'The REST API address: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server.',
    required: false,
    example: 'https://github.example.com/api/v3',
  },
  {
    name: 'appId',
    description: "The GitHub App's id, when the credential is the App's private key.",
    required: false,
    example: '123456',
  },
  {
    name: 'installationId',
    description: "The id of the App's installation on the organisation, when the credential is the App's private key.",
    required: false,
    example: '45678901',
  },
] as const;

const secrets = [
  {
    name: credentialSecret,
    description: "A fine-grained personal access token for the organisation, or a GitHub App's private key (PEM).",
  },
] as const;

export const githubConnector: Connector = {
  id: 'github',
  title: 'GitHub',
  source: 'github-connector',
  kinds: ['repo.branch_protection', 'ci.pipeline', 'vuln.scan', 'repo.member'],
  settings,
  secrets,
  credentials:
    "A GitHub App installed on the organisation (its id, its installation's id and its private key), or a fine-grained personal access token whose resource owner is the organisation.",
  permissions: [
    'Repository "Metadata": read (list the repositories and their branch rules)',
    'Repository "Administration": read (branch protection, security settings, whether Dependabot alerts are on)',
    'Repository "Actions": read (environments and their deployment branch policies, workflows)',
    'Repository "Code scanning alerts": read (whether the default branch has code scanning analyses)',
    'Repository "Dependabot alerts": read (open Dependabot alerts)',
    'Repository "Secret scanning alerts": read (open secret scanning alerts)',
    'Organization "Members": read (the members, the owners, and which members lack two-factor authentication)',
    "With a personal access token, its owner must be an organisation owner (the alert listings require an owner or security manager, the members' two-factor status an owner).",
  ],
  needs(values: Readonly<Record<string, SettingValue>>, secretsSet: ReadonlySet<string>): string[] {
    const missing = defaultNeeds({ settings, secrets }, values, secretsSet);
    // Whether the App's ids are needed depends on the secret's value, which `needs` never sees:
    // they are asked for together, and a run with a private key and no ids fails as not configured.
    const appIds = [values.appId, values.installationId].filter((value) => value !== undefined && value !== '');
    if (appIds.length === 1)
      missing.push('both "appId" and "installationId" when the credential is a GitHub App private key (only one is set)');
    return missing;
  },
  load: async () => (await import('./collect-github.js')).collector,
};
