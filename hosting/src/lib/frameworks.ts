/**
 * How the pages word readiness per framework (`GET /api/frameworks`, `GET /api/frameworks/{framework}`
 * and a report's `summary.readiness`): requirement statuses, shares, coverage, the gaps grouped
 * the way each framework numbers its requirements, and the pages' addresses. Pure, so it is unit
 * tested without a browser.
 */
import { frameworkIds, frameworkNames, plural, requirementStatuses } from '@evident/contract';
import type {
  FrameworkDetail,
  FrameworkId,
  FrameworkReadiness,
  QueryOf,
  ReadinessShares,
  RequirementCounts,
  RequirementStatus,
} from './api-types.ts';
import type { ControlStatus } from './format.ts';

/** Names for where the API gives only a framework's id (a report's shares, a control's mappings). */
export { frameworkNames };

/** Riskiest first, as the controls' statuses are listed. */
export const requirementStatusOrder: readonly RequirementStatus[] = ['not_met', 'unproven', 'met', 'not_applicable'];

export const requirementStatusLabel: Record<RequirementStatus, string> = {
  met: 'Met',
  not_met: 'Not met',
  unproven: 'Unproven',
  not_applicable: 'Not applicable',
};

/** What each status means (the API's rules, docs/methodology.md), for the page's legend. */
export const requirementStatusMeaning: Record<RequirementStatus, string> = {
  met: 'every applicable control mapped to it passes.',
  not_met: 'a control mapped to it fails.',
  unproven: 'none fails, but one has stale or missing evidence; it counts against the share.',
  not_applicable: 'every control mapped to it is scoped out; it is left out of the share.',
};

/**
 * The control status whose colours a requirement status wears, so a requirement that is not met
 * looks like a failing control on every page.
 */
export const statusTone: Record<RequirementStatus, ControlStatus> = {
  met: 'passing',
  not_met: 'failing',
  unproven: 'stale',
  not_applicable: 'not_applicable',
};

/** "72.5%"; a dash when no requirement applies (the API's null), which the sentences beside it explain. */
export const shareText = (share: number | null): string => (share === null ? '—' : `${share.toFixed(1)}%`);

/**
 * "8 met of 33 in scope": the headline beside the share, over every requirement the report's
 * scope counts, covered or not. Those every control of which is scoped out are left out of the
 * share, and the phrase says so. A phrase, without a full stop.
 */
export function inScopeText({ counts, inScope }: { counts: RequirementCounts; inScope: number }): string {
  if (inScope === 0) return 'No requirement is in scope, so there is no share';
  const text = `${counts.met} met of ${inScope} in scope`;
  if (counts.not_applicable === 0) return text;
  const applicable = counts.met + counts.not_met + counts.unproven;
  return applicable === 0
    ? `${text}; none applies, so there is no share`
    : `${text}; ${counts.not_applicable} not applicable, left out of the share`;
}

/** "Controls cover 25 of 33 requirements in scope; 8 uncovered.": how much of the scope any control maps to. */
export function coverageText({ covered, inScope, gaps }: { covered: number; inScope: number; gaps: number }): string {
  const uncovered = gaps === 0 ? 'none uncovered' : `${gaps} uncovered`;
  return `Controls cover ${covered} of ${plural(inScope, 'requirement')} in scope; ${uncovered}.`;
}

/** The scope in words, after "Scope:": as the report kept it. */
export const scopeText = (scope: string): string => `Scope: ${scope}.`;

/** What the page says of an in-scope requirement no control maps to. */
export const uncoveredText = 'No control covers this requirement';

/**
 * A report's readiness for one framework with its scope, as the API serves it: a report made
 * before scope existed counted only the requirements a control covered, so that is its scope
 * (functions/src/families/frameworks.ts says the same of the reports it serves).
 */
export function withScope<T extends FrameworkReadiness>(
  readiness: T,
): T & Required<Pick<FrameworkReadiness, 'scope' | 'inScope' | 'outOfScope'>> {
  return {
    ...readiness,
    scope: readiness.scope ?? 'The requirements a control covered (the report predates scope)',
    inScope: readiness.inScope ?? readiness.requirements.length,
    outOfScope: readiness.outOfScope ?? [],
  };
}

