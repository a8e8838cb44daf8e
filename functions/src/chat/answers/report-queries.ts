/**
 * Answers from one day's report on its own: a framework's readiness (or a requirement's, or a series'), what an owner
 * answers for, what falls due, is accepted or goes stale ahead, the rankings. Every control named is cited.
 */
import { dayIn } from '../../assessment/dates.js';
import type { ControlResult, FrameworkReadiness } from '../../assessment/model.js';
import { expiringHorizonDays, frameworkNames, isOpenStatus, plural } from '@evident/contract';
import {
  answered,
  byId,
  controlLine,
  controlList,
  controlName,
  counted,
  decline,
  escapeMarkdown,
  isOpenFinding,
  more,
} from './compose.js';
import { resultsIn } from './compose.js';
import { section, statusLabel, summaryLine, type ComposedAnswer } from './compose.js';
import type { QuestionOf as QueryOf } from '../question.js';
import { rankByRisk, type ReportIndex } from '../report-index.js';

/** Controls (and exceptions, and evidence items) listed and cited in one answer; the rest are counted. */
const shownControls = 40;

/** The first `shownControls` of a list, the others counted. */
const listed = (results: readonly ControlResult[]) =>
  controlList(results.slice(0, shownControls), results.length - shownControls, false);

/** An answer of `before`, the list of `results` and `after`, citing the controls listed. */
const listing = (before: string[], results: readonly ControlResult[], after: string[] = []) =>
  answered([...before, ...listed(results), ...after], results.slice(0, shownControls));

const resultsOf = (index: ReportIndex, ids: Iterable<string>) =>
  [...new Set(ids)].flatMap((id) => index.byId.get(id)?.result ?? []).sort(byId);

/** The requirements a question selects: all of the framework's, or those named, each series with its sub-clauses. */
function requirementsOf({ requirements }: FrameworkReadiness, named: readonly string[] | undefined) {
  if (!named) return requirements;
  const ids = new Set(requirements.map((entry) => entry.id.toLowerCase()));
  // A requirement the framework has by that id is that one ("ac-2"); a series ("CC7", "A.8", "ir") brings its clauses.
  const keys = named.map((id) => id.toLowerCase());
  return requirements.filter((entry) => {
    const id = entry.id.toLowerCase();
    return keys.some((key) => id === key || (!ids.has(key) && (id.startsWith(`${key}.`) || id.startsWith(`${key}-`))));
  });
}

/** The requirements no control maps to: those in scope count as not met; those out of it for nothing, but are named. */
function gapsAnswer(readiness: FrameworkReadiness, name: string, index: ReportIndex): string {
  const unmappedOut = (readiness.outOfScope ?? []).map(({ id }) => id).filter((id) => !index.byFramework.has(id.toLowerCase()));
  const unmapped = readiness.gaps.length + unmappedOut.length;
  const list = (ids: readonly string[]) => ids.map(escapeMarkdown).join(', ');
  return [
    `The catalog covers ${readiness.total - unmapped} of the ${readiness.total} requirements of ${name}; ` +
      `${counted(unmapped, 'requirement', 'has', 'have')} no control.`,
    ...(readiness.gaps.length > 0 ? [`In scope, so the report counts them not met: ${list(readiness.gaps)}.`] : []),
    ...(unmappedOut.length > 0 ? [`Out of scope, so they count for nothing: ${list(unmappedOut)}.`] : []),
  ].join(' ');
}

