/**
 * Compiles `functions/catalog/controls/*.md` into the catalog the functions load, and refuses a
 * catalog with any mistake: frontmatter that does not match the schema, a framework id that is
 * not in the reference lists (NIST ids must exist in SP 800-53 rev5), a CEL expression that the
 * engine's own compiler refuses or that fails on its kind's example evidence, a check on evidence
 * the control does not require. Every error names the file and line.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCelError } from '@bufbuild/cel';
import matter from 'gray-matter';
import { CheckCompileError, compileCheck, compileFilter, type CompiledCheck } from '../../functions/src/assessment/checks.ts';
import type { Catalog, Check, Control, FrameworkReference, Reconciliation } from '../../functions/src/assessment/model.ts';
import { scannerFindingKind } from '../../functions/src/common/ocsf-findings.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import {
  controlIdPattern,
  frameworkIds,
  frameworkNames,
  isSubjectKind,
  reconciliationKeyPattern,
  severities,
  type FrameworkId,
} from '@evident/contract';
import { readDeploymentSettings, settingsFile, SettingsError, type DeploymentSettings } from './deployment-settings.ts';
import { renderMarkdown } from './markdown.ts';
import { readScanner, readScannerMappings, type ScannerMappings } from './scanner-mappings.ts';

export const controlFamilies = {
  'identity-and-access': 'IAM',
  'change-management': 'CHG',
  'backup-and-recovery': 'BCK',
  'logging-and-monitoring': 'LOG',
  'vulnerability-management': 'VUL',
  'endpoint-security': 'END',
  encryption: 'ENC',
  'incident-response': 'INC',
  'vendor-management': 'VEN',
  'people-security': 'PPL',
  governance: 'GOV',
  'risk-management': 'RSK',
  'asset-management': 'AST',
  'physical-security': 'PHY',
} as const;

export class CatalogError extends Error {}

type ReferenceLists = Record<FrameworkId, Set<string>>;

/** Each framework's reference file. */
const referenceFiles: Record<FrameworkId, string> = {
  soc2: 'soc2-tsc-2017.json',
  iso27001: 'iso27001-2022-annex-a.json',
  nist80053: 'nist-800-53-rev5-moderate.json',
};

/** The reference lists in the frameworks' order; SOC 2 and ISO list ids only (their text is licensed). */
function readReferences(dir: string): { frameworks: FrameworkReference[]; sources: string[] } {
  const sources: string[] = [];
  const frameworks = frameworkIds.map((id): FrameworkReference => {
    const file = referenceFiles[id];
    const name = frameworkNames[id];
    const source = readFileSync(join(dir, file), 'utf8');
    sources.push(file, source);
    const parsed = JSON.parse(source) as { ids?: string[]; controls?: { id: string; title: string }[] };
    const requirements = parsed.controls
      ? parsed.controls.map(({ id: requirement, title }) => ({ id: requirement, title }))
      : (parsed.ids ?? []).map((requirement) => ({ id: requirement, title: null }));
    return { id, name, requirements };
  });
  return { frameworks, sources };
}

const topKeys = [
  'id',
  'title',
  'family',
  'severity',
  'owner',
  'aliases',
  'frameworks',
  'evidence',
  'checks',
  'scanner',
  'reconciliations',
];
const reconciliationKeys = ['id', 'description', 'population', 'coveredBy', 'expect', 'freshnessDays'];
const checkKeys = ['id', 'kind', 'each', 'all', 'where', 'pass', 'fail'];