/** How many requirements the status filter lets through (`''`: no filter), of all those in scope. */
export function shownText(shown: number, all: number, status: RequirementStatus | ''): string {
  if (all === 0) return 'No requirement of this framework is in scope.';
  if (!status) return plural(all, 'requirement');
  if (shown === 0) return `None of its ${plural(all, 'requirement')} is ${requirementStatusLabel[status].toLowerCase()}.`;
  return `${shown} of ${plural(all, 'requirement')}`;
}

/**
 * The group a requirement belongs to as its framework numbers it: NIST by family (`ac-2.1` in
 * `ac`), SOC 2 and ISO by the id before its last dot (`CC6.1` in `CC6`, `A.5.17` in `A.5`).
 */
export function groupOf(framework: FrameworkId, id: string): string {
  if (framework === 'nist80053') return id.split('-')[0]!;
  const dot = id.lastIndexOf('.');
  return dot > 0 ? id.slice(0, dot) : id;
}

/** The gaps in their groups, both in the framework's order (the API's). */
export function gapGroups<T extends { id: string }>(framework: FrameworkId, gaps: readonly T[]): { group: string; gaps: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const gap of gaps) {
    const group = groupOf(framework, gap.id);
    const members = groups.get(group);
    if (members) members.push(gap);
    else groups.set(group, [gap]);
  }
  return [...groups].map(([group, members]) => ({ group, gaps: members }));
}

/** The trend as the score chart draws it: days on which no requirement applied have no point. */
export const trendPoints = (trend: FrameworkDetail['trend']): { date: string; score: number }[] =>
  trend.flatMap(({ date, share }) => (share === null ? [] : [{ date, score: share }]));

/** A report's shares in the frameworks' order, named; none for a report made before readiness. */
export function sharesIn(
  readiness: ReadinessShares | undefined,
): { framework: FrameworkId; name: string; share: number | null }[] {
  if (!readiness) return [];
  return frameworkIds.flatMap((framework) => {
    const share = readiness[framework];
    return share === undefined ? [] : [{ framework, name: frameworkNames[framework], share }];
  });
}

/** One framework on a report's dashboard: its share and, when the report keeps its frameworks, "met of in scope". */
export interface ReportReadiness {
  framework: FrameworkId;
  name: string;
  share: number | null;
  /** "8 met of 33 in scope"; absent for a report that carries its shares only. */
  inScope?: string;
}

/**
 * A report's readiness in the frameworks' order, for its dashboard: from the frameworks it keeps
 * (a report made before scope read as the API serves it), else from the bare shares of its summary.
 */
export function readinessOfReport(report: {
  frameworks?: FrameworkReadiness[];
  summary: { readiness?: ReadinessShares };
}): ReportReadiness[] {
  if (!report.frameworks) return sharesIn(report.summary.readiness);
  const kept = new Map(report.frameworks.map((readiness) => [readiness.framework, withScope(readiness)]));
  return frameworkIds.flatMap((framework) => {
    const readiness = kept.get(framework);
    if (!readiness) return [];
    return [{ framework, name: frameworkNames[framework], share: readiness.share, inScope: inScopeText(readiness) }];
  });
}

/** The framework pages' address: `?date=2026-11-20&status=not_met`; a status that is not one is ignored. */
export interface FrameworkQuery {
  /** The report's day; today's when empty. The API checks it and says what is wrong with it. */
  date: string;
  /** The requirements shown; all when empty. */
  status: RequirementStatus | '';
}

const isRequirementStatus = (value: string): value is RequirementStatus =>
  (requirementStatuses as readonly string[]).includes(value);

export function frameworkQueryFrom(query: URLSearchParams): FrameworkQuery {
  const status = query.get('status') ?? '';
  return { date: query.get('date') ?? '', status: isRequirementStatus(status) ? status : '' };
}

export function queryOf(query: Partial<FrameworkQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.date) params.set('date', query.date);
  if (query.status) params.set('status', query.status);
  return params;
}

const withQuery = (path: string, query: Partial<FrameworkQuery>) => {
  const params = queryOf(query);
  return params.size > 0 ? `${path}?${params}` : path;
};

/** The list of frameworks, for the report of `date` (today's when empty). */
export const frameworksPath = (date = ''): string => withQuery('/frameworks', { date });

/** One framework's page, for the report of `date` (today's when empty). */
export const frameworkPath = (framework: string, date = ''): string => withQuery(`/frameworks/${framework}`, { date });

/** What the pages ask the API (`GET /api/frameworks`, one framework), for the report of `date` (today's when empty). */
export const reportQueryOf = (date = ''): QueryOf<'listFrameworks'> => ({ date: date || undefined });
