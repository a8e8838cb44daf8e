/**
 * The assessment itself: a pure function of the catalog, the evidence and a clock.
 *
 * For each control it takes the newest item per subject of every evidence kind it needs (as of
 * the report's cut-off), sets aside items older than the kind's freshness window or expired,
 * runs the control's checks on the rest, and decides one status:
 *
 *   not_applicable  a current attestation for the control says it does not apply
 *   failing         a check fails (or cannot be evaluated) on fresh evidence — a known problem
 *                   outranks an unknown one
 *   missing         a kind of evidence it needs has never been received
 *   stale           a kind it needs has no fresh evidence left (individual stale subjects are
 *                   findings, and are left out of the checks)
 *   passing         otherwise
 *
 * Nothing here reads storage or the wall clock, so the same inputs always give the same report.
 */
import { expiringHorizonDays, isSubjectKind, maxExpiringPerControl, plural } from '@evident/contract';
import { compileCheck, compileFilter, outcomeOf, type CompiledCheck, type Program } from './checks.js';
import { renderMessage } from './message-template.js';
import { followUpOf } from './due-dates.js';
import { applyExceptions, type ActiveException } from './exceptions.js';
import { readinessOf, readinessShares } from './readiness.js';
import { defaultScope } from '../settings/settings-model.js';
import { diffReports, summaryOf } from './report-summary.js';
import {
  controlsOfFinding,
  findingKey,
  isTextCarrier,
  judgeFindings,
  scannerRoutes,
  type ScannerRoutes,
} from './scanner-findings.js';
import { populationsByKind, populationUsed, reconciliationFinding, runFindings, staysInPopulation } from './populations.js';
import { setAsideFindings } from './set-aside.js';
import { reviewedEvidence, type AwaitingReview, type SubmissionReviews } from './submission-review.js';
import {
  type Catalog,
  type Control,
  type ControlPopulation,
  type ControlResult,
  type ControlStatus,
  type EvidenceItem,
  type ExpiringItem,
  type Finding,
  type PopulationUsed,
  type Reconciliation,
  type Report,
  type SetAsideEvidence,
  type SourcePopulation,
  type SubjectOutcome,
} from './model.js';

const dayMs = 24 * 60 * 60 * 1000;
/** Beyond this many failing subjects per check, the rest are summarised in one finding. */
const maxFailFindings = 50;

export interface CompiledCatalog {
  catalog: Catalog;
  checks: Map<string, CompiledCheck[]>;
  scanner: ScannerRoutes;
  /** Each control's reconciliations with their sides' `where` filters planned. */
  reconciliations: Map<string, CompiledReconciliation[]>;
}

interface CompiledReconciliation {
  reconciliation: Reconciliation;
  population?: Program;
  coveredBy?: Program;
}

/** Plans every CEL expression of the catalog once, for a run that evaluates many controls. */
export function compileCatalog(catalog: Catalog): CompiledCatalog {
  return {
    catalog,
    checks: new Map(catalog.controls.map((control) => [control.id, control.checks.map(compileCheck)])),
    scanner: scannerRoutes(catalog),
    reconciliations: new Map(
      catalog.controls.map((control) => [control.id, (control.reconciliations ?? []).map(compileReconciliation)]),
    ),
  };
}

function compileReconciliation(reconciliation: Reconciliation): CompiledReconciliation {
  const { population, coveredBy } = reconciliation;
  return {
    reconciliation,
    ...(population.where !== undefined ? { population: compileFilter(population.where) } : {}),
    ...(coveredBy.where !== undefined ? { coveredBy: compileFilter(coveredBy.where) } : {}),
  };
}