/** Splits the body into its `## Objective` and `## Guidance` sections. */
function sections(body: string): Record<string, string> {
  const found: Record<string, string> = {};
  const parts = body.split(/^## +(.+)$/m);
  for (let i = 1; i < parts.length; i += 2) found[parts[i]!.trim().toLowerCase()] = parts[i + 1]!.trim();
  return found;
}

export function compileCatalogSources(catalogDir: string): Catalog {
  const { frameworks, sources } = readReferences(join(catalogDir, 'reference'));
  const scannerMappings = readScannerMappings(join(catalogDir, 'scanners'));
  const references = Object.fromEntries(
    frameworks.map((framework) => [framework.id, new Set(framework.requirements.map((requirement) => requirement.id))]),
  ) as ReferenceLists;
  const dir = join(catalogDir, 'controls');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const controls: Control[] = [];
  const hash = createHash('sha256');
  // The reference lists decide which requirements are gaps, so they are part of the version.
  // So do the scanner mappings: they decide which findings count for which control.
  for (const source of [...sources, ...scannerMappings.sources]) hash.update(source).update('\0');
  for (const file of files) {
    const source = readFileSync(join(dir, file), 'utf8');
    hash.update(file).update('\0').update(source);
    controls.push(compileControl(`functions/catalog/controls/${file}`, file, source, references, scannerMappings));
  }
  const seen = new Set<string>();
  for (const control of controls) {
    if (seen.has(control.id)) throw new CatalogError(`duplicate control id ${control.id}`);
    seen.add(control.id);
  }
  if (controls.length === 0) throw new CatalogError(`${dir}: the catalog has no controls`);
  let settings: DeploymentSettings;
  try {
    settings = readDeploymentSettings(catalogDir, seen);
  } catch (error) {
    throw error instanceof SettingsError ? new CatalogError(error.message) : error;
  }
  // Owners and due days are in every report, so the settings are part of the version too.
  hash.update(settingsFile).update('\0').update(settings.source);
  for (const control of controls) control.owner = settings.owners.get(control.id) ?? control.owner;
  return { version: hash.digest('hex').slice(0, 12), controls, frameworks, dueDays: settings.dueDays };
}

/** One control file under compilation: its lines, and how to refuse it at one of them. */
interface ControlSource {
  lines: string[];
  /** The 1-based line of the first line containing every needle in order, from `from`. */
  lineOf(needles: string[], from?: number): number;
  fail(line: number, message: string): never;
  /** `value` when it is a non-empty string; otherwise refuses the file at the first `key:` line. */
  text(key: string, value: unknown): string;
}

function controlSource(where: string, source: string): ControlSource {
  const lines = source.split('\n');
  const lineOf = (needles: string[], from = 0): number => {
    let line = from;
    for (const needle of needles) {
      const found = lines.findIndex((text, index) => index >= line && text.includes(needle));
      if (found === -1) return line + 1;
      line = found;
    }
    return line + 1;
  };
  const fail = (line: number, message: string): never => {
    throw new CatalogError(`${where}:${line}: ${message}`);
  };
  const text = (key: string, value: unknown): string =>
    typeof value === 'string' && value.trim() !== '' ? value : fail(lineOf([`${key}:`]), `"${key}" must be a non-empty string`);
  return { lines, lineOf, fail, text };
}

type Requirement = Control['evidence'][number];

function compileControl(
  where: string,
  file: string,
  source: string,
  references: ReferenceLists,
  scannerMappings: ScannerMappings,
): Control {
  const control = controlSource(where, source);
  const parsed = parseFrontmatter(control, source);
  const data = parsed.data as Record<string, unknown>;
  for (const key of Object.keys(data))
    if (!topKeys.includes(key)) control.fail(control.lineOf([`${key}:`]), `unknown key "${key}"`);
  const identity = readIdentity(control, file, data);
  const aliases = readAliases(control, data['aliases']);
  const frameworks = readFrameworks(control, data['frameworks'], references);
  const evidence = readEvidence(control, data['evidence']);
  const checks = readChecks(control, data['checks'] ?? [], evidence);
  const scanner = readScanner(control, data['scanner'], { frameworks, evidence }, scannerMappings);
  const reconciliations = readReconciliations(control, data['reconciliations'] ?? []);
  const { objective, guidance } = readBody(control, parsed.content);
  return {
    ...identity,
    ...(aliases.length > 0 ? { aliases } : {}),
    frameworks,
    evidence,
    checks,
    scanner,
    ...(reconciliations.length > 0 ? { reconciliations } : {}),
    objective: renderMarkdown(objective).html,
    guidance: renderMarkdown(guidance).html,
    objectiveMarkdown: objective,
    guidanceMarkdown: guidance,
  };
}

function parseFrontmatter(control: ControlSource, source: string): matter.GrayMatterFile<string> {
  try {
    return matter(source);
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    return control.fail((mark?.line ?? 0) + 1, `frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The id, title, family, severity and owner, with the id agreeing with the file name and the family. */
function readIdentity(
  { lineOf, fail, text }: ControlSource,
  file: string,
  data: Record<string, unknown>,
): Pick<Control, 'id' | 'title' | 'family' | 'severity' | 'owner'> {
  const id = text('id', data['id']);
  if (!new RegExp(controlIdPattern).test(id)) fail(lineOf(['id:']), `id "${id}" must look like IAM-01`);
  if (file !== `${id}.md`) fail(lineOf(['id:']), `the file must be named ${id}.md`);
  const title = text('title', data['title']);
  const family = text('family', data['family']);
  const prefix = (controlFamilies as Record<string, string>)[family];
  if (!prefix) fail(lineOf(['family:']), `family "${family}" is not one of ${Object.keys(controlFamilies).join(', ')}`);
  if (!id.startsWith(`${prefix}-`)) fail(lineOf(['id:']), `a ${family} control id starts with ${prefix}-`);
  const severity = data['severity'];
  if (!severities.includes(severity as never)) fail(lineOf(['severity:']), `severity must be one of ${severities.join(', ')}`);
  const owner = text('owner', data['owner']);
  if (owner.length > 200) fail(lineOf(['owner:']), 'owner must be at most 200 characters');
  return { id, title, family, severity: severity as Control['severity'], owner: owner.trim() };
}

/** At most this many aliases a control, each at most this long: the chat's search reads them all on every question. */
const aliasLimits = { count: 20, length: 40 };

/**
 * What people call the control's subject where its own text says it otherwise ("MFA", "pentest",
 * "offboarding"): the chat's reader finds the control by them as by its title.
 */
function readAliases({ lineOf, fail }: ControlSource, value: unknown): string[] {
  if (value === undefined) return [];
  const line = lineOf(['aliases:']);
  if (!Array.isArray(value) || value.length > aliasLimits.count)
    return fail(line, `"aliases" must list at most ${aliasLimits.count} words or short phrases`);
  return value.map((alias: unknown) => {
    if (typeof alias !== 'string' || alias.trim() === '' || alias.length > aliasLimits.length)
      fail(line, `each alias must be a non-empty string of at most ${aliasLimits.length} characters`);
    return (alias as string).trim();
  });
}

/**
 * Every framework's mapped ids, each of which must be in that framework's reference list. Every
 * framework is named, but its list may be empty: a mapping is claimed only where the requirement
 * genuinely holds, and some (board oversight, risk assessment) sit outside ISO's Annex A or
 * NIST's moderate baseline. A control must map to something, though.
 */
function readFrameworks({ lineOf, fail }: ControlSource, value: unknown, references: ReferenceLists): Control['frameworks'] {
  const frameworks = value as Record<string, unknown> | undefined;
  if (!frameworks || typeof frameworks !== 'object') return fail(lineOf(['frameworks:']), '"frameworks" is required');
  for (const key of Object.keys(frameworks)) {
    if (!(key in references)) fail(lineOf(['frameworks:', `${key}:`]), `unknown framework "${key}" (${frameworkIds.join(', ')})`);
  }
  const mappings = Object.fromEntries(frameworkIds.map((framework) => [framework, [] as string[]])) as Control['frameworks'];
  for (const key of frameworkIds) {
    const ids = frameworks[key];
    const line = lineOf(['frameworks:', `${key}:`]);
    if (!Array.isArray(ids)) fail(line, `frameworks.${key} must list the ids that hold, or be [] when none does`);
    for (const mapped of ids as unknown[]) {
      if (typeof mapped !== 'string' || !references[key].has(mapped)) {
        fail(
          line,
          `frameworks.${key}: "${String(mapped)}" is not a known id` +
            (key === 'nist80053' ? ' of NIST SP 800-53 rev5 (see functions/catalog/reference/)' : ''),
        );
      }
      mappings[key].push(mapped as string);
    }
  }
  if (frameworkIds.every((key) => mappings[key].length === 0))
    fail(lineOf(['frameworks:']), 'frameworks must list at least one id');
  return mappings;
}

function readEvidence({ lineOf, fail }: ControlSource, evidence: unknown): Requirement[] {
  if (!Array.isArray(evidence) || evidence.length === 0)
    return fail(lineOf(['evidence:']), '"evidence" must list at least one kind');
  return evidence.map((requirement: unknown, index) => {
    const entry = requirement as { kind?: unknown; freshnessDays?: unknown };
    const line = lineOf(['evidence:', `kind: ${String(entry.kind)}`]);
    if (typeof entry.kind !== 'string' || !(entry.kind in evidenceKinds))
      fail(line, `evidence[${index}].kind "${String(entry.kind)}" is not an evidence kind`);
    if (!Number.isInteger(entry.freshnessDays) || (entry.freshnessDays as number) < 1)
      fail(line, `evidence[${index}].freshnessDays must be a whole number of days, at least 1`);
    for (const key of Object.keys(entry)) if (key !== 'kind' && key !== 'freshnessDays') fail(line, `unknown key "${key}"`);
    return { kind: entry.kind as Requirement['kind'], freshnessDays: entry.freshnessDays as number };
  });
}

function readChecks(control: ControlSource, rawChecks: unknown, requirements: Requirement[]): Check[] {
  if (!Array.isArray(rawChecks)) return control.fail(control.lineOf(['checks:']), '"checks" must be a list');
  const checkIds = new Set<string>();
  return rawChecks.map((raw: unknown, index) =>
    readCheck(control, raw as Record<string, unknown>, index, requirements, checkIds),
  );
}

/**
 * The 0-based line of this check's own `id:` line, so that errors in its fields point into this
 * check rather than an earlier one; the `checks:` line when it has no recognisable id.
 */
function checkStart({ lines, lineOf }: ControlSource, entry: Record<string, unknown>): number {
  const checksLine = lineOf(['checks:']) - 1;
  const idLine = lines.findIndex(
    (text, line) =>
      line > checksLine &&
      new RegExp(`^\\s*-?\\s*id:\\s*['"]?${String(entry['id']).replace(/[^\w-]/g, '')}['"]?\\s*$`).test(text),
  );
  return idLine === -1 ? checksLine : idLine;
}

/** One check, refused unless it reads evidence the control requires and its CEL works on that kind's example. */
function readCheck(
  control: ControlSource,
  entry: Record<string, unknown>,
  index: number,
  requirements: Requirement[],
  checkIds: Set<string>,
): Check {
  const { lineOf, fail, text } = control;
  const start = checkStart(control, entry);
  const at = (key: string) => lineOf([`${key}:`], start);
  for (const key of Object.keys(entry)) if (!checkKeys.includes(key)) fail(at(key), `unknown check key "${key}"`);
  const checkId = entry['id'];
  if (typeof checkId !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(checkId))
    fail(start + 1, `checks[${index}].id must be lowercase words joined by hyphens`);
  if (checkIds.has(checkId as string)) fail(start + 1, `duplicate check id "${String(checkId)}"`);
  checkIds.add(checkId as string);
  const kind = entry['kind'];
  if (!requirements.some((requirement) => requirement.kind === kind) || kind === 'attestation')
    fail(at('kind'), `check "${String(checkId)}" reads "${String(kind)}", which is not evidence this control requires`);
  if (kind === scannerFindingKind)
    fail(
      at('kind'),
      `check "${String(checkId)}": scanner findings are judged by their status; name the scanner's checks under "scanner"`,
    );
  const mode = 'each' in entry ? 'each' : 'all' in entry ? 'all' : fail(start + 1, 'a check needs "each" or "all"');
  if ('each' in entry && 'all' in entry) fail(at('all'), 'a check has either "each" or "all", not both');
  if (mode === 'all' && 'where' in entry) fail(at('where'), '"where" only applies to "each" checks');
  const expression = text(mode, entry[mode]);
  const pass = text('pass', entry['pass']);
  const failMessage = text('fail', entry['fail']);
  const check: Check = {
    id: checkId as string,
    kind: kind as Check['kind'],
    mode,
    expression,
    ...(typeof entry['where'] === 'string' ? { where: entry['where'] } : {}),
    pass,
    fail: failMessage,
  };
  verifyCel(check, (key, message) => fail(at(key), message));
  return check;
}

/**
 * The populations the control declares must cover one another: each side a kind read per
 * subject, with an optional CEL filter that works on the kind's example; the covering side
 * matched by its subject or a field of its data.
 */
function readReconciliations(control: ControlSource, value: unknown): Reconciliation[] {
  const { lineOf, fail } = control;
  if (!Array.isArray(value)) return fail(lineOf(['reconciliations:']), '"reconciliations" must be a list');
  const ids = new Set<string>();
  return value.map((raw: unknown, index) => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const line = lineOf(['reconciliations:', `id: ${String(entry['id'])}`]);
    const at = `reconciliations[${index}]`;
    // Refused at the reconciliation's own line, as its other fields are.
    const text = (key: string, value: unknown): string =>
      typeof value === 'string' && value.trim() !== '' ? value : fail(line, `${at}.${key} must be a non-empty string`);
    for (const key of Object.keys(entry)) if (!reconciliationKeys.includes(key)) fail(line, `${at}: unknown key "${key}"`);
    const id = typeof entry['id'] === 'string' ? entry['id'] : '';
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail(line, `${at}.id must be lowercase words joined by hyphens`);
    if (ids.has(id)) fail(line, `duplicate reconciliation id "${id}"`);
    ids.add(id);
    const freshnessDays = entry['freshnessDays'];
    if (!Number.isInteger(freshnessDays) || (freshnessDays as number) < 1 || (freshnessDays as number) > 730)
      fail(line, `${at}.freshnessDays must be a whole number of days from 1 to 730`);
    const population = readSide(entry['population'], `${at}.population`, false, (message) => fail(line, message));
    const coveredBy = readSide(entry['coveredBy'], `${at}.coveredBy`, true, (message) => fail(line, message));
    const expect = entry['expect'] === undefined ? '{{subject}}' : text('expect', entry['expect']);
    return {
      id,
      description: text('description', entry['description']),
      population,
      coveredBy,
      expect,
      freshnessDays: freshnessDays as number,
    };
  });
}

function readSide(value: unknown, at: string, keyed: boolean, fail: (message: string) => never): Reconciliation['population'] {
  const side = (value ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(side)) if (!['kind', 'where', 'key'].includes(key)) fail(`${at}: unknown key "${key}"`);
  const kind = side['kind'];
  if (typeof kind !== 'string' || !(kind in evidenceKinds) || !isSubjectKind(kind))
    fail(`${at}.kind "${String(kind)}" must be an evidence kind read per subject (not attestation or ${scannerFindingKind})`);
  const where = side['where'];
  if (where !== undefined) {
    if (typeof where !== 'string') fail(`${at}.where must be a CEL expression`);
    let admits: ReturnType<typeof compileFilter>;
    try {
      admits = compileFilter(where);
    } catch (error) {
      if (!(error instanceof CheckCompileError)) throw error;
      return fail(`${at}.where ${error.message}`);
    }
    const example = evidenceKinds[kind as keyof typeof evidenceKinds].example;
    const result = admits({ item: { id: 'example', kind, subject: 'example', data: example }, data: example });
    if (typeof result !== 'boolean') fail(`${at}.where must give a boolean on the ${kind} example evidence`);
  }
  const key = side['key'];
  if (keyed && (typeof key !== 'string' || !new RegExp(reconciliationKeyPattern).test(key)))
    fail(`${at}.key must be "subject" or "data.<field>"`);
  if (!keyed && key !== undefined) fail(`${at}.key belongs on coveredBy: the population is matched through "expect"`);
  return {
    kind: kind as Reconciliation['population']['kind'],
    ...(where !== undefined ? { where: where as string } : {}),
    ...(keyed ? { key: key as string } : {}),
  };
}

function readBody({ lines, fail }: ControlSource, content: string): { objective: string; guidance: string } {
  const body = sections(content);
  const objective = body['objective'] ?? fail(lines.length, 'the body needs an "## Objective" section');
  const guidance = body['guidance'] ?? fail(lines.length, 'the body needs a "## Guidance" section');
  return { objective, guidance };
}

/** Compiles a check's CEL and runs it on its kind's example, which must give a boolean. */
function verifyCel(check: Check, fail: (key: string, message: string) => never): void {
  let compiled: CompiledCheck;
  try {
    compiled = compileCheck(check);
  } catch (error) {
    if (!(error instanceof CheckCompileError)) throw error;
    const key = error.field === 'where' ? 'where' : check.mode;
    return fail(key, `check "${check.id}": ${key} ${error.message}`);
  }
  const example = evidenceKinds[check.kind as keyof typeof evidenceKinds].example;
  const item = { id: 'example', kind: check.kind, subject: 'example', collectedAt: '2026-01-01T00:00:00Z', data: example };
  const bindings = { item, data: example, items: [item] };
  const programs: [string, CompiledCheck['test'] | undefined][] = [
    [check.mode, compiled.test],
    ['where', compiled.where],
  ];
  for (const [key, program] of programs) {
    if (!program) continue;
    const result = program(bindings);
    if (isCelError(result)) {
      fail(key, `check "${check.id}": ${key} fails on the ${check.kind} example evidence: ${result.message}`);
    }
    if (typeof result !== 'boolean') fail(key, `check "${check.id}": ${key} must give a boolean, not ${typeof result}`);
  }
}
