/**
 * GitHub's refusals as ConnectorFailures, in our own words: an SDK error's message can quote a
 * request's URL or headers, so none of it is passed on, only its status and the permission GitHub
 * names in `x-accepted-github-permissions`.
 */
import { ConnectorFailure } from '../connector.js';

/** A call the connector makes, in words, and the fine-grained permission it needs. */
export interface GitHubCall {
  resource: string;
  permission: string;
  /** For a call on the organisation itself: its name, whose 404 means it is not there (or not visible). */
  organization?: string;
}

interface ResponseError {
  status: number;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isResponseError(error: unknown): error is ResponseError {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

/** The status of a GitHub answer the SDK threw, or undefined when no answer came. */
export function statusOf(error: unknown): number | undefined {
  return isResponseError(error) ? error.status : undefined;
}

/** The message GitHub wrote in the body of a refusal (only ever compared, never repeated). */
export function messageOf(error: unknown): string {
  const data = isResponseError(error) ? error.response?.data : undefined;
  return typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string'
    ? (data as { message: string }).message
    : '';
}

export function failureOf(error: unknown, call: GitHubCall): ConnectorFailure {
  if (error instanceof ConnectorFailure) return error;
  const status = statusOf(error);
  if (status === 401) {
    return new ConnectorFailure(
      'credential_rejected',
      'GitHub refused the credential: it is revoked, expired or not the one issued.',
    );
  }
  if (status === 403 && !/rate limit/i.test(messageOf(error))) {
    const accepted = (error as ResponseError).response?.headers?.['x-accepted-github-permissions'];
    const permission = typeof accepted === 'string' && accepted !== '' ? accepted : call.permission;
    return new ConnectorFailure(
      'permission_missing',
      `GitHub refused to list ${call.resource}: the credential lacks the permission ${permission}.`,
      permission,
    );
  }
  if (status === 404 && call.organization !== undefined) {
    return new ConnectorFailure('not_found', `GitHub has no organisation "${call.organization}" that the credential can see.`);
  }
  if (status === 403 || status === 429) {
    return new ConnectorFailure(
      'vendor_unavailable',
      `GitHub kept rate-limiting the calls for ${call.resource} after the waits it asked for.`,
    );
  }
  if (status === undefined)
    return new ConnectorFailure('vendor_unavailable', `GitHub could not be reached for ${call.resource}.`);
  return new ConnectorFailure('vendor_unavailable', `GitHub answered ${status} for ${call.resource} after the SDK's retries.`);
}