export interface EvaluationInput {
  date: string;
  timeZone: string;
  /** Evidence collected at or after this instant is not considered; ages are measured to it. */
  asOf: Date;
  generatedAt: Date;
  runId: string;
  evidence: readonly EvidenceItem[];
  /** The latest report before `date`, for the diff; null for the first. */
  previous: Pick<Report, 'date' | 'controls'> | null;
  /** The exceptions in force on `date` (exceptions.ts); none by default. */
  exceptions?: readonly ActiveException[];
  /** Evidence the state left out to keep to its budget (evidence-state.ts); the controls that read it fail. */
  setAside?: SetAsideEvidence;
  /** What collection runs say of each (source, kind) as of `asOf` (populations.ts); none by default. */
  populations?: readonly SourcePopulation[];
  /**
   * Given only when submissions need review (`SUBMISSION_REVIEW=required`): the reviews recorded,
   * by submission id; a submission's attestation counts once accepted (submission-review.ts).
   */
  submissionReviews?: SubmissionReviews;
}

/** What a report assembled from results needs besides them: the input less the evidence, and what awaits review. */
export type AssemblyInput = Omit<EvaluationInput, 'evidence' | 'setAside' | 'submissionReviews'> & {
  awaitingReview?: AwaitingReview;
};

/** The submissions awaiting review as of the input's cut-off; undefined when review is not required. */
export function awaitingReviewOf(
  input: Pick<EvaluationInput, 'asOf' | 'evidence' | 'submissionReviews'>,
): AwaitingReview | undefined {
  return input.submissionReviews && reviewedEvidence(input.evidence, input.submissionReviews, input.asOf).awaitingReview;
}

export interface Indexed {
  item: EvidenceItem;
  collected: number;
  /** When the evidence speaks for: its `effectiveDate`, else when it was collected. */
  effective: number;
  expires: number;
}

/**
 * The newest item per subject of each kind, of attestations per control they name, and of
 * scanner findings per control they count for (by check and resource).
 */
export interface EvidenceIndex {
  byKind: Map<string, Map<string, Indexed>>;
  attestationsByControl: Map<string, Map<string, Indexed>>;
  findingsByControl: Map<string, Map<string, Indexed>>;
  /** Scanner findings that carry the texts of their finding's other resources, by id. */
  textCarriers: Map<string, EvidenceItem>;
  setAside?: SetAsideEvidence;
  /** Each subject kind's collection-run populations, by source. */
  populations: Map<string, SourcePopulation[]>;
}

function isNewer(candidate: Indexed, current: Indexed | undefined): boolean {
  if (!current) return true;
  if (candidate.collected !== current.collected) return candidate.collected > current.collected;
  return candidate.item.id > current.item.id;
}

function keep(map: Map<string, Indexed>, key: string, entry: Indexed): void {
  if (isNewer(entry, map.get(key))) map.set(key, entry);
}

function keepFor(byControl: Map<string, Map<string, Indexed>>, control: string, key: string, entry: Indexed): void {
  let entries = byControl.get(control);
  if (!entries) byControl.set(control, (entries = new Map()));
  keep(entries, key, entry);
}

export function indexEvidence(
  evidence: readonly EvidenceItem[],
  asOf: Date,
  routes?: ScannerRoutes,
  setAside?: SetAsideEvidence,
  sourcePopulations: readonly SourcePopulation[] = [],
): EvidenceIndex {
  const cutoff = asOf.getTime();
  const byKind = new Map<string, Map<string, Indexed>>();
  const attestationsByControl = new Map<string, Map<string, Indexed>>();
  const findingsByControl = new Map<string, Map<string, Indexed>>();
  const textCarriers = new Map<string, EvidenceItem>();
  for (const item of evidence) {
    const collected = Date.parse(item.collectedAt);
    if (!(collected < cutoff)) continue;
    const entry: Indexed = {
      item,
      collected,
      effective: item.effectiveDate ? Math.min(Date.parse(item.effectiveDate), collected) : collected,
      expires: item.expiresAt ? Date.parse(item.expiresAt) : Infinity,
    };
    if (item.kind === 'attestation') {
      for (const control of item.controls ?? []) keepFor(attestationsByControl, control, item.subject, entry);
    } else if (item.kind === 'scanner.finding') {
      if (isTextCarrier(item)) textCarriers.set(item.id, item);
      if (!routes) continue;
      for (const control of controlsOfFinding(routes, item)) keepFor(findingsByControl, control, findingKey(item), entry);
    } else {
      let subjects = byKind.get(item.kind);
      if (!subjects) byKind.set(item.kind, (subjects = new Map()));
      keep(subjects, item.subject, entry);
    }
  }
  const populations = populationsByKind(sourcePopulations);
  // After the newest item of each subject is known: only that item decides whether its subject has left.
  for (const [kind, sources] of populations) {
    const subjects = byKind.get(kind);
    for (const [subject, entry] of subjects ?? []) {
      if (!staysInPopulation(entry.item, entry.collected, sources)) subjects!.delete(subject);
    }
  }
  return { byKind, attestationsByControl, findingsByControl, textCarriers, populations, ...(setAside ? { setAside } : {}) };
}

