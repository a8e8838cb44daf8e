/**
 * Scanner findings (`scanner.finding` evidence) in the assessment: which controls a finding
 * counts for, and what a control's fresh findings say.
 *
 * A finding counts for a control when its check is one the catalog says feeds the control
 * (named there, or mapped by the scanner under one of its requirements in a framework the
 * control follows), or when the finding itself names such a requirement. The newest finding per
 * check and resource is the one that counts. Then, per check:
 *
 *   FAIL     a `fail` finding for that resource: the control fails (an exception may accept it)
 *   PASS     a `pass` finding, one per check listing the resources that pass
 *   MANUAL   an `info` finding: shown, decides nothing
 *   muted    an `info` finding too: the scanner's own mutelist set it aside
 *
 * A finding that names several resources keeps its title, message and remediation on the first
 * resource's item only (common/ocsf-findings.ts); the others' findings read them there, and cite
 * that item beside their own.
 */
import { plural } from '@evident/contract';
import { coveringIds, type FindingTexts, type ScannerFindingData } from '../common/ocsf-findings.js';
import type { Catalog, EvidenceItem, Finding } from './model.js';

/** Beyond this many failing (or informational) resources per check, the rest are summarised in one finding. */
const maxListed = 50;

export interface ScannerRoutes {
  byCheck: Map<string, string[]>;
  /** `framework \u0001 requirement` → the controls that follow that framework and map to it. */
  byRequirement: Map<string, string[]>;
}

function add(map: Map<string, string[]>, key: string, control: string): void {
  const controls = map.get(key);
  if (!controls) map.set(key, [control]);
  else if (!controls.includes(control)) controls.push(control);
}

export function scannerRoutes(catalog: Catalog): ScannerRoutes {
  const routes: ScannerRoutes = { byCheck: new Map(), byRequirement: new Map() };
  for (const control of catalog.controls) {
    for (const check of control.scanner.checks) add(routes.byCheck, check.id, control.id);
    for (const framework of control.scanner.frameworks) {
      for (const requirement of control.frameworks[framework])
        add(routes.byRequirement, `${framework}\u0001${requirement}`, control.id);
    }
  }
  return routes;
}

/** The controls a finding counts for; none for a finding no control follows. */
export function controlsOfFinding(routes: ScannerRoutes, item: EvidenceItem): Set<string> {
  const data = item.data as Partial<ScannerFindingData>;
  const controls = new Set(typeof data.check === 'string' ? (routes.byCheck.get(data.check) ?? []) : []);
  for (const [framework, ids] of Object.entries(data.requirements ?? {})) {
    for (const id of Array.isArray(ids) ? ids : []) {
      for (const covering of coveringIds(framework as never, String(id))) {
        for (const control of routes.byRequirement.get(`${framework}\u0001${covering}`) ?? []) controls.add(control);
      }
    }
  }
  return controls;
}

/** The key a finding is newest under: its check and resource. */
export function findingKey(item: EvidenceItem): string {
  return `${String((item.data as Partial<ScannerFindingData>).check)}\u0001${item.subject}`;
}

/** The items that carry the texts of a finding's other resources, by id. */
export type TextCarriers = ReadonlyMap<string, EvidenceItem>;

/** Whether an item carries the texts of its finding's other resources. */
export const isTextCarrier = (item: EvidenceItem) =>
  item.kind === 'scanner.finding' && typeof item.data['resourceCount'] === 'number';

/** The id of the item that carries an item's finding texts, when another does. */
export const textsInOf = (item: EvidenceItem): string | undefined =>
  item.kind === 'scanner.finding' && typeof item.data['textsIn'] === 'string' ? item.data['textsIn'] : undefined;

/**
 * An item's finding texts: its own, or those of the item its `textsIn` names (when that is the
 * same finding's, and at hand), which its findings then cite too.
 */
function textsOf(item: EvidenceItem, carriers: TextCarriers): { texts: FindingTexts; cited: string[] } {
  const data = item.data as Partial<ScannerFindingData>;
  if (typeof data.textsIn !== 'string') return { texts: data, cited: [item.id] };
  const carrier = carriers.get(data.textsIn);
  const carried = (carrier?.data ?? {}) as Partial<ScannerFindingData>;
  if (!carrier || carried.findingUid !== data.findingUid || carried.check !== data.check) return { texts: {}, cited: [item.id] };
  return { texts: carried, cited: [item.id, carrier.id] };
}

/** What a control's fresh scanner findings say, in check order then resource order. */
export function judgeFindings(items: readonly EvidenceItem[], carriers: TextCarriers): { findings: Finding[]; failing: boolean } {
  const byCheck = new Map<string, EvidenceItem[]>();
  for (const item of items) {
    const check = String((item.data as Partial<ScannerFindingData>).check);
    const list = byCheck.get(check);
    if (list) list.push(item);
    else byCheck.set(check, [item]);
  }
  const findings: Finding[] = [];
  let failing = false;
  for (const check of [...byCheck.keys()].sort()) {
    const judged = judgeCheck(check, byCheck.get(check)!, carriers);
    if (judged.some((finding) => finding.outcome === 'fail')) failing = true;
    findings.push(...judged);
  }
  return { findings, failing };
}

function judgeCheck(check: string, items: readonly EvidenceItem[], carriers: TextCarriers): Finding[] {
  const base = { check, kind: 'scanner.finding' };
  const passed: EvidenceItem[] = [];
  const failed: Finding[] = [];
  const shown: Finding[] = [];
  for (const item of items) {
    const data = item.data as Partial<ScannerFindingData>;
    if (data.muted !== true && data.status !== 'MANUAL' && data.status !== 'FAIL') {
      passed.push(item);
      continue;
    }
    const { texts, cited } = textsOf(item, carriers);
    const said = texts.message ?? texts.title ?? `${check} on ${item.subject}`;
    const one = { ...base, subject: item.subject, evidence: cited };
    if (data.muted === true) {
      shown.push({ ...one, outcome: 'info', message: `Muted in ${data.product ?? 'the scanner'} (${data.status}): ${said}` });
    } else if (data.status === 'MANUAL') {
      shown.push({ ...one, outcome: 'info', message: `${data.product ?? 'The scanner'} asks for a manual check: ${said}` });
    } else {
      failed.push({ ...one, outcome: 'fail', message: said });
    }
  }
  const findings: Finding[] = [];
  if (passed.length === 1) {
    const item = passed[0]!;
    const { texts, cited } = textsOf(item, carriers);
    findings.push({
      ...base,
      outcome: 'pass',
      subject: item.subject,
      message: texts.message ?? `${item.subject} passes ${check}.`,
      evidence: cited,
    });
  } else if (passed.length > 1) {
    findings.push({
      ...base,
      outcome: 'pass',
      message: `${plural(passed.length, 'resource')} pass ${check}.`,
      evidence: passed.map((item) => item.id),
    });
  }
  findings.push(...capped(base, failed, 'fail'), ...capped(base, shown, 'info'));
  return findings;
}

function capped(base: { check: string; kind: string }, findings: Finding[], outcome: 'fail' | 'info'): Finding[] {
  if (findings.length <= maxListed) return findings;
  const rest = findings.length - maxListed;
  const what = outcome === 'fail' ? 'fail' : 'need a look';
  return [
    ...findings.slice(0, maxListed),
    {
      ...base,
      outcome,
      message: `${plural(rest, 'more resource')} ${what} on ${base.check}; the first ${maxListed} are listed.`,
      // As for catalog checks: the items are in the result's `evidence`, not repeated here.
      evidence: [],
    },
  ];
}
