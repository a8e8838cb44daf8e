/**
 * Questions about one subject of the evidence ("what does priya.patel fail?", "what's wrong with
 * acme/billing-service?", "is ACME-XPS-004 ok?"): the subjects come from the report itself — each
 * finding's subject, the people its messages name by email, and the subjects of the evidence going
 * stale — under the names people use for them (a repository without its owner, a bucket without
 * its provider prefix, a person's address without the domain, or their first and last name).
 */
import type { ControlResult, Finding } from '../../assessment/model.js';
import { plural } from '@evident/contract';
import { controlName, escapeMarkdown, type ComposedAnswer } from '../compose.js';
import type { ReportIndex } from '../report-index.js';
import { statusLabel } from '../retrieve.js';
import { rankByRisk } from '../topics.js';
import { escapeRegExp, stem, stopWords } from '../vocabulary.js';
import type { CheckMatch, Query } from './query-model.js';
import { checkOf, checksMeeting } from './check-queries.js';
import { answered } from './report-queries.js';

type SubjectQuery = Extract<Query, { kind: 'subject' }>;

/** What a finding or an item going stale can be found by: its subject, and the addresses its message names. */
interface Named {
  /** Lower-cased strings that identify the subject in a finding's subject or message. */
  keys: Set<string>;
  /** How the answer names it. */
  display: string;
}

/**
 * An address starts where a run of the characters an address may hold starts: tried inside a run
 * too, the expression rescans the rest of it from every character, quadratic in a finding message
 * of 64,000 letters and no `@` (an address can only end the run it starts in, so it finds the same).
 */
const emailPattern = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** The names a subject goes by, longest meaning first. */
function aliasesOf(subject: string): string[] {
  const lower = subject.toLowerCase();
  const user = /^([a-z0-9._%+-]+)@/.exec(lower)?.[1];
  const last = lower.split('/').at(-1)!;
  const aliases = [
    lower,
    ...(user ? [user, ...(user.includes('.') ? [user.replaceAll('.', ' ')] : [])] : last !== lower ? [last] : []),
  ];
  const spaced = aliases.filter((alias) => alias.includes('-')).map((alias) => alias.replaceAll('-', ' '));
  // A one-word alias must look like a name, not a word a question uses for something else.
  return [...aliases, ...spaced].filter(
    (alias) => alias.length >= 4 && !stopWords.has(alias) && (/[^a-z]/.test(alias) || alias === lower),
  );
}

/** Per report: each name a question may use for a subject, and one expression that finds them all in a question. */
const names = new WeakMap<ReportIndex, { byAlias: Map<string, Named>; finder: RegExp | undefined }>();