/** The newest entry of each subject a control reads for one kind of evidence it requires, in subject order. */
export function entriesOf(control: Control, kind: string, index: EvidenceIndex): Indexed[] {
  const entries =
    kind === 'attestation'
      ? [...(index.attestationsByControl.get(control.id)?.values() ?? [])]
      : kind === 'scanner.finding'
        ? [...(index.findingsByControl.get(control.id)?.values() ?? [])]
        : [...(index.byKind.get(kind)?.values() ?? [])];
  return entries.sort(bySubject);
}

const bySubject = (a: Indexed, b: Indexed) => (a.item.subject < b.item.subject ? -1 : a.item.subject > b.item.subject ? 1 : 0);

/** The parts of a catalog one control's evaluation uses. */
interface ControlPlan {
  control: Control;
  checks: CompiledCheck[];
  reconciliations: CompiledReconciliation[];
}

/** Per subject of a kind, what the control's checks made of it: kept only when a caller asked for populations. */
type Tally = Map<string, SubjectOutcome>;

function evaluateControl(
  { control, checks, reconciliations }: ControlPlan,
  index: EvidenceIndex,
  asOf: number,
  onPopulation?: (population: ControlPopulation) => void,
): ControlResult {
  // Evidence left out for the budget fails the control before anything else is looked at: what was left proves nothing.
  const findings: Finding[] = index.setAside ? setAsideFindings(control, index.setAside) : [];
  const considered = new Set<string>();
  // In subject order, like every list of entries below, so the report never depends on the order items were read in.
  const attestations = [...(index.attestationsByControl.get(control.id)?.values() ?? [])]
    .filter((entry) => entry.expires > asOf)
    .sort(bySubject);
  const scopedOut = attestations.filter((entry) => entry.item.data['notApplicable'] === true);
  let expiring: ExpiringItem[] = [];
  let populations: PopulationUsed[] = [];
  const result = (status: ControlStatus): ControlResult => ({
    id: control.id,
    title: control.title,
    family: control.family,
    severity: control.severity,
    status,
    findings,
    evidence: [...considered].sort(),
    ...(populations.length > 0 ? { populations } : {}),
    ...(expiring.length > 0 ? { expiring } : {}),
  });

  if (scopedOut.length > 0 && findings.length === 0) {
    for (const entry of scopedOut) {
      considered.add(entry.item.id);
      findings.push({
        outcome: 'not_applicable',
        kind: 'attestation',
        subject: entry.item.subject,
        message: `Scoped out: ${String(entry.item.data['statement'] ?? '')}`,
        evidence: [entry.item.id],
      });
    }
    return result('not_applicable');
  }

  let failing = findings.length > 0;
  const { missing, stale, freshByKind } = assessRequirements(control, index, asOf, findings, considered);
  expiring = expiringOf(control, freshByKind, asOf);
  // Whether the population is whole comes before what the checks found in it.
  if (completenessFindings({ control, reconciliations }, index, asOf, findings, considered)) failing = true;

  const tallies = onPopulation ? talliesOf(freshByKind) : undefined;
  for (const compiled of checks) {
    const fresh = freshByKind.get(compiled.check.kind);
    if (!fresh || fresh.length === 0) continue; // already missing or stale
    const outcomes = runCheck(compiled, fresh, tallies?.get(compiled.check.kind));
    if (outcomes.some((finding) => finding.outcome === 'fail' || finding.outcome === 'error')) failing = true;
    findings.push(...outcomes);
  }
  populations = populationsOf(control, freshByKind, index);
  if (onPopulation) for (const used of populations) onPopulation(withOutcomes(control, used, tallies!.get(used.kind)));
  const scanned = freshByKind.get('scanner.finding') ?? freshFindings(control, index, asOf, findings, considered);
  if (scanned.length > 0) {
    const judged = judgeFindings(
      scanned.map((entry) => entry.item),
      index.textCarriers,
    );
    if (judged.failing) failing = true;
    // A finding may cite the item that carries its texts beside its own: the result rests on both.
    for (const finding of judged.findings) for (const id of finding.evidence) considered.add(id);
    findings.push(...judged.findings);
  }
  if (failing) return result('failing');
  if (missing) return result('missing');
  if (stale) return result('stale');
  return result('passing');
}