/** A framework's readiness; declined when the report was made before readiness (a model or an MCP client may ask so). */
export function answerReadiness(query: QueryOf<'readiness'>, index: ReportIndex): ComposedAnswer {
  const readiness = index.report.frameworks?.find((entry) => entry.framework === query.framework);
  if (!readiness) return decline(index, 'no_match');
  const name = frameworkNames[query.framework];
  if (query.gaps && !query.requirements) return answered([gapsAnswer(readiness, name, index)], []);
  const requirements = requirementsOf(readiness, query.requirements).filter(
    (entry) => !query.unproven || entry.status === 'unproven',
  );
  const statuses = query.statuses && new Set(query.statuses);
  const mapped = requirements.flatMap((entry) => entry.controls);
  // The whole framework: what keeps it from ready. A requirement or series: every control behind it, unless a status is asked.
  const asked = (result: ControlResult) =>
    statuses ? statuses.has(result.status) : query.requirements || isOpenStatus(result.status);
  const shown = rankByRisk(resultsOf(index, mapped).filter(asked));
  const lead = query.requirements
    ? requirementLead(query.requirements, name, requirements)
    : `${name} readiness in the report for ${index.report.date} is **${readiness.share}%**: ${readinessCounts(readiness)} ` +
      `(The report's overall score, over every control, is ${index.report.summary.score}.)`;
  const heading = statuses || !query.requirements ? 'What keeps requirements from being met:' : 'The controls behind it:';
  if (query.unproven) {
    const unproven = requirements.map((entry) => escapeMarkdown(entry.id)).join(', ') || 'none';
    return listing([lead, '', `Unproven: ${unproven}. Their controls without fresh evidence:`], shown);
  }
  const none = 'No control mapped to it is in the status asked about.';
  return shown.length === 0 ? answered([lead, '', none], []) : listing([lead, '', heading], shown);
}

const requirementStatus = (status: string) => status.replace('_', ' ');

function requirementLead(named: readonly string[], name: string, requirements: FrameworkReadiness['requirements']): string {
  const met = requirements.filter((entry) => entry.status === 'met').length;
  const [only] = requirements;
  if (only && requirements.length === 1)
    return `${name} ${escapeMarkdown(only.id)} is **${requirementStatus(only.status)}** in this report.`;
  const label = escapeMarkdown(named.map((id) => id.toUpperCase()).join(', '));
  const each = requirements.map((entry) => `${escapeMarkdown(entry.id)} ${requirementStatus(entry.status)}`).join(', ');
  return `${name} ${label}: ${met} of ${plural(requirements.length, 'requirement')} the catalog covers ${met === 1 ? 'is' : 'are'} met${named.length > 1 ? `: ${each}` : ''}.`;
}

export function answerOwner({ owner: name, among, statuses }: QueryOf<'owner'>, index: ReportIndex): ComposedAnswer {
  const owned = index.report.controls.filter((result) => result.owner === name && (!among || among.includes(result.id)));
  const shown = rankByRisk(statuses ? owned.filter((result) => statuses.includes(result.status)) : owned);
  const which = statuses ? ` ${statuses.map((status) => statusLabel[status]).join(' or ')}` : '';
  const owner = escapeMarkdown(name);
  const count = plural(owned.length, 'control');
  const some = statuses ? `; ${shown.length} ${shown.length === 1 ? 'is' : 'are'}${which}` : '';
  const lead = shown.length === 0 ? `Of the ${count} the ${owner} owns, none is${which}.` : `The ${owner} owns ${count}${some}:`;
  return listing([lead, ''], shown);
}

const dueLine = (result: ControlResult) => `due ${result.dueDate}${result.overdue ? ' (overdue)' : ''}`;

export function answerDue(query: QueryOf<'due'>, index: ReportIndex): ComposedAnswer {
  const { before, from, owner, statuses, limit, among } = query;
  const isDue = (due: string | undefined) =>
    due !== undefined && (before!.inclusive ? due <= before!.date : due < before!.date) && (!from || due >= from);
  const selected = index.report.controls
    .filter((result) => (!statuses || statuses.includes(result.status)) && (!owner || result.owner === owner))
    .filter((result) => !among || among.includes(result.id))
    .filter((result) => (before ? isDue(result.dueDate) : result.overdue === true))
    .sort((a, b) => ((a.dueDate ?? '') < (b.dueDate ?? '') ? -1 : 1));
  const by = from === before?.date ? 'on' : from ? `between ${from} and` : before?.inclusive ? 'by' : 'before';
  const span = before ? `due ${by} ${before.date}` : 'overdue';
  const of = among ? ` among the ${plural(among.length, 'control')} asked about` : '';
  const when = `${span}${owner ? ` among the controls the ${escapeMarkdown(owner)} owns` : of} in the report for ${index.report.date}`;
  if (selected.length === 0) return answered([`No control is ${when}.`], selected);
  // Only what is not yet overdue is limited: "anything overdue? if not, which comes due first?" keeps every overdue one.
  const shown = [...selected.filter((result) => result.overdue), ...selected.filter((result) => !result.overdue).slice(0, limit)];
  const lines = shown.map((result) => summaryLine(result, `, ${dueLine(result)}`, false));
  const first =
    shown.length < selected.length ? `; the first ${shown.length === 1 ? 'to fall due' : `${shown.length} to fall due`}` : '';
  return answered([`${counted(selected.length, 'control', 'is', 'are')} ${when}${first}:`, '', ...lines], shown);
}

