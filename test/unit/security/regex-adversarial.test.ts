/**
 * Every regular expression that runs over stored or request text, on a long input crafted against
 * it: finding messages, subjects and other report text, questions, model replies, file and host
 * names, log strings. An expression that backtracks super-linearly spends seconds to minutes on
 * these inputs, so the test fails by its timeout, the hang detector; nothing here reads a clock.
 * Each case asserts what the code answers, so the input is also read the way it was before.
 *
 * The parts: the chat on a report whose findings carry 64,000-letter messages (the case that
 * timed out every question on a report); one case per expression that was super-linear and was
 * rewritten; a sweep that runs every expression literal of the audited folders over 64,000-long
 * runs of single characters and of the words it names, so a new one of the simple kinds (`\s+$`,
 * `a+@` tried from every character) fails here too, with the expressions built at run time listed
 * by what keeps each linear; and, on short text where the old expressions are quick, that the
 * rewrites that are not plainly equivalent find what the old ones found.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { diffReports, summaryOf } from '../../../functions/src/assessment/report-summary.ts';
import type { ControlResult, Finding, Report } from '../../../functions/src/assessment/model.ts';
import { archiveName } from '../../../functions/src/audit/zip-writer.ts';
import { guidanceBullets } from '../../../functions/src/chat/answers/compose.ts';
import { expiringQuery } from '../../../functions/src/chat/offline/expiring.ts';
import { parseQuery as parseAsked } from '../../../functions/src/chat/offline/parse-query.ts';
import { askedOf } from '../../../functions/src/chat/offline/asked.ts';
import { subjectHistoryQuestion } from '../../../functions/src/chat/offline/subject-history.ts';
import { asInstructionData } from '../../../functions/src/chat/model/model-reader.ts';
import { subjectQuery, unknownSubject } from '../../../functions/src/chat/offline/subjects.ts';
import {
  asksNotInReport,
  followedBy,
  lineBreaks,
  severitiesIn,
  severityCue,
} from '../../../functions/src/chat/offline/question-cues.ts';
import { indexReport, type ReportIndex } from '../../../functions/src/chat/report-index.ts';
import type { ChatTurn } from '../../../functions/src/chat/question.ts';
import { createChatFamily } from '../../../functions/src/families/chat.ts';
import { logs, redact } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { checkTargetUrl } from '../../../functions/src/webhooks/webhook-targets.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';
/** One reading of the query parser on text as the reader leaves it, with the conversation given. */
const parseQuery = (text: string, history: ChatTurn[], index: ReportIndex) => parseAsked(askedOf(text, history, index, text));

/** The catalog's controls, all passing but the ones given findings, which fail on them. */
function reportWith(findings: Record<string, Finding[]>, owners: Record<string, string> = {}): Report {
  const controls: ControlResult[] = catalog.controls.map((control) => {
    const own = findings[control.id];
    return {
      id: control.id,
      title: control.title,
      family: control.family,
      severity: control.severity,
      status: own ? 'failing' : 'passing',
      findings: own ?? [{ outcome: 'pass', check: 'check', kind: 'kind', message: `${control.id} holds.`, evidence: [] }],
      evidence: [],
      ...(owners[control.id] ? { owner: owners[control.id] } : {}),
    };
  });
  return {
    date: today,
    timeZone: 'UTC',
    asOf: `${today}T09:00:00.000Z`,
    generatedAt: `${today}T09:00:00.000Z`,
    runId: `run-${today}`,
    catalogVersion: catalog.version,
    summary: summaryOf(controls),
    controls,
    diff: diffReports(controls, null),
  };
}

const failing = (message: string, subject?: string): Finding => ({
  outcome: 'fail',
  check: 'scanner-check',
  kind: 'scanner.finding',
  ...(subject ? { subject } : {}),
  message,
  evidence: ['ev-1'],
});

/** Ten scanner findings whose messages are 64,000 letters and no `@`: each cost 5 to 7 s in the e-mail expression. */
const lettersReport = reportWith({ 'VUL-02': Array.from({ length: 10 }, () => failing('a'.repeat(64_000))) });