/** Every name a question may use for a subject of this report, to the subject it names. */
function subjectNames(index: ReportIndex): { byAlias: Map<string, Named>; finder: RegExp | undefined } {
  const known = names.get(index);
  if (known) return known;
  const byAlias = new Map<string, Named>();
  const add = (subject: string) => {
    for (const alias of aliasesOf(subject)) {
      const named = byAlias.get(alias) ?? { keys: new Set<string>(), display: subject };
      named.keys.add(subject.toLowerCase());
      byAlias.set(alias, named);
    }
  };
  for (const { result } of index.controls) {
    for (const finding of result.findings)
      for (const subject of [finding.subject ?? [], finding.message.match(emailPattern) ?? []].flat()) add(subject);
    for (const item of result.expiring ?? []) add(item.subject);
  }
  // A person's first name alone ("is lucas' laptop ok"), when only one person of the report has it.
  const firstNames = new Map<string, Named[]>();
  for (const [alias, named] of byAlias) {
    const first = /^([a-z]{4,})\.[a-z]+$/.exec(alias)?.[1];
    if (first && !stopWords.has(first)) firstNames.set(first, [...(firstNames.get(first) ?? []), named]);
  }
  for (const [first, people] of firstNames)
    if (new Set(people.map((person) => person.display)).size === 1 && !byAlias.has(first)) byAlias.set(first, people[0]!);
  // Built once per report: a look-ahead at every position finds each alias there, longest first.
  const alternatives = [...byAlias.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const finder =
    alternatives.length === 0 ? undefined : new RegExp(`(?<![\\w@./-])(?=(${alternatives.join('|')})(?![\\w@-]|[./][\\w]))`, 'g');
  names.set(index, { byAlias, finder });
  return { byAlias, finder };
}

/** The subject a question names (the longest name that fits), if any, and the checks the rest of it speaks of. */
export function subjectQuery(text: string, index: ReportIndex): SubjectQuery | undefined {
  const { byAlias, finder } = subjectNames(index);
  const alias = [...text.matchAll(finder ?? /$^/g)]
    .map((match) => match[1]!)
    .reduce<string | undefined>((longest, found) => (longest && longest.length >= found.length ? longest : found), undefined);
  if (!alias) return undefined;
  const named = byAlias.get(alias)!;
  const checks = checksMeeting(text.replace(alias, ' '), index);
  return { kind: 'subject', name: named.display, keys: [...named.keys], ...(checks.length > 0 ? { checks } : {}) };
}

/**
 * An email address, or a first.last handle, the question names that no finding or item of the
 * report does: a person the report knows nothing of.
 */
export function unknownSubject(text: string, index: ReportIndex): string | undefined {
  const known = subjectNames(index).byAlias;
  const email = (text.match(emailPattern) ?? []).find((address) => !known.has(address.toLowerCase()));
  if (email) return email;
  const handles = text.match(/(?<![\w@./-])[a-z]{2,}\.[a-z]{2,}(?![\w@-]|\.[a-z])/g) ?? [];
  return handles.find(
    (handle) => !known.has(handle) && !domainEnd.test(handle) && !index.vocabulary.has(stem(handle.split('.')[0]!)),
  );
}

const domainEnd = /\.(com|org|net|io|dev|app|co|example|internal|local|cloud|ai|md|json|txt|csv|pdf|yaml|yml)$/;

const mentions = (finding: Finding, keys: readonly string[]) =>
  keys.some((key) => finding.subject?.toLowerCase() === key || finding.message.toLowerCase().includes(key));

const open = new Set<Finding['outcome']>(['fail', 'stale', 'missing', 'error']);

/** A control's line in a subject's answer: its name, status and what follows. */
const subjectLine = (result: ControlResult, rest: string) =>
  `- ${controlName(result)} \u2014 ${statusLabel[result.status]}${rest}`;

/** The questions to ask next about the riskiest control an answer names that needs attention. */
function nextQuestions(results: readonly ControlResult[], any = false): string[] {
  const first = rankByRisk(results).find((result) => any || (result.status !== 'passing' && result.status !== 'not_applicable'));
  return first ? [`Why is ${first.id} ${statusLabel[first.status]}?`, `How do we fix ${first.id}?`] : [];
}

export function answerSubject(query: SubjectQuery, index: ReportIndex): ComposedAnswer {
  // What the checks asked about say of it, when any of their findings name it; else everything that does.
  // A check met strongly ("enrolled a second factor") is answered for the subject even when only a count of passes names it.
  const onChecks = query.checks?.some((match) => (match.score ?? 0) >= 4 || namedOn(index, match, query.keys));
  if (query.checks && onChecks) return subjectOnChecks(query, query.checks, index);
  const named = index.controls.flatMap(({ result }) =>
    result.findings.filter((finding) => mentions(finding, query.keys)).map((finding) => ({ result, finding })),
  );
  const openOnes = named.filter(({ finding }) => open.has(finding.outcome));
  const cited = [...new Set(openOnes.map(({ result }) => result))];
  const name = escapeMarkdown(query.name);
  if (cited.length > 0) {
    const lines = cited.flatMap((result) => [
      subjectLine(result, `, ${result.severity}`),
      ...openOnes.filter((entry) => entry.result === result).map(({ finding }) => `  - ${escapeMarkdown(finding.message)}`),
    ]);
    const lead = `In the report for ${index.report.date}, ${plural(openOnes.length, 'open finding')} ${openOnes.length === 1 ? 'names' : 'name'} ${name}:`;
    return answered([lead, '', ...lines], cited, nextQuestions(cited, true));
  }
  const lead = `No failing, stale or missing finding names ${name} in the report for ${index.report.date}.`;
  // Nothing open: what the findings that name it say (a pass, a muted scanner finding), or which controls its evidence counts for.
  if (named.length > 0) {
    const lines = named.map(({ result, finding }) => {
      const outcome = finding.outcome === 'info' ? 'shown, decides nothing' : finding.outcome.replace('_', ' ');
      return subjectLine(result, ` (${outcome}): ${escapeMarkdown(finding.message)}`);
    });
    return answered([`${lead} The findings that name it:`, '', ...lines], [...new Set(named.map(({ result }) => result))]);
  }
  const supports = index.controls
    .map((entry) => entry.result)
    .filter((result) => (result.expiring ?? []).some((item) => query.keys.includes(item.subject.toLowerCase())));
  if (supports.length === 0) return answered([lead], []);
  return answered([`${lead} Its evidence counts for:`, '', ...supports.map((result) => subjectLine(result, ''))], supports);
}

/** Whether any finding of a matched check (or of its evidence kind) names the subject. */
function namedOn(index: ReportIndex, match: CheckMatch, keys: readonly string[]): boolean {
  const check = checkOf(index, match);
  return (index.byId.get(match.controlId)?.result.findings ?? []).some(
    (finding) => check !== undefined && (finding.check === check.id || finding.kind === check.kind) && mentions(finding, keys),
  );
}

/** "Has ravi.sharma enrolled a second factor?": what the checks asked about say of the subject, or how many they pass. */
function subjectOnChecks(query: SubjectQuery, checks: readonly CheckMatch[], index: ReportIndex): ComposedAnswer {
  const name = escapeMarkdown(query.name);
  const lines: string[] = [];
  const cited = new Set<ControlResult>();
  for (const match of checks) {
    const result = index.byId.get(match.controlId)?.result;
    const check = checkOf(index, match);
    if (!result || !check) continue;
    cited.add(result);
    const of = result.findings.filter((finding) => finding.check === check.id || finding.kind === check.kind);
    const naming = of.filter((finding) => mentions(finding, query.keys)).map((finding) => escapeMarkdown(finding.message));
    const passing = of.find((finding) => finding.outcome === 'pass' && finding.check === check.id && !finding.subject);
    const none = `no failing, stale or missing finding names ${name}${passing ? ` (${escapeMarkdown(passing.message)})` : ''}.`;
    const state = naming.length > 0 ? naming.join(' ') : none;
    lines.push(`- ${controlName(result)}, check ${escapeMarkdown(check.id)} \u2014 ${statusLabel[result.status]}: ${state}`);
  }
  return answered(
    [`What the report for ${index.report.date} says of ${name}:`, '', ...lines],
    [...cited],
    nextQuestions([...cited]),
  );
}