export function answerExceptions(query: QueryOf<'exceptions'>, index: ReportIndex): ComposedAnswer {
  const exceptions = index.report.exceptions ?? [];
  const accepted = index.report.controls.filter((result) => result.riskAccepted);
  const scopedOut = query.scopedOut ? index.report.controls.filter((result) => result.status === 'not_applicable') : [];
  const notApplying = `${counted(scopedOut.length, 'control', 'does', 'do')} not apply:`;
  const outOfScope = scopedOut.length > 0 ? ['', notApplying, '', ...listed(scopedOut)] : [];
  const none = `No exception is in force in the report for ${index.report.date}: no finding is accepted as a risk.`;
  if (exceptions.length === 0 && accepted.length === 0) return answered([none, ...outOfScope], scopedOut);
  // A report may hold an exception per subject of a control, tens of thousands: the soonest to
  // expire are listed (the report keeps them in id order, which is expiry order), the rest counted.
  const lines = exceptions.slice(0, shownControls).map(({ controlId, subject, approver, expiresOn }) => {
    const by = escapeMarkdown(approver.name ?? approver.email ?? approver.uid);
    return `- **${controlId}**${subject ? ` for ${escapeMarkdown(subject)}` : ''}: accepted by ${by} until ${expiresOn}`;
  });
  const later = exceptions.length - shownControls;
  if (later > 0) lines.push(`- \u2026and ${later} more, expiring later: the Exceptions page lists them all.`);
  const cited = [...exceptions.map(({ controlId }) => controlId), ...[...accepted, ...scopedOut].map(({ id }) => id)];
  const lead = `${counted(exceptions.length, 'exception', 'is', 'are')} in force:`;
  return answered([lead, '', ...lines, ...outOfScope], resultsOf(index, cited));
}

export function answerOwnership(query: QueryOf<'ownership'>, index: ReportIndex): ComposedAnswer {
  const results = resultsOf(index, query.controlIds);
  const lines = results.flatMap((result) => {
    const owner = result.owner ? escapeMarkdown(result.owner) : 'none named';
    // What an open control's owner has to act on, so "who owns it, and what is wrong" is one answer.
    const open = isOpenStatus(result.status) ? result.findings.filter(isOpenFinding).slice(0, 3) : [];
    return [
      controlLine(result, `; owner: ${owner}${result.dueDate ? `; ${dueLine(result)}` : '; no due date'}`),
      ...open.map((finding) => `  - ${escapeMarkdown(finding.message)}`),
    ];
  });
  return answered([`In the report for ${index.report.date}:`, '', ...lines], results);
}

export function answerEvidenceKinds({ kinds, only }: QueryOf<'evidenceKinds'>, index: ReportIndex): ComposedAnswer {
  const results = index.controls
    .filter(({ control }) => {
      const asked = (control?.evidence ?? []).map((requirement) => kinds.includes(requirement.kind));
      return asked.length > 0 && (only ? asked.every(Boolean) : asked.some(Boolean));
    })
    .map(({ result }) => result);
  const lead =
    `${counted(results.length, 'control', 'asks', 'ask', ' of the catalog')} ${only ? 'only' : 'among other evidence'} ` +
    `for ${kinds.join(' or ')} evidence${results.length > 0 ? ':' : '.'}`;
  return listing(results.length > 0 ? [lead, ''] : [lead], results);
}

