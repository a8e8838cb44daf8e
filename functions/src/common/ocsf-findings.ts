/**
 * OCSF Detection Findings (class 2004) as `scanner.finding` evidence: one item per finding and
 * resource. Prowler's `json-ocsf` output is the model; any producer whose findings carry a check
 * id and a status reads the same way.
 *
 *   subject      the resource's `uid` (an ARN, a resource id), else its `name`
 *   source       the product and account: `Prowler aws 123456789012`
 *   collectedAt  the finding's `time` (seconds or milliseconds since the epoch; Prowler writes seconds)
 *   data         the check (`metadata.event_code`), status (`status_code` PASS / FAIL / MANUAL, or
 *                OCSF `compliance.status_id`), muted (`status` Suppressed), severity, region,
 *                account, title, message, remediation, and the framework requirements the finding
 *                names itself (Prowler's `unmapped.compliance`, OCSF `compliance`), in the catalog's notation
 *
 * A finding's title, message and remediation are stored once per finding, not once per resource:
 * when it names several resources, the first resource's item carries them (with `resourceCount`)
 * and every other item names that item in `textsIn` (assessment/scanner-findings.ts reads them
 * from it). Every string is cleaned (no lone surrogate, no control character but tab and line
 * breaks) and clipped, and a finding may name at most `maxFindingResources` resources, so no
 * finding makes items larger, or more of them, than its own bytes account for.
 *
 * Ids are derived from the finding's `finding_info.uid`, its time, the check and the resource, so
 * importing the same scan again stores nothing twice while a later scan is new evidence.
 * Anything that cannot be read says what is wrong, for the caller to report at the finding's line.
 *
 * It imports only Node's own modules and the contract, so the collector runs it from source; the
 * catalog build and the engine read framework ids through it too. The limits of one finding and of one
 * import are the contract's (`@evident/contract`).
 */
import { createHash } from 'node:crypto';
import {
  type FrameworkId,
  findingFieldLengths,
  maxFindingRequirements,
  maxFindingResources,
  maxFindingTextLength,
} from '@evident/contract';

export const scannerFindingKind = 'scanner.finding';
export const findingStatuses = ['PASS', 'FAIL', 'MANUAL'] as const;
export type FindingStatus = (typeof findingStatuses)[number];

export type ScannerFindingData = {
  check: string;
  status: FindingStatus;
  muted: boolean;
  severity: string;
  title?: string;
  message?: string;
  remediation?: string;
  /** On the first resource's item of a finding that names several: how many it names. */
  resourceCount?: number;
  /** On the other resources' items: the id of the item that carries the finding's texts. */
  textsIn?: string;
  product: string;
  provider?: string;
  account?: string;
  region?: string;
  resourceType?: string;
  findingUid: string;
  requirements?: Partial<Record<FrameworkId, string[]>>;
};

/** The texts a finding's items share. */
export type FindingTexts = Pick<ScannerFindingData, 'title' | 'message' | 'remediation'>;

export interface ScannerFindingInput {
  id: string;
  kind: typeof scannerFindingKind;
  source: string;
  subject: string;
  collectedAt: string;
  data: ScannerFindingData;
}

export type FindingConversion = { items: ScannerFindingInput[] } | { problem: string };

const detectionFindingClass = 2004;
/** OCSF `severity_id` → name (OCSF 1.4 base event). */
const severityNames: Record<number, string> = {
  0: 'unknown',
  1: 'informational',
  2: 'low',
  3: 'medium',
  4: 'high',
  5: 'critical',
  6: 'fatal',
  99: 'other',
};
/** OCSF `status_id` 3: the finding is suppressed (Prowler: muted by its mutelist). */
const suppressedStatus = 3;
/** OCSF `compliance.status_id`: 1 Pass, 2 Warning, 3 Fail. */
const complianceStatuses: Record<number, FindingStatus> = { 1: 'PASS', 2: 'MANUAL', 3: 'FAIL' };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, key: string): Json | undefined =>
  isObject(value) && isObject(value[key]) ? value[key] : undefined;

// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * The string at `key`, trimmed, with lone surrogates and control characters (but tab and line
 * breaks) replaced by U+FFFD: as JSON those cost six bytes each, and a lone surrogate cannot be
 * encoded in a URL or an object name at all.
 */
