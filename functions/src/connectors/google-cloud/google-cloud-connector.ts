/**
 * The Google Cloud connector: Cloud Asset Inventory over an organisation, folder or project,
 * read with the runtime service account (application default credentials), so it has no secret.
 * What it collects and how each field is derived: docs/connectors.md, "Google Cloud".
 */
import type { Connector } from '../connector.js';
import { findingChecks } from './finding-checks.js';
import { scopePattern } from './scope.js';

export const googleCloudConnector: Connector = {
  id: 'google-cloud',
  title: 'Google Cloud',
  source: 'google-cloud-connector',
  kinds: ['storage.bucket', 'crypto.key', 'logging.sink', 'monitoring.alert_policy', 'scanner.finding'],
  scannerChecks: Object.values(findingChecks),
  settings: [
    {
      name: 'scope',
      description: 'The organisation, folder or project whose assets are collected, as Cloud Asset Inventory names it.',
      required: true,
      example: 'organizations/123456789012',
    },
  ],
  secrets: [],
  credentials: 'Application default credentials: the runtime service account of Evident\u2019s functions. No key is stored.',
  permissions: [
    'roles/cloudasset.viewer on the scope (cloudasset.assets.listResource and cloudasset.assets.listIamPolicy)',
    'the Cloud Asset API (cloudasset.googleapis.com) enabled in the service account\u2019s project',
  ],
  needs(settings) {
    const scope = settings['scope'];
    if (scope === undefined || scope === '') return ['the setting "scope": the organisation, folder or project to collect'];
    if (!scopePattern.test(String(scope))) {
      return ['the setting "scope" in the form organizations/<number>, folders/<number> or projects/<id>'];
    }
    return [];
  },
  // The client's protos load with the code, once a process, not when a run creates its client.
  load: async () => {
    const { collector, loadClientProtos } = await import('./collect-google-cloud.js');
    loadClientProtos();
    return collector;
  },
};