/** The controls that have needed attention the longest: those open since the earliest day, and the rest by date. */
export function answerOpenLongest(_query: unknown, index: ReportIndex): ComposedAnswer {
  const open = index.report.controls
    .filter((result) => isOpenStatus(result.status) && result.openSince)
    .sort((a, b) => (a.openSince! < b.openSince! ? -1 : a.openSince! > b.openSince! ? 1 : byId(a, b)));
  const earliest = open[0]?.openSince;
  if (!earliest) return answered([`No control needs attention in the report for ${index.report.date}.`], []);
  const longest = open.filter((result) => result.openSince === earliest);
  const rest = open.filter((result) => result.openSince !== earliest).slice(0, shownControls);
  const then = rest.length > 0 ? ['Then:', '', ...rest.map((result) => `- **${result.id}** since ${result.openSince}`)] : [];
  const lead = `${counted(longest.length, 'control', 'has', 'have')} needed attention since **${earliest}**, the longest:`;
  return listing([lead, ''], longest, section(then));
}

/** Owners by how many of their controls need attention; the first one's are cited. */
export function answerOwnersRanked(_query: unknown, index: ReportIndex): ComposedAnswer {
  const open = index.report.controls.filter((result) => result.owner && isOpenStatus(result.status));
  const ranked = [...Map.groupBy(open, (result) => result.owner!)];
  ranked.sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  if (ranked.length === 0)
    return answered([`No owner has a control needing attention in the report for ${index.report.date}.`], []);
  const [owner, results] = ranked[0]!;
  const counts = ranked.map(([name, open]) => `- ${escapeMarkdown(name)}: ${open.length}`);
  const lead = `The ${escapeMarkdown(owner)} has the most controls needing attention: ${results.length}.`;
  return answered([lead, '', ...listed(rankByRisk(results)), '', 'By owner:', '', ...counts], rankByRisk(results));
}

/** The requirements a share is over: met, not met and unproven. */
const countedOf = ({ counts }: FrameworkReadiness) => counts.met + counts.not_met + counts.unproven;

/** A framework's counts in words: every requirement in scope (an uncovered one not met), or before scope existed, covered ones. */
function readinessCounts(readiness: FrameworkReadiness): string {
  const { counts, total, gaps } = readiness;
  const notApplicable = counts.not_applicable > 0 ? ` (${counts.not_applicable} not applicable)` : '';
  if (readiness.inScope === undefined)
    return (
      `of ${readiness.covered} requirements the catalog covers, ${counts.met} are met, ${counts.not_met} not met and ` +
      `${counts.unproven} unproven${notApplicable}; ${total - readiness.covered} of its ${total} requirements have no control in the catalog.`
    );
  const uncovered = gaps.length > 0 ? ` (${gaps.length} of them no control covers)` : '';
  const outOfScope = readiness.outOfScope?.length ?? 0;
  return (
    `${counts.met} met of ${countedOf(readiness)} in scope (${readiness.scope}); ${counts.not_met} not met${uncovered} and ` +
    `${counts.unproven} unproven${notApplicable}${outOfScope > 0 ? `; ${outOfScope} of its ${total} requirements are out of scope` : ''}.`
  );
}

/** The frameworks by readiness, from the report. */
export function answerFrameworksRanked(_query: unknown, index: ReportIndex): ComposedAnswer {
  const ranked = [...(index.report.frameworks ?? [])].sort((a, b) => (b.share ?? -1) - (a.share ?? -1));
  const lines = ranked.map((entry) => {
    const over = entry.inScope === undefined ? 'covered requirements' : 'in scope';
    return `- ${frameworkNames[entry.framework]}: **${entry.share ?? 'no'}%** ready (${entry.counts.met} of ${countedOf(entry)} ${over} met)`;
  });
  return answered([`Readiness in the report for ${index.report.date}, closest first:`, '', ...lines], []);
}

