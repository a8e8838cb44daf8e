/** Follows one connector run live on the Sources page (run-follower.svelte.ts), its events folded by connector-progress.ts. */
import { apiPath } from './api-client.ts';
import type { ConnectorRunEvent } from './api-types.ts';
import { foldConnectorEvent, initialConnectorProgress, type ConnectorProgress } from './connector-progress.ts';
import { RunFollower } from './run-follower.svelte.ts';

export class ConnectorRunFollower extends RunFollower<ConnectorRunEvent, ConnectorProgress> {
  /** `fetcher` is the app's authorised fetch; `connector` the id of the connector whose runs it follows. */
  constructor(fetcher: typeof fetch, connector: string) {
    super(fetcher, {
      path: (id) => apiPath('/api/connectors/{connector}/runs/{id}/events', { path: { connector, id } }),
      fold: foldConnectorEvent,
      initial: initialConnectorProgress,
    });
  }
}