describe('the chat on a report whose findings carry 64,000-letter messages', () => {
  let served: Served;
  beforeAll(async () => {
    setMode('public');
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    const store = new MemoryStore();
    const now = () => new Date(`${today}T10:00:00Z`);
    await new ReportStore(store).publish(lettersReport, undefined, now, { by: 'daily', trigger: 'test' });
    served = await serve(
      createChatFamily({
        store: async () => store,
        catalog: () => catalog,
        now,
        timeZone: () => 'UTC',
        loadTable: tableOf('chat'),
        verifyToken: fakeVerifier(),
      }),
    );
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await served.close();
  });

  it.each([
    ['Is VUL-02 passing?', ['VUL-02']],
    ['Is alice.smith@example.com fine?', []],
    ['Which controls are failing?', ['VUL-02']],
  ])('answers "%s" (POST /api/chat)', async (message, cited) => {
    const response = await fetch(`${served.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { date: string; citations: { controlId: string }[] };
    expect(answer.date).toBe(today);
    expect([...new Set(answer.citations.map((citation) => citation.controlId))]).toEqual(cited);
  });
});

describe('each expression that was super-linear, on input crafted against it', () => {
  /**
   * `unit` repeated to at least `length` characters. Stored text (a finding message, a file name)
   * gets 256,000; a question, a model reply or a log string gets more, up to where the old
   * expression ran for a minute or more, though the API takes questions of 2,000 characters only.
   */
  const run = (unit: string, length = 256_000) => unit.repeat(Math.ceil(length / unit.length));
  const plain = indexReport(reportWith({}), catalog);
  const noDays = { between: async () => [], findings: async () => [] };

  it.each<[string, () => unknown, unknown]>([
    [
      'e-mail addresses in finding messages, read for subjects (subjects.ts)',
      () => subjectQuery('is bob fine', indexReport(lettersReport, catalog)),
      undefined,
    ],
    ['e-mail addresses in a question (subjects.ts)', () => unknownSubject(`${run('a')}!`, plain), undefined],
    [
      'names in a question about the past (subject-history.ts)',
      () => subjectHistoryQuestion(`was ${run('0')}!`, plain, noDays),
      undefined,
    ],
    ['white space in report text told to a model (model-reader.ts)', () => asInstructionData(`${run(' \n')}x<`), ' x\u2039'],
    [
      'a line of catalog guidance that is not a bullet (compose.ts guidanceBullets)',
      () => guidanceBullets(`- ${run(' ')}x\ry`).map((line) => [line.length, line.slice(0, 3), line.slice(-4)]),
      [[run(' ').length + 6, '\\- ', ' x y']],
    ],
    [
      'trailing dots and spaces of an archived file name (zip-writer.ts)',
      () => archiveName(`a${run('.', 512_000)}b`).length,
      512_002,
    ],
    [
      '"did … stale" (expiring.ts)',
      () => expiringQuery(askedOf('', [], plain, `what expires ${run('had ', 640_000)}`))?.kind,
      'expiring',
    ],
    [
      '"how many … gaps" (parse-query.ts)',
      () => parseQuery(`soc 2 readiness ${run('how many ', 1_200_000)}`, [], plain),
      { kind: 'readiness', framework: 'soc2', gaps: false },
    ],
    ['"what … accepted" (parse-query.ts)', () => parseQuery(run('what ', 900_000), [], plain), undefined],
    ['"from … to" (parse-query.ts)', () => parseQuery(`2026-11-10 2026-11-18 ${run('from ', 900_000)}`, [], plain), undefined],
    ['"which owner … most" (parse-query.ts)', () => parseQuery(run('which owner ', 900_000), [], plain), undefined],
    ['"which framework … closest" (parse-query.ts)', () => parseQuery(run('what standard ', 1_000_000), [], plain), undefined],
    ['a list of severities (question-cues.ts severityCue)', () => severitiesIn(`low${run(' or critical', 1_500_000)}s`), []],
    [
      '"who approved … exception" (question-cues.ts)',
      () => asksNotInReport(`${run('who approved ', 3_000_000)}exceptions`),
      false,
    ],
    ['a JWT in a log string (logs.ts redact)', () => redact(`${run('eyJ', 640_000)}.`).length, 640_003],
  ])('%s', async (_where, apply, expected) => {
    expect(await apply()).toEqual(expected);
  });

  it('a webhook host with a run of dots (webhook-targets.ts), at the longest URL accepted', () => {
    const url = `https://a${'.'.repeat(2000)}b.example/`;
    expect(checkTargetUrl(url, { allowLoopback: false })).toEqual({ url: new URL(url) });
  });

  it('an owner whose name is not a valid pattern (entities.ts) is read as text', () => {
    const owned = reportWith({}, { 'IAM-01': 'C++ (platform) lead' });
    const query = parseQuery('what does the c++ (platform) lead own', [], indexReport(owned, catalog));
    expect(query).toMatchObject({ kind: 'owner', owner: 'C++ (platform) lead' });
  });
});

describe('the rewritten expressions read short text as the old ones did', () => {
  /** Texts of up to 14 pieces from `pieces`, with the separators the expressions stop at. */
  const texts = (pieces: string[]) =>
    fc.array(fc.constantFrom(...pieces, ' ', '?', ',', 'x', '\n', '\u2028'), { maxLength: 14 }).map((parts) => parts.join(''));
  const same = (arbitrary: fc.Arbitrary<string>, before: (text: string) => unknown, after: (text: string) => unknown) =>
    fc.assert(
      fc.property(arbitrary, (text) => {
        expect(after(text)).toEqual(before(text));
      }),
      { numRuns: 2000 },
    );

  it.each<[RegExp, RegExp, RegExp, (string | RegExp)?]>([
    [
      /\b(did|went|was|were|had|has been)\b[^?]*\b(stale|expire|lapse)/,
      /\b(did|went|was|were|had|has been)\b/,
      /\b(stale|expire|lapse)/,
    ],
    [/\bhow many [^?]*\bgaps\b/, /\bhow many /, /\bgaps\b/],
    [
      /\b(what|which|anything|something)\b[^?]* (we )?(have )?accepted\b/,
      /\b(what|which|anything|something)\b/,
      / (we )?(have )?accepted\b/,
    ],
    [/\bfrom\b.*\bto\b/, /\bfrom\b/, /\bto\b/, lineBreaks],
  ])('followedBy answers as %s', (before, first, then, breaks) => {
    const words = [...new Set(before.source.match(/[a-z]+/g))].flatMap((word) => [word, `${word} `]);
    same(
      texts(words),
      (text) => before.test(text),
      (text) => followedBy(text, first, then, breaks),
    );
  });

  it('asksNotInReport answers as the expression with a look-ahead from every "who …"', () => {
    const before =
      /\bwho(?:'s| is| was| will be)?(?: the)? on[- ]call\b|\bon[- ]call (?:schedule|rota|rotation|roster)\b|\bwho (?:approved|signed(?: off)?|authori[sz]ed|merged|deployed|wrote|released|pushed|made|created|changed|configured|set up|opened|introduced|caused|broke|disabled|enabled|turned off|deleted|removed)\b(?!.*\bexceptions?\b)/;
    same(
      texts(['who ', 'approved', 'signed', ' off', 'exception', 'exceptions', 'on call', ' is', ' the', ' schedule']),
      (text) => before.test(text),
      asksNotInReport,
    );
  });

  it('severityCue finds the lists the expression tried from every severity found', () => {
    const before =
      /\b(critical|high|medium|low)(?:(?:,? (?:or|and|and\/or) |, |\/)(?:critical|high|medium|low))*(?:[- ](?:severity|sev|risk|priority))?\s+(controls?|ones|issues|problems|findings|risks|items|failures|gaps)\b|\b(critical|high|medium|low)(?:(?:,? (?:or|and|and\/or) |, |\/)(?:critical|high|medium|low))*[- ]sev(?:erity)?\b/g;
    const lists = texts([
      'low',
      'high',
      'critical',
      ' or ',
      ', ',
      ' and ',
      '/',
      ', and/or ',
      ' severity',
      '-sev',
      ' controls',
      'slow',
    ]);
    const found = (pattern: RegExp) => (text: string) => [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);
    same(lists, found(before), found(severityCue));
  });
});

/** A model prompt's input whose one citation quotes `quote` (a finding message). */

/** The folders (and files) whose expressions run over stored or request text. */
const audited = [
  'functions/src/chat',
  'functions/src/evidence',
  'functions/src/common/ocsf-findings.ts',
  'functions/src/reports/control-history-csv.ts',
  'functions/src/docs',
  'functions/src/http',
  'functions/src/webhooks',
  'functions/src/logs.ts',
  'functions/src/audit/zip-writer.ts',
  'functions/src/requests',
  'scripts/lib/collector',
];

function sourcesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => sourcesIn(join(path, name)));
}