function textAt(value: unknown, key: string): string | undefined {
  const found = isObject(value) ? value[key] : undefined;
  if (typeof found !== 'string') return undefined;
  const trimmed = found.trim();
  if (trimmed === '') return undefined;
  const formed = trimmed.isWellFormed() ? trimmed : trimmed.toWellFormed();
  return formed.replace(controlCharacter, '\uFFFD');
}

/** At most `max` code points, never a broken surrogate pair. */
function clip(text: string, max: number): string;
function clip(text: string | undefined, max: number): string | undefined;
function clip(text: string | undefined, max: number): string | undefined {
  // A string no longer in UTF-16 units than `max` has no more code points either.
  if (text === undefined || text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}\u2026`;
}

const field = (value: unknown, key: string, name: keyof typeof findingFieldLengths) =>
  clip(textAt(value, key), findingFieldLengths[name]);

export function convertFinding(value: unknown): FindingConversion {
  if (!isObject(value)) return { problem: 'a finding must be a JSON object' };
  if (value['class_uid'] !== detectionFindingClass) {
    return {
      problem:
        value['class_uid'] === undefined
          ? 'the finding has no "class_uid"; expected an OCSF Detection Finding (2004)'
          : `"class_uid" is ${JSON.stringify(value['class_uid'])}, not an OCSF Detection Finding (2004)`,
    };
  }
  const check =
    field(objectAt(value, 'metadata'), 'event_code', 'check') ??
    field(objectAt(objectAt(value, 'finding_info'), 'analytic'), 'uid', 'check');
  if (!check) return { problem: 'the finding names no check: expected "metadata.event_code"' };
  const status = statusOf(value);
  if (!status) {
    return { problem: `"status_code" is ${JSON.stringify(value['status_code'] ?? null)}; expected PASS, FAIL or MANUAL` };
  }
  const collectedAt = timeOf(value);
  if (!collectedAt) return { problem: 'the finding has no valid "time"' };
  const findingUid = textAt(objectAt(value, 'finding_info'), 'uid');
  if (!findingUid) return { problem: 'the finding has no "finding_info.uid"' };
  const subjects = subjectsOf(value['resources']);
  if ('problem' in subjects) return subjects;
  const requirements = requirementsOf(value);
  if (typeof requirements === 'string') return { problem: requirements };
  const common = commonData(value, check, status, findingUid, requirements);
  const texts = textsOf(value);
  const source = clip([common.product, common.provider, common.account].filter(Boolean).join(' '), findingFieldLengths.source);
  const ids = subjects.map(({ subject }) => findingId(findingUid, collectedAt, check, subject));
  // Several resources with texts to share: the first item carries them, the others name it.
  const shared = subjects.length > 1 && Object.keys(texts).length > 0;
  return {
    items: subjects.map(({ subject, resource }, index) => ({
      id: ids[index]!,
      kind: scannerFindingKind,
      source,
      subject,
      collectedAt,
      data: withoutUndefined({
        ...common,
        ...(!shared ? texts : index === 0 ? { ...texts, resourceCount: subjects.length } : { textsIn: ids[0]! }),
        region: field(resource, 'region', 'region') ?? field(objectAt(value, 'cloud'), 'region', 'region'),
        resourceType: field(resource, 'type', 'resourceType'),
      }),
    })),
  };
}

/** Each resource's subject, in order: at most `maxFindingResources`, each named, none twice. */
function subjectsOf(resources: unknown): { subject: string; resource: Json }[] | { problem: string } {
  if (!Array.isArray(resources) || resources.length === 0)
    return { problem: 'the finding names no resource: "resources" is empty' };
  // Counted before any is read: the work and the items that follow grow with it.
  if (resources.length > maxFindingResources) {
    return {
      problem: `the finding names ${resources.length} resources; at most ${maxFindingResources} are read per finding, split it`,
    };
  }
  const subjects: { subject: string; resource: Json }[] = [];
  const seen = new Map<string, number>();
  for (const [index, resource] of resources.entries()) {
    const subject = textAt(resource, 'uid') ?? textAt(resource, 'name');
    if (!subject) return { problem: `resources[${index}] has no "uid" or "name"` };
    if (subject.length > findingFieldLengths.subject)
      return { problem: `resources[${index}].uid is longer than ${findingFieldLengths.subject} characters` };
    const earlier = seen.get(subject);
    if (earlier !== undefined) return { problem: `resources[${index}] names the same resource as resources[${earlier}]` };
    seen.set(subject, index);
    subjects.push({ subject, resource: resource as Json });
  }
  return subjects;
}

/** The finding's title, message and remediation, those it has, each clipped. */
function textsOf(value: Json): FindingTexts {
  return withoutUndefined({
    title: clip(textAt(objectAt(value, 'finding_info'), 'title'), maxFindingTextLength),
    message: clip(textAt(value, 'status_detail') ?? textAt(value, 'message'), maxFindingTextLength),
    remediation: clip(textAt(objectAt(value, 'remediation'), 'desc'), maxFindingTextLength),
  });
}

function statusOf(value: Json): FindingStatus | undefined {
  const code = typeof value['status_code'] === 'string' ? value['status_code'].trim().toUpperCase() : undefined;
  if (code && (findingStatuses as readonly string[]).includes(code)) return code as FindingStatus;
  if (code !== undefined) return undefined;
  const complianceStatus = objectAt(value, 'compliance')?.['status_id'];
  return typeof complianceStatus === 'number' ? complianceStatuses[complianceStatus] : undefined;
}

/** OCSF timestamps are milliseconds; Prowler writes seconds. Anything before 1973 in milliseconds is taken as seconds. */
function timeOf(value: Json): string | undefined {
  const candidates = [value['time'], objectAt(value, 'finding_info')?.['created_time']];
  for (const candidate of candidates) {
    if (typeof candidate !== 'number' || !Number.isFinite(candidate) || candidate <= 0) continue;
    const ms = candidate < 1e11 ? candidate * 1000 : candidate;
    const date = new Date(ms);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return undefined;
}

function commonData(
  value: Json,
  check: string,
  status: FindingStatus,
  findingUid: string,
  requirements: ScannerFindingData['requirements'],
) {
  const metadata = objectAt(value, 'metadata');
  const product = objectAt(metadata, 'product');
  const cloud = objectAt(value, 'cloud');
  const severity =
    field(value, 'severity', 'severity')?.toLowerCase() ??
    (typeof value['severity_id'] === 'number' ? severityNames[value['severity_id']] : undefined) ??
    'unknown';
  return {
    check,
    status,
    muted:
      value['status_id'] === suppressedStatus ||
      textAt(value, 'status') === 'Suppressed' ||
      objectAt(value, 'unmapped')?.['muted'] === true,
    severity,
    product: field(product, 'name', 'product') ?? field(product, 'vendor_name', 'product') ?? 'OCSF',
    provider: field(cloud, 'provider', 'provider'),
    account: field(objectAt(cloud, 'account'), 'uid', 'account'),
    findingUid: clip(findingUid, findingFieldLengths.findingUid),
    requirements,
  };
}

/**
 * The requirements a finding names itself, by framework: Prowler's `unmapped.compliance`
 * (`{"SOC2": ["cc_6_1"], "ISO27001-2022": ["A.8.24"]}`) and OCSF's `compliance` object
 * (`standards` with `requirements`). Frameworks the catalog does not know are left out. More
 * than `maxFindingRequirements` in one framework is a problem (every resource's item carries
 * them, and leaving some out would take the finding away from the controls they route it to).
 */
function requirementsOf(value: Json): ScannerFindingData['requirements'] | string {
  const found: Partial<Record<FrameworkId, Set<string>>> = {};
  let tooMany: FrameworkId | undefined;
  const add = (framework: FrameworkId, ids: unknown) => {
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      const normalised = typeof id === 'string' ? normaliseRequirement(framework, id) : undefined;
      if (!normalised) continue;
      const set = (found[framework] ??= new Set());
      set.add(normalised);
      if (set.size > maxFindingRequirements) return void (tooMany = framework);
    }
  };
  const prowler = objectAt(objectAt(value, 'unmapped'), 'compliance');
  for (const [name, ids] of Object.entries(prowler ?? {})) {
    const framework = frameworkOfStandard(name);
    if (framework) add(framework, ids);
  }
  const compliance = objectAt(value, 'compliance');
  const standards = Array.isArray(compliance?.['standards']) ? compliance['standards'] : [];
  // Each requirement is kept under every framework a named standard stands for whose notation it
  // parses in: read once per framework, not once per standard (a list may name one many times).
  const named = new Set<FrameworkId>();
  for (const standard of standards) {
    const framework = typeof standard === 'string' ? frameworkOfStandard(standard) : undefined;
    if (framework) named.add(framework);
  }
  for (const framework of named) add(framework, compliance?.['requirements']);
  if (tooMany) return `the finding names more than ${maxFindingRequirements} ${tooMany} requirements`;
  const entries = Object.entries(found).map(([framework, ids]) => [framework, [...ids].sort()]);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Stable across re-imports of the same scan: the finding, its time, its check and the resource. */
export function findingId(findingUid: string, collectedAt: string, check: string, subject: string): string {
  const digest = createHash('sha256')
    .update(['evident-ocsf/1', findingUid, collectedAt, check, subject].join('\n'))
    .digest('hex');
  return `ocsf-${digest.slice(0, 40)}`;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/*
 * Framework requirement ids in the catalog's notation, from the notations scanners write:
 * Prowler's `cc_6_1`, `A.8.24` and `ac_2_3_a`, OCSF producers' `CC6.1`, `A.8.24` and `AC-2(3)(a)`.
 *
 *   SOC 2            `cc_6_1`, `CC 6.1`, `cc6.1`  →  `CC6.1`   (also A, C, PI and P criteria,
 *                    which Prowler sometimes writes `cc_c_1_1`)
 *   ISO 27001:2022   `A.8.24`, `a_8_24`           →  `A.8.24`
 *   NIST 800-53 r5   `ac_2_3_a`, `AC-2(3)(a)`     →  `ac-2.3`  (a control or enhancement; the
 *                    statement parts after it, `a`, `d.1`, are dropped: the catalog maps whole
 *                    controls and enhancements)
 */

/** The framework a standard's name (Prowler's compliance keys, OCSF `compliance.standards`) stands for. */
export function frameworkOfStandard(name: string): FrameworkId | undefined {
  const compact = name.toLowerCase().replace(/[\s_/:.-]+/g, '');
  if (/^(?:aicpa)?soc2/.test(compact)) return 'soc2';
  // ISO 27001:2013 numbers its Annex A differently (A.9.4.2); only the 2022 edition's ids mean what the catalog's do.
  if (/^iso(?:iec)?27001/.test(compact)) return /2013/.test(compact) ? undefined : 'iso27001';
  if (/^nist(?:sp)?80053/.test(compact)) return /rev(?:ision)?[1-4]|r[1-4]$/.test(compact) ? undefined : 'nist80053';
  return undefined;
}

const separators = /[\s_.()-]+/;

/** A requirement id in the catalog's notation, or undefined when it is not one of the framework's. */
export function normaliseRequirement(framework: FrameworkId, id: string): string | undefined {
  const trimmed = id.trim();
  if (framework === 'soc2') {
    // Prowler writes the A, C and PI criteria as `cc_a_1_1` as well as `a_1_1`.
    const match = /^(?:cc[\s_.-](?=[a-z]))?(cc|pi|a|c|p)[\s_.-]?(\d{1,2})[\s_.-](\d{1,2})$/i.exec(trimmed);
    return match ? `${match[1]!.toUpperCase()}${Number(match[2])}.${Number(match[3])}` : undefined;
  }
  if (framework === 'iso27001') {
    const match = /^a[\s_.-]?([5-8])[\s_.-](\d{1,2})$/i.exec(trimmed);
    return match ? `A.${match[1]}.${Number(match[2])}` : undefined;
  }
  const [family, control, enhancement] = trimmed.split(separators).filter(Boolean);
  if (!family || !/^[a-z]{2}$/i.test(family) || !control || !/^\d{1,2}$/.test(control)) return undefined;
  const base = `${family.toLowerCase()}-${Number(control)}`;
  return enhancement !== undefined && /^\d{1,2}$/.test(enhancement) ? `${base}.${Number(enhancement)}` : base;
}

/**
 * The ids a catalog mapping `mapped` covers a finding's requirement through: the id itself and,
 * for NIST, the base control of an enhancement (a control mapped to `ac-2` covers `ac-2.3`).
 */
export function coveringIds(framework: FrameworkId, id: string): string[] {
  if (framework !== 'nist80053') return [id];
  const dot = id.indexOf('.');
  return dot === -1 ? [id] : [id, id.slice(0, dot)];
}