/**
 * The findings that say the control's population is not whole: its sources' runs for each kind
 * it requires, then its reconciliations. Whether any was found.
 */
function completenessFindings(
  { control, reconciliations }: Pick<ControlPlan, 'control' | 'reconciliations'>,
  index: EvidenceIndex,
  asOf: number,
  findings: Finding[],
  considered: Set<string>,
): boolean {
  const before = findings.length;
  for (const requirement of control.evidence) {
    findings.push(...runFindings(control, requirement, index.populations.get(requirement.kind) ?? [], asOf));
  }
  for (const planned of reconciliations) {
    // Judged once the covering kind has evidence: before, the control misses it, which says more.
    if (!index.byKind.get(planned.reconciliation.coveredBy.kind)?.size) continue;
    const finding = reconciliationFinding(control, planned.reconciliation, reconciledItems(planned, index, asOf));
    if (!finding) continue;
    for (const id of finding.evidence) considered.add(id);
    findings.push(finding);
  }
  return findings.length > before;
}

/**
 * A population with each subject's outcome, in subject order (the tally's, made from the fresh
 * entries in subject order); none for a kind with no fresh subject.
 */
function withOutcomes(control: Control, used: PopulationUsed, tally: Tally | undefined): ControlPopulation {
  const subjects = [...(tally?.values() ?? [])];
  return { controlId: control.id, kind: used.kind, count: used.count, sha256: used.sha256, subjects };
}

/** For each kind of subjects the control requires, in kind order: the fresh subjects its checks ran on, and the runs behind them. */
function populationsOf(control: Control, freshByKind: ReadonlyMap<string, Indexed[]>, index: EvidenceIndex): PopulationUsed[] {
  const kinds = [...new Set(control.evidence.map((requirement) => requirement.kind))].filter(isSubjectKind).sort();
  return kinds.flatMap((kind) => {
    const fresh = freshByKind.get(kind) ?? [];
    const sources = index.populations.get(kind) ?? [];
    if (fresh.length === 0 && !sources.some((source) => source.complete)) return [];
    return [
      populationUsed(
        kind,
        fresh.map((entry) => entry.item.subject),
        sources,
      ),
    ];
  });
}