interface Found {
  where: string;
  text: string;
}

/** Every expression literal and every `new RegExp(…)` of the audited sources, by file and line. */
function expressions(): { literals: Found[]; built: Found[] } {
  const literals: Found[] = [];
  const built: Found[] = [];
  for (const file of audited.flatMap((path) => sourcesIn(join(paths.root, path))).filter((file) => file.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const where = `${relative(paths.root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) literals.push({ where, text: node.getText(source) });
      else if (ts.isNewExpression(node) && node.expression.getText(source) === 'RegExp')
        built.push({ where, text: node.getText(source) });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, built };
}

/**
 * The expressions built at run time, by file, and what keeps each linear: the sweep cannot run
 * them on their own. A new one fails here until it is looked at and listed.
 */
const builtAtRunTime: Record<string, string> = {
  'functions/src/chat/offline/expiring.ts': 'a global copy of a cue the sweep runs',
  'functions/src/chat/offline/parse-query.ts': 'global copies of the span cues the sweep runs',
  'functions/src/chat/offline/question-cues.ts': 'global copies of literals the sweep runs',
  'functions/src/chat/offline/topics.ts': 'global copies of the cues the sweep runs, and escaped framework ids',
  'functions/src/http/route-table.ts': 'the spec’s path templates: literal text and `([^/]+)` between slashes',
};

describe('every expression literal of the audited folders, on runs of characters and of its own words', () => {
  const { literals, built } = expressions();

  it('lists every expression built at run time with what keeps it linear', () => {
    expect([...new Set(built.map((found) => found.where.split(':')[0]!))].sort()).toEqual(Object.keys(builtAtRunTime).sort());
  });

  const characters = [
    ' ',
    '\t',
    '\n',
    'a',
    'A',
    '0',
    '.',
    '-',
    '_',
    '/',
    '@',
    '{',
    '[',
    '(',
    ',',
    ':',
    '"',
    "'",
    '\u2028',
    '+',
    '\\',
    '?',
    '=',
  ];
  /** What to repeat against one expression: single characters, and each word it names with a space (at most 40). */
  const unitsFor = (source: string) => [
    ...characters,
    ...[...new Set(source.match(/[a-z]{2,}/gi) ?? [])].slice(0, 40).map((word) => `${word} `),
  ];

  it.each(literals.map((found) => [found.where, found.text] as const))('%s %s', (_where, text) => {
    const pattern = new Function(`return ${text}`)() as RegExp;
    const units = unitsFor(pattern.source);
    const read = units.map((unit) => {
      const input = `${unit.repeat(Math.ceil(256_000 / unit.length))}\u0000`;
      // A fresh copy for each input, so a global expression starts from the beginning.
      const copy = new RegExp(pattern.source, pattern.flags);
      return copy.global ? input.replace(copy, '').length : copy.test(input);
    });
    expect(read).toHaveLength(units.length);
  });
});