/** Findings the report shows for information only (a scanner's muted findings): shown, deciding nothing. */
export function answerMuted(_query: unknown, index: ReportIndex): ComposedAnswer {
  const info = (result: ControlResult) => result.findings.filter((finding) => finding.outcome === 'info');
  const shown = index.report.controls.flatMap((result) => info(result).map((finding) => ({ result, finding })));
  if (shown.length === 0)
    return answered([`No finding in the report for ${index.report.date} is muted or shown for information only.`], []);
  const lead = `${counted(shown.length, 'finding', 'is', 'are')} shown for information only; they decide nothing:`;
  const lines = shown.map(({ result, finding }) => `- ${controlName(result)}: ${escapeMarkdown(finding.message)}`);
  return answered([lead, '', ...lines], resultsIn(shown));
}

/** Evidence items listed in one answer; the rest are counted. */
const shownItems = 30;

const evidenceOf = ({ kind, subject }: { kind: string; subject: string }) => `${kind} evidence for ${escapeMarkdown(subject)}`;

/**
 * Freshness ahead ("what expires before the audit on 2027-02-01"), from each control's `expiring` list in the report (the
 * evidence that ages on its own, with the instant each item stops counting), narrowed by horizon, kind, subject or controls.
 */
export function answerExpiring(query: QueryOf<'expiring'>, index: ReportIndex): ComposedAnswer {
  const { report } = index;
  const { kinds, subjects, controlIds, statuses, from, until, phrase } = query;
  const dayOf = (time: string | number) => dayIn(report.timeZone, new Date(time));
  const asked = <T>(wanted: readonly T[] | undefined, value: T) => !wanted || wanted.includes(value);
  const selected = index.controls
    .flatMap(({ result }) => (result.expiring ?? []).map((item) => ({ ...item, result, day: dayOf(item.staleAt) })))
    .filter((item) => asked(kinds, item.kind) && asked(subjects, item.subject))
    .filter(({ result }) => asked(controlIds, result.id) && asked(statuses, result.status));
  const bySoonest = (a: { staleAt: string }, b: { staleAt: string }) => (a.staleAt < b.staleAt ? -1 : 1);
  const within = selected.filter(({ day }) => (!until || day <= until) && (!from || day >= from)).sort(bySoonest);
  const span = until ? `${from ? ` between ${from} and ${until}` : ` by ${until}`}${phrase ? ` (${phrase})` : ''}` : '';
  // The report lists what goes stale within its horizon only; a later day is answered up to it, and says so.
  const horizonEnd = dayOf(Date.parse(report.asOf) + expiringHorizonDays * 86_400_000);
  const aside =
    'Daily collector snapshots, which their next collection renews, are not counted.' +
    (!until || until > horizonEnd ? ` The report looks ${expiringHorizonDays} days ahead, to ${horizonEnd}.` : '');
  if (within.length === 0) {
    const next = selected.sort(bySoonest)[0];
    // Controls asked about by name are cited with where they stand: one already stale has nothing left to go stale.
    const named = controlIds ? resultsOf(index, controlIds) : [];
    const of = named.length > 0 ? ` of ${named.map(({ id }) => id).join(', ')}` : '';
    const none = `No evidence${of} goes stale${span} in the report for ${report.date}. ${aside}`;
    const nextLine = next ? ['', `The next to go stale is the ${evidenceOf(next)}, on ${next.day}.`] : [];
    const standing = named.map((result) =>
      controlLine(result, result.status === 'stale' ? ': its evidence is already stale, so nothing of it goes stale ahead' : ''),
    );
    return answered([none, ...nextLine, ...section(standing)], named);
  }
  // An evidence item may count for several controls: one line for it, naming them all.
  const byItem = [...Map.groupBy(within, (item) => item.evidenceId).values()];
  const lines = byItem.slice(0, shownItems).map((items) => {
    const controls = items.map(({ result }) => `**${result.id}**`).join(', ');
    return `- The ${evidenceOf(items[0]!)} goes stale on **${items[0]!.day}** (for ${controls})`;
  });
  const cited = new Map(byItem.slice(0, shownItems).flatMap((items) => items.map(({ result }) => [result.id, result] as const)));
  const lead = `${counted(byItem.length, 'evidence item', 'goes', 'go')} stale${span} unless renewed. ${aside}`;
  return answered([lead, '', ...lines, ...more(byItem.length - shownItems)], [...cited.values()].sort(byId));
}
