/**
 * How the Sources page words a built-in connector and its runs: how often it runs, where its
 * guide is, which of its settings are missing, its progress and how a run ended. Pure, so it is
 * tested without a browser.
 */
import type { connectorFailureReasons } from '@evident/contract';
import type { Connector } from './api-types.ts';
import { countsText } from './collection-runs.ts';
import type { ConnectorRunEnding, ConnectorTotals } from './connector-progress.ts';

/** How often the schedule runs a connector: `daily`, `every 6 hours`, `hourly`. */
export function cadenceText(hours: number): string {
  if (hours === 1) return 'hourly';
  if (hours === 24) return 'daily';
  if (hours % 24 === 0) return `every ${hours / 24} days`;
  return `every ${hours} hours`;
}

/**
 * The connector's section of the connectors guide. Its heading is the connector's title, and the
 * docs bundle ids a heading as scripts/lib/markdown.ts `headingId` does (a test holds the two alike).
 */
export function guidePath(title: string): string {
  const id = title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
  return `/docs/connectors#${id}`;
}

/** The settings a run needs that the newest settings version does not hold: they are saved on the Settings page. */
export const missingSettings = (connector: Pick<Connector, 'settings'>): Connector['settings'] =>
  connector.settings.filter((setting) => setting.required && (setting.value === undefined || setting.value === ''));

/** `1 call`, `1,200 calls`: the count as the Sources pages write counts. */
const counted = (value: number, one: string) => `${value.toLocaleString('en')} ${value === 1 ? one : `${one}s`}`;
const seconds = (value: number) => `${Number(value.toFixed(1)).toLocaleString('en')} s`;

/** A run's totals so far, a line each: calls made, items collected and stored, rate-limit waits. */
export function progressLines(totals: ConnectorTotals): string[] {
  const waits =
    totals.rateLimitWaits === 0
      ? 'No rate-limit wait'
      : `${counted(totals.rateLimitWaits, 'rate-limit wait')}, ${seconds(totals.waitedSeconds)} in all`;
  return [
    `${counted(totals.calls, 'call')} to the vendor\u2019s API`,
    `${counted(totals.items, 'item')} collected, ${totals.sent.toLocaleString('en')} stored`,
    waits,
  ];
}

/** The vendor's newest request to slow down, in a sentence. */
export const waitText = (wait: { seconds: number; reason: string }) =>
  `The vendor asked it to slow down: it waited ${seconds(wait.seconds)} (${wait.reason}).`;

type FailureReason = (typeof connectorFailureReasons)[number];

/** Why a run failed, in a few words, before the problem's own detail. */
export const failureReasonText: Record<FailureReason, string> = {
  not_configured: 'not configured',
  credential_rejected: 'credential rejected',
  permission_missing: 'permission missing',
  not_found: 'not found',
  vendor_unavailable: 'the vendor failed',
  worker_lost: 'the worker stopped',
  internal: 'an error of ours',
};

/** How a run ended: its word, shown in bold and never by colour alone, the tone, and what it came to. */
export function endingText(ending: ConnectorRunEnding): {
  headline: string;
  tone: 'ok' | 'bad' | 'muted';
  detail: string;
  permission?: string;
} {
  switch (ending.type) {
    case 'run.completed': {
      const collected = Object.keys(ending.counts).length === 0 ? 'nothing' : countsText(ending.counts);
      return ending.status === 'complete'
        ? { headline: 'Succeeded.', tone: 'ok', detail: `Collected ${collected}.` }
        : { headline: 'Ended incomplete.', tone: 'bad', detail: `Not every item it counted was stored; it sent ${collected}.` };
    }
    case 'run.failed': {
      const { reason, detail, permission } = ending.problem;
      return {
        headline: 'Failed',
        tone: 'bad',
        detail: `(${failureReasonText[reason]}): ${detail}`,
        ...(permission ? { permission } : {}),
      };
    }
    case 'run.cancelled':
      return { headline: 'Cancelled.', tone: 'muted', detail: 'What it stored before stays stored.' };
  }
}
