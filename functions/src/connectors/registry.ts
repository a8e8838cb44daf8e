/**
 * The built-in connectors, by id. Each entry is plain data (connector.ts): listing them loads no
 * vendor SDK; a run loads its connector's collect module. Adding a connector is a module in its
 * own folder and a line here (CONTRIBUTING.md, "A new connector").
 */
import type { Connector } from './connector.js';
import { githubConnector } from './github/github-connector.js';
import { googleCloudConnector } from './google-cloud/google-cloud-connector.js';
import { googleWorkspaceConnector } from './google-workspace/google-workspace-connector.js';
import { oktaConnector } from './okta/okta-connector.js';

export const builtInConnectors: readonly Connector[] = [
  githubConnector,
  googleCloudConnector,
  googleWorkspaceConnector,
  oktaConnector,
];

/** The secrets of the connectors named, each once: what the worker is given. */
export function secretNamesOf(connectors: readonly Connector[], enabled: ReadonlySet<string>): string[] {
  const names = connectors.filter((connector) => enabled.has(connector.id)).flatMap((connector) => connector.secrets);
  return [...new Set(names.map((secret) => secret.name))].sort();
}
