/**
 * How the answers of the Directory API and the Cloud Identity Policy API become what a run
 * reports: their retries (429 and 5xx, waiting as long as `Retry-After` asks and saying so
 * through the run's progress) and their refusals, mapped to ConnectorFailure in our own words. The SDK's error message is never passed on: it
 * can quote the request, and the request carries a token.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { MethodOptions } from '@googleapis/admin';
import { ConnectorFailure, type CollectProgress } from '../connector.js';
import { adminRole, cloudIdentityApi, directoryApi, directoryUserReadScope, policiesReadScope } from './directory-access.js';

/** The parts of a GaxiosError this module reads. */
interface ApiError {
  status?: number;
  response?: { status?: number; headers?: unknown; data?: unknown };
}

function statusOf(error: unknown): number | undefined {
  const { status, response } = (error ?? {}) as ApiError;
  return response?.status ?? status;
}

/** A header of an answer, whether gaxios gives a fetch `Headers` (of whichever fetch) or a plain record. */
function headerOf(headers: unknown, name: string): string | undefined {
  const get = (headers as { get?: unknown } | undefined)?.get;
  if (typeof get === 'function') return (get.call(headers, name) as string | null) ?? undefined;
  const value = (headers as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** `Retry-After` in seconds (RFC 9110 §10.2.3: a number of seconds or an HTTP date). */
export function retryAfterSeconds(headers: unknown, now = Date.now()): number | undefined {
  const value = headerOf(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The SDK's (gaxios's) retries: three, for 429 and 5xx on GET, with its exponential backoff,
 * unless the answer says how long to wait. Aborting the run ends a wait at once.
 */
export function retryOptions(progress: CollectProgress, signal: AbortSignal): MethodOptions {
  return {
    signal,
    retryConfig: {
      retry: 3,
      httpMethodsToRetry: ['GET'],
      statusCodesToRetry: [
        [429, 429],
        [500, 599],
      ],
      retryBackoff: async (error, defaultMs) => {
        const seconds = retryAfterSeconds(error.response?.headers);
        if (seconds !== undefined)
          progress.rateLimited(seconds, `Google Workspace answered HTTP ${statusOf(error)} with Retry-After`);
        await wait(seconds === undefined ? defaultMs : seconds * 1000, undefined, { signal });
      },
    },
  };
}

/** The reasons Google gives in `error.errors[].reason` and `error.details[].reason`. */
function reasonsOf(error: unknown): string[] {
  const body = (error as ApiError).response?.data as
    { error?: { errors?: { reason?: unknown }[]; details?: { reason?: unknown }[] } } | undefined;
  return [...(body?.error?.errors ?? []), ...(body?.error?.details ?? [])]
    .map((entry) => entry.reason)
    .filter((reason): reason is string => typeof reason === 'string');
}

const scopeReasons = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);
/** What Google says when the runtime's project has not enabled the API. */
const disabledReasons = new Set(['accessNotConfigured', 'SERVICE_DISABLED']);

/** One of the connector's calls, in the words its failures use. */
export interface WorkspaceCall {
  /** What the call reads, after "the listing of": `users`, `security policies`. */
  reading: string;
  /** The delegated scope it needs. */
  scope: string;
  /** The API that serves it, to enable in the runtime's project. */
  api: string;
}

export const calls = {
  users: { reading: 'users', scope: directoryUserReadScope, api: directoryApi },
  policies: { reading: 'security policies', scope: policiesReadScope, api: cloudIdentityApi },
} satisfies Record<string, WorkspaceCall>;

/** What a failed call of the connector means for the run. */
export function workspaceFailure(
  error: unknown,
  call: WorkspaceCall,
  settings: { adminEmail: string; customer: string },
): ConnectorFailure {
  if (error instanceof ConnectorFailure) return error;
  const status = statusOf(error);
  const reasons = reasonsOf(error);
  if (status === 401) {
    return new ConnectorFailure(
      'credential_rejected',
      `Google Workspace refused the delegated credentials for ${settings.adminEmail} (HTTP 401): the delegation or the service account may have been revoked.`,
    );
  }
  if (status === 403 && reasons.some((reason) => scopeReasons.has(reason))) {
    return new ConnectorFailure(
      'permission_missing',
      `The delegation lacks the scope ${call.scope}: add it to the service account's client ID under Admin console › Security › API controls › Domain-wide delegation.`,
      call.scope,
    );
  }
  if (status === 403 && reasons.some((reason) => disabledReasons.has(reason))) {
    return new ConnectorFailure(
      'permission_missing',
      `The API ${call.api} is not enabled in the service account's project: enable it, then run again.`,
      call.api,
    );
  }
  if (status === 403) {
    return new ConnectorFailure(
      'permission_missing',
      `${settings.adminEmail} may not read the ${call.reading} of ${settings.customer}: make it a ${adminRole} (Google lets no other role read security policies).`,
      adminRole,
    );
  }
  if (status === 400 || status === 404) {
    return new ConnectorFailure(
      'not_found',
      `Google Workspace knows no customer "${settings.customer}" visible to ${settings.adminEmail} (HTTP ${status}).`,
    );
  }
  return new ConnectorFailure(
    'vendor_unavailable',
    `Google Workspace did not answer the listing of ${call.reading} (${status === undefined ? 'no answer' : `HTTP ${status}`}) after the SDK's retries.`,
  );
}