/** Each side of a reconciliation: the current items of its kind, fresh for its window, that its `where` admits. */
function reconciledItems(planned: CompiledReconciliation, index: EvidenceIndex, asOf: number) {
  const { reconciliation } = planned;
  const side = (kind: string, admits: Program | undefined) =>
    [...(index.byKind.get(kind)?.values() ?? [])]
      .filter((entry) => entry.expires > asOf && asOf - entry.effective <= reconciliation.freshnessDays * dayMs)
      .filter((entry) => !admits || admits({ item: entry.item, data: entry.item.data }) === true)
      .map((entry) => entry.item);
  return {
    population: side(reconciliation.population.kind, planned.population),
    coveredBy: side(reconciliation.coveredBy.kind, planned.coveredBy),
  };
}

/** A tally per kind of subjects, each fresh subject out of scope until a check applies to it. */
function talliesOf(freshByKind: ReadonlyMap<string, Indexed[]>): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const [kind, fresh] of freshByKind) {
    if (!isSubjectKind(kind)) continue;
    tallies.set(kind, new Map(fresh.map((entry) => [entry.item.subject, outOfScope(entry)])));
  }
  return tallies;
}

const outOfScope = (entry: Indexed): SubjectOutcome => ({
  subject: entry.item.subject,
  outcome: 'out_of_scope',
  evidenceId: entry.item.id,
});

const outcomeRank: Record<SubjectOutcome['outcome'], number> = { out_of_scope: 0, pass: 1, error: 2, fail: 3 };

/** Records a check's outcome for a subject; the worst over the checks stands. */
function mark(tally: Tally | undefined, entry: Indexed, outcome: 'pass' | 'fail' | 'error'): void {
  const current = tally?.get(entry.item.subject);
  if (current && outcomeRank[outcome] > outcomeRank[current.outcome]) current.outcome = outcome;
}

/** The instant an entry stops counting for a requirement: when its age passes the window, or when it expires. */
export const staleAtOf = (entry: Indexed, freshnessDays: number) =>
  Math.min(entry.expires, entry.effective + freshnessDays * dayMs + 1);

/**
 * The fresh evidence a control relies on that will go stale within the horizon, soonest first.
 * An item renewed in the last day whose window (not an expiry) ends it is a collector's daily
 * snapshot: its next collection renews it, so it is left out.
 */
function expiringOf(control: Control, freshByKind: ReadonlyMap<string, Indexed[]>, asOf: number): ExpiringItem[] {
  const horizon = asOf + expiringHorizonDays * dayMs;
  const found: { staleAt: number; item: ExpiringItem }[] = [];
  for (const requirement of control.evidence) {
    for (const entry of freshByKind.get(requirement.kind) ?? []) {
      const staleAt = staleAtOf(entry, requirement.freshnessDays);
      const snapshot = asOf - entry.effective < dayMs && staleAt < entry.expires;
      if (snapshot || staleAt > horizon) continue;
      const { kind, subject, id: evidenceId } = entry.item;
      found.push({ staleAt, item: { kind, subject, evidenceId, staleAt: new Date(staleAt).toISOString() } });
    }
  }
  found.sort((a, b) => a.staleAt - b.staleAt || (a.item.subject < b.item.subject ? -1 : a.item.subject > b.item.subject ? 1 : 0));
  return found.slice(0, maxExpiringPerControl).map(({ item }) => item);
}

/**
 * The evidence each requirement of a control has: `missing` and `stale` findings for what is
 * absent or old, and the fresh entries of each kind for the checks.
 */
