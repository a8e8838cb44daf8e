/**
 * The connectors' secrets are bound to the connector worker alone, and only for the connectors the
 * deployment enables (`CONNECTORS`, read when `firebase deploy` loads the entry file): a deploy
 * never asks for the secret of a connector nobody uses, and no other function can read one.
 * Its own file, because the entry file reads the setting once, when it is first imported.
 */
import { describe, expect, it, vi } from 'vitest';
import { deployedEndpoints } from '../support/deployed-endpoints.ts';

vi.stubEnv('CONNECTORS', 'github,google-cloud,okta');

describe('CONNECTORS', () => {
  it('binds the enabled connectors\u2019 secrets to the connector worker and to no other function', async () => {
    const secrets = Object.entries(await deployedEndpoints()).flatMap(([name, endpoint]) => {
      const bound = (endpoint['secretEnvironmentVariables'] as { key: string }[] | undefined) ?? [];
      return bound.map((secret) => `${name} ${secret.key}`);
    });
    expect(secrets.filter((entry) => !/ (WEBHOOK_SECRET_KEY|AUDIT_SIGNING_KEY)$/.test(entry)).sort()).toEqual([
      'connectorWorker GITHUB_CREDENTIAL',
      'connectorWorker OKTA_CREDENTIAL',
    ]);
    // The audit packages' signing key likewise, to the worker that builds them alone.
    expect(secrets.filter((entry) => entry.endsWith('AUDIT_SIGNING_KEY'))).toEqual(['auditPackageWorker AUDIT_SIGNING_KEY']);
  });
});
