/** Follows an audit package's build live on the dashboard (run-follower.svelte.ts), its events folded by audit-packages.ts. */
import { apiPath } from './api-client.ts';
import type { AuditPackageEvent } from './api-types.ts';
import { foldPackageEvent, type PackageBuild } from './audit-packages.ts';
import { RunFollower } from './run-follower.svelte.ts';

export class AuditPackageFollower extends RunFollower<AuditPackageEvent, PackageBuild> {
  /** `fetcher` is the app's authorised fetch; `initial` the build as the package was when asked for. */
  constructor(fetcher: typeof fetch, initial: PackageBuild) {
    super(fetcher, {
      path: (id) => apiPath('/api/audit/packages/{id}/events', { path: { id } }),
      fold: foldPackageEvent,
      initial,
    });
  }
}