function assessRequirements(
  control: Control,
  index: EvidenceIndex,
  asOf: number,
  findings: Finding[],
  considered: Set<string>,
): { missing: boolean; stale: boolean; freshByKind: Map<string, Indexed[]> } {
  let missing = false;
  let stale = false;
  const freshByKind = new Map<string, Indexed[]>();
  for (const requirement of control.evidence) {
    const entries = entriesOf(control, requirement.kind, index);
    if (entries.length === 0) {
      missing = true;
      findings.push({
        outcome: 'missing',
        kind: requirement.kind,
        message:
          requirement.kind === 'attestation'
            ? `No attestation names ${control.id}; submit one to evidence it.`
            : `No ${requirement.kind} evidence has been received.`,
        evidence: [],
      });
      continue;
    }
    const window = requirement.freshnessDays * dayMs;
    const fresh: Indexed[] = [];
    for (const entry of entries) {
      considered.add(entry.item.id);
      if (entry.expires <= asOf) {
        findings.push({
          outcome: 'stale',
          kind: requirement.kind,
          subject: entry.item.subject,
          message: `The ${requirement.kind} evidence for ${entry.item.subject} expired at ${entry.item.expiresAt}.`,
          evidence: [entry.item.id],
        });
      } else if (asOf - entry.effective > window) {
        const age = Math.floor((asOf - entry.effective) / dayMs);
        findings.push({
          outcome: 'stale',
          kind: requirement.kind,
          subject: entry.item.subject,
          message:
            `The newest ${requirement.kind} evidence for ${entry.item.subject} is ${plural(age, 'day')} old; ` +
            `${control.id} needs it within ${plural(requirement.freshnessDays, 'day')}.`,
          evidence: [entry.item.id],
        });
      } else {
        fresh.push(entry);
      }
    }
    if (fresh.length === 0) stale = true;
    freshByKind.set(requirement.kind, fresh);
  }
  return { missing, stale, freshByKind };
}

/**
 * For a control that does not require scanner evidence: the findings that count for it and are
 * fresh. Stale ones are listed, and set aside without making the control stale: scanner
 * evidence is extra evidence there, and an old scan must not stand in for a current one.
 */
function freshFindings(
  control: Control,
  index: EvidenceIndex,
  asOf: number,
  findings: Finding[],
  considered: Set<string>,
): Indexed[] {
  const entries = [...(index.findingsByControl.get(control.id)?.values() ?? [])].sort(bySubject);
  const window = control.scanner.freshnessDays * dayMs;
  const fresh: Indexed[] = [];
  for (const entry of entries) {
    considered.add(entry.item.id);
    if (entry.expires > asOf && asOf - entry.effective <= window) {
      fresh.push(entry);
      continue;
    }
    const age = Math.floor((asOf - entry.effective) / dayMs);
    findings.push({
      outcome: 'stale',
      kind: 'scanner.finding',
      check: String(entry.item.data['check']),
      subject: entry.item.subject,
      message:
        `The newest ${String(entry.item.data['check'])} finding for ${entry.item.subject} is ${plural(age, 'day')} old; ` +
        `${control.id} counts scanner findings for ${plural(control.scanner.freshnessDays, 'day')}.`,
      evidence: [entry.item.id],
    });
  }
  return fresh;
}

function runCheck(compiled: CompiledCheck, fresh: Indexed[], tally?: Tally): Finding[] {
  return compiled.check.mode === 'all' ? checkAllTogether(compiled, fresh, tally) : checkEachSubject(compiled, fresh, tally);
}

/** A check of mode `all`: one finding, of the fresh items together. */
function checkAllTogether({ check, test }: CompiledCheck, fresh: Indexed[], tally?: Tally): Finding[] {
  const base = { check: check.id, kind: check.kind };
  const items = fresh.map((entry) => entry.item);
  const outcome = outcomeOf(test({ items }));
  // A check of them all together is each subject's outcome too.
  for (const entry of fresh) mark(tally, entry, outcome.outcome);
  const evidence = items.map((item) => item.id);
  const message = renderMessage(outcome.outcome === 'pass' ? check.pass : check.fail, { count: items.length });
  return [
    outcome.outcome === 'error'
      ? { ...base, outcome: 'error', message: `The check could not be evaluated: ${outcome.message}.`, evidence }
      : { ...base, outcome: outcome.outcome, message, evidence },
  ];
}

/** A check of each subject in its scope: a finding for each that fails (the first few, then a count), the passes summed. */
function checkEachSubject({ check, test, where }: CompiledCheck, fresh: Indexed[], tally?: Tally): Finding[] {
  const base = { check: check.id, kind: check.kind };
  const findings: Finding[] = [];
  const passed: Indexed[] = [];
  let failures = 0;
  for (const entry of fresh) {
    const bindings = { item: entry.item, data: entry.item.data };
    if (where) {
      const applies = outcomeOf(where(bindings));
      if (applies.outcome === 'fail') continue;
      if (applies.outcome === 'error') {
        mark(tally, entry, 'error');
        failures++;
        if (failures > maxFailFindings) continue;
        findings.push({
          ...base,
          outcome: 'error',
          subject: entry.item.subject,
          message: `The check's scope could not be evaluated for ${entry.item.subject}: ${applies.message}.`,
          evidence: [entry.item.id],
        });
        continue;
      }
    }
    const outcome = outcomeOf(test(bindings));
    mark(tally, entry, outcome.outcome);
    if (outcome.outcome === 'pass') {
      passed.push(entry);
      continue;
    }
    failures++;
    if (failures > maxFailFindings) continue;
    findings.push({
      ...base,
      outcome: outcome.outcome,
      subject: entry.item.subject,
      message:
        outcome.outcome === 'error'
          ? `The check could not be evaluated for ${entry.item.subject}: ${outcome.message}.`
          : renderMessage(check.fail, { subject: entry.item.subject, data: entry.item.data }),
      evidence: [entry.item.id],
    });
  }
  if (failures > maxFailFindings) {
    findings.push({
      ...base,
      outcome: 'fail',
      message: `${plural(failures - maxFailFindings, 'more subject fails', 'more subjects fail')} this check; the first ${maxFailFindings} are listed.`,
      evidence: [],
    });
  }
  return withPasses(check, passed, findings);
}

/**
 * The passes of a check of each subject, put before its other findings: the subject when one
 * passed, a count when several did; with no finding at all, that nothing was in scope.
 */
function withPasses(check: CompiledCheck['check'], passed: Indexed[], findings: Finding[]): Finding[] {
  const base = { check: check.id, kind: check.kind };
  if (passed.length === 1) {
    const entry = passed[0]!;
    findings.unshift({
      ...base,
      outcome: 'pass',
      subject: entry.item.subject,
      message: renderMessage(check.pass, { subject: entry.item.subject, data: entry.item.data }),
      evidence: [entry.item.id],
    });
  } else if (passed.length > 1) {
    findings.unshift({
      ...base,
      outcome: 'pass',
      message: `${plural(passed.length, 'subject')} pass ${check.id}.`,
      evidence: passed.map((entry) => entry.item.id),
    });
  } else if (findings.length === 0) {
    findings.push({ ...base, outcome: 'pass', message: `No ${check.kind} evidence is in scope of ${check.id}.`, evidence: [] });
  }
  return findings;
}

/**
 * The controls' results one at a time, in control-id order, so an analysis run can report each
 * as it goes. `only` limits the run to some controls; the order is the same either way.
 */
export function* evaluateEach(
  compiled: CompiledCatalog,
  input: Pick<EvaluationInput, 'asOf' | 'evidence' | 'setAside' | 'populations' | 'submissionReviews'>,
  only?: ReadonlySet<string>,
  onPopulation?: (population: ControlPopulation) => void,
): Generator<ControlResult> {
  const evidence = input.submissionReviews
    ? reviewedEvidence(input.evidence, input.submissionReviews, input.asOf).counted
    : input.evidence;
  const index = indexEvidence(evidence, input.asOf, compiled.scanner, input.setAside, input.populations);
  const asOf = input.asOf.getTime();
  for (const control of controlsInOrder(compiled.catalog, only)) {
    const plan = {
      control,
      checks: compiled.checks.get(control.id) ?? [],
      reconciliations: compiled.reconciliations.get(control.id) ?? [],
    };
    yield evaluateControl(plan, index, asOf, onPopulation);
  }
}

export function controlsInOrder(catalog: Catalog, only?: ReadonlySet<string>): Control[] {
  return catalog.controls.filter((control) => !only || only.has(control.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** A report from controls' results: the summary, the diff and readiness are computed here, nowhere else. */
export function assembleReport(compiled: CompiledCatalog, input: AssemblyInput, controls: ControlResult[]): Report {
  const exceptions = [...(input.exceptions ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
  const followed = withFollowUp(compiled.catalog, input, applyExceptions(controls, exceptions));
  const { catalog } = compiled;
  const frameworks = readinessOf(catalog.frameworks, catalog.controls, followed, catalog.scope ?? defaultScope);
  return {
    date: input.date,
    timeZone: input.timeZone,
    asOf: input.asOf.toISOString(),
    generatedAt: input.generatedAt.toISOString(),
    runId: input.runId,
    catalogVersion: catalog.version,
    settingsVersion: catalog.settingsVersion ?? null,
    summary: {
      ...summaryOf(followed),
      overdue: followed.filter((result) => result.overdue).length,
      riskAccepted: followed.filter((result) => result.riskAccepted).length,
      readiness: readinessShares(frameworks),
    },
    controls: followed,
    diff: diffReports(followed, input.previous),
    exceptions: exceptions.map(({ id, controlId, subject, expiresOn, approver, requestedBy, independent }) => ({
      id,
      controlId,
      subject,
      expiresOn,
      approver,
      requestedBy,
      independent,
    })),
    frameworks,
    ...(input.awaitingReview ? { awaitingReview: input.awaitingReview } : {}),
  };
}

/** Each result with its control's owner and, while it is open, since when and by when it is due. */
function withFollowUp(
  catalog: Catalog,
  input: Pick<EvaluationInput, 'date' | 'previous'>,
  controls: readonly ControlResult[],
): ControlResult[] {
  const controlsById = new Map(catalog.controls.map((control) => [control.id, control]));
  const before = new Map((input.previous?.controls ?? []).map((result) => [result.id, result]));
  // What an earlier assembly said (an analysis republishing today's report) is decided again.
  return controls.map(({ openSince: _since, dueDate: _due, overdue: _overdue, owner: _owner, owners: _owners, ...result }) => {
    const previous = input.previous && { date: input.previous.date, result: before.get(result.id) };
    const followUp = followUpOf(input.date, result, previous ?? undefined, catalog.dueDays);
    const control = controlsById.get(result.id);
    // An accepted risk is not due while the exception lasts; its open run goes on, so when the
    // exception expires the due date counts from the run's first day.
    const due = followUp && result.riskAccepted ? { openSince: followUp.openSince } : followUp;
    return {
      ...result,
      ...(control === undefined ? {} : { owner: control.owner }),
      ...(control?.owners ? { owners: control.owners } : {}),
      ...due,
    };
  });
}

/** The input as report assembly takes it: without the evidence, with what awaits review. */
function forAssembly(input: EvaluationInput): AssemblyInput {
  const { evidence: _evidence, setAside: _setAside, submissionReviews: _reviews, ...rest } = input;
  const awaitingReview = awaitingReviewOf(input);
  return { ...rest, ...(awaitingReview ? { awaitingReview } : {}) };
}

export function evaluate(compiled: CompiledCatalog, input: EvaluationInput): Report {
  return assembleReport(compiled, forAssembly(input), [...evaluateEach(compiled, input)]);
}

/** The report, and each control's population with what its checks made of each subject (for auditors' population pages). */
export function evaluateWithPopulations(
  compiled: CompiledCatalog,
  input: EvaluationInput,
): { report: Report; populations: ControlPopulation[] } {
  const populations: ControlPopulation[] = [];
  const controls = [...evaluateEach(compiled, input, undefined, (population) => populations.push(population))];
  return { report: assembleReport(compiled, forAssembly(input), controls), populations };
}
