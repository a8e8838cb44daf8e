/**
 * The chat benchmark's data: a report of any size, made by repeating the starter catalog's
 * controls under their own ids (`BEN-001`…) with results in every status, and the questions to
 * time on it — one of each intent, follow-ups and a decline. The timed engine is the compiled one
 * (`functions/lib`), loaded when timing, because the sources import each other as `.js`; the
 * index is built once per report, as the chat family caches it, and the year of daily records is
 * in memory, as the history reader keeps it once read, so the figure is a warm answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Catalog, Control, ControlResult, ControlStatus, Finding, Report } from '../../functions/src/assessment/model.ts';
import type * as AnswerModule from '../../functions/src/chat/answer.ts';
import { severityWeights } from '@evident/contract';
import type { ChatTurn } from '../../functions/src/chat/question.ts';
import type * as ReportIndexModule from '../../functions/src/chat/report-index.ts';
import type { DayRecord, ReportDays } from '../../functions/src/chat/report-days.ts';
import { addDays } from '../../functions/src/assessment/dates.ts';
import { paths } from '../lib/paths.ts';
import { median } from './median.ts';

export interface BenchQuestion {
  message: string;
  history: ChatTurn[];
}

export interface ChatCorpus {
  report: Report;
  /** The report of the day before, for "what changed since"; a few controls' statuses differ. */
  earlier: Report;
  catalog: Catalog;
  /** A year of daily records (every seventh day without a report), for trends and histories. */
  days: DayRecord[];
  questions: BenchQuestion[];
}

const date = '2026-11-21';
const earlierDate = '2026-11-20';

/** Mostly passing, as a real report is: one in six failing, and a few stale, missing and not applicable. */
function statusOf(n: number, shift: number): ControlStatus {
  const slot = (n + shift) % 24;
  if (slot < 4) return 'failing';
  if (slot === 4) return 'stale';
  if (slot === 5) return 'missing';
  if (slot === 6) return 'not_applicable';
  return 'passing';
}

function findingsOf(control: Control, status: ControlStatus, n: number): Finding[] {
  const subject = `bench-subject-${n}`;
  const evidence = [`bench-${control.id.toLowerCase()}-${n}`];
  const kind = control.evidence[0]?.kind ?? 'attestation';
  const fill = (template: string) => template.replaceAll('{{subject}}', subject).replace(/\{\{[^}]*\}\}/g, 'x');
  const check = control.checks[0];
  switch (status) {
    case 'failing':
      return check ? [{ outcome: 'fail', check: check.id, kind, subject, message: fill(check.fail), evidence }] : [];
    case 'stale':
      return [
        { outcome: 'stale', kind, subject, message: `The newest ${kind} evidence for ${subject} is 40 days old.`, evidence },
      ];
    case 'missing':
      return [{ outcome: 'missing', kind, message: `No ${kind} evidence has been received.`, evidence: [] }];
    case 'not_applicable':
      return [{ outcome: 'not_applicable', kind: 'attestation', subject, message: 'Scoped out: not used here.', evidence }];
    case 'passing':
      return check ? [{ outcome: 'pass', check: check.id, kind, subject, message: fill(check.pass), evidence }] : [];
  }
}

function reportOf(day: string, catalog: Catalog, shift: number, previous: Report | null): Report {
  const controls: ControlResult[] = catalog.controls.map((control, n) => {
    const status = statusOf(n, shift);
    const findings = findingsOf(control, status, n);
    const kind = control.evidence[0]?.kind;
    // Every fifth control relies on evidence that ages on its own, going stale within weeks.
    const expiring =
      kind && n % 5 === 0 && status === 'passing'
        ? [
            {
              kind,
              subject: `bench-subject-${n}`,
              evidenceId: `bench-${n}`,
              staleAt: `${addDays(day, 3 + (n % 60))}T00:00:00.000Z`,
            },
          ]
        : [];
    return {
      id: control.id,
      title: control.title,
      family: control.family,
      severity: control.severity,
      owner: control.owner,
      status,
      findings,
      evidence: [...new Set(findings.flatMap((finding) => finding.evidence))],
      ...(expiring.length > 0 ? { expiring } : {}),
    };
  });
  const counts = { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 };
  let total = 0;
  let passing = 0;
  for (const result of controls) {
    counts[result.status]++;
    if (result.status === 'not_applicable') continue;
    total += severityWeights[result.severity];
    if (result.status === 'passing') passing += severityWeights[result.severity];
  }
  const before = new Map(previous?.controls.map((control) => [control.id, control.status]) ?? []);
  const changes = controls.flatMap(({ id, status }) => {
    const from = before.get(id);
    return from === undefined || from === status ? [] : [{ id, from, to: status }];
  });
  return {
    date: day,
    timeZone: 'UTC',
    asOf: `${day}T06:00:00.000Z`,
    generatedAt: `${day}T06:00:00.000Z`,
    runId: `bench-${day}`,
    catalogVersion: catalog.version,
    summary: { score: total === 0 ? 100 : Math.round((1000 * passing) / total) / 10, counts, controls: controls.length },
    controls,
    diff: {
      previousDate: previous?.date ?? null,
      newlyFailing: changes.filter((change) => change.to === 'failing').map((change) => change.id),
      fixed: changes.filter((change) => change.from === 'failing' && change.to === 'passing').map((change) => change.id),
      newlyStale: changes.filter((change) => change.to === 'stale').map((change) => change.id),
      changes,
    },
  };
}

/**
 * A report of `controls` controls over a catalog of as many, and questions covering every intent.
 * `source` is the catalog to repeat; by default the built one (`functions/lib/generated/catalog.json`).
 */
export function benchChatCorpus(controls: number, source?: Catalog): ChatCorpus {
  const real = source ?? (JSON.parse(readFileSync(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog);
  const catalog: Catalog = {
    version: `bench-chat-${controls}`,
    controls: Array.from({ length: controls }, (_, n) => {
      const control = real.controls[n % real.controls.length]!;
      return { ...control, id: `BEN-${String(n + 1).padStart(3, '0')}` };
    }),
    frameworks: real.frameworks,
    dueDays: real.dueDays,
  };
  const earlier = reportOf(earlierDate, catalog, 3, null);
  const report = reportOf(date, catalog, 0, earlier);
  const days = yearOfDays(catalog);
  const failing = report.controls.find((control) => control.status === 'failing')!.id;
  const middle = catalog.controls[Math.floor(controls / 2)]!.id;
  const cited: ChatTurn = {
    role: 'assistant',
    content: `${failing} is failing.`,
    citations: [{ controlId: failing, quote: `${failing} is failing.` }],
  };
  const ask = (message: string, history: ChatTurn[] = []): BenchQuestion => ({ message, history });
  return {
    report,
    earlier,
    catalog,
    questions: [
      ask('How are we doing?'),
      ask('What is failing?'),
      ask('What needs attention?'),
      ask(`What is the status of ${middle}?`),
      ask('Is multi-factor authentication enforced?'),
      ask('How are our backups?'),
      ask('Which controls map to CC6.1?'),
      ask('What changed since yesterday?'),
      ask('What got fixed since last week?'),
      ask(`Which evidence supports ${failing}?`),
      ask(`How do I fix ${failing}?`),
      ask('Why?', [{ role: 'user', content: `What is the status of ${failing}?` }, cited]),
      ask('and encryption?', [{ role: 'user', content: `What is the status of ${failing}?` }, cited]),
      ask('What is the weather in Paris?'),
      ask('How did the score change over the last year?'),
      ask('Show the score trend for the past quarter'),
      ask(`Was ${failing} passing all year?`),
      ask('Compare 2026-03-02 with 2026-11-20'),
      ask('Are we ready for a SOC 2 audit?'),
      ask('Which requirements of ISO 27001 A.8 are failing?'),
      ask('Which people do not have MFA enabled?'),
      ask('What evidence will go stale in the next 30 days?'),
      ask(`What does the ${catalog.controls[0]!.owner} own that is failing?`),
      ask('What is due before 2026-12-15?'),
    ],
    days,
  };
}

/** 365 days up to the report's, each with a summary and every control's status; every seventh day has no report. */
function yearOfDays(catalog: Catalog): DayRecord[] {
  const days: DayRecord[] = [];
  for (let back = 364; back >= 0; back--) {
    if (back % 7 === 3) continue;
    const day = addDays(date, -back);
    const statuses = Object.fromEntries(catalog.controls.map((control, n) => [control.id, statusOf(n, back % 24)]));
    const counts = { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 };
    for (const status of Object.values(statuses)) counts[status]++;
    days.push({ date: day, summary: { score: 60 + (back % 30), counts, controls: catalog.controls.length }, statuses });
  }
  return days;
}

/** The year of records as the chat reads them once cached: a scan of the span asked for. */
export const daysOf = (corpus: ChatCorpus): ReportDays => ({
  between: async (from, to) => corpus.days.filter((day) => day.date >= from && day.date <= to),
});

export interface ChatTiming {
  /** Building the report's index once, as the first question about a report does. */
  indexMs: number;
  /** Median and 95th percentile of answering each question with the index and history cached. */
  medianAnswerMs: number;
  p95AnswerMs: number;
  slowestAnswerMs: number;
}

/** Times the compiled engine (`functions/lib/chat`, so the functions must be built) on a corpus, `runs` rounds of every question. */
export async function timeChatAnswers(corpus: ChatCorpus, runs: number): Promise<ChatTiming> {
  const built = (relative: string) => import(pathToFileURL(join(paths.functionsLib, relative)).href);
  const { answerQuestion } = (await built('chat/answer.js')) as typeof AnswerModule;
  const { indexReport } = (await built('chat/report-index.js')) as typeof ReportIndexModule;
  const started = performance.now();
  const index = indexReport(corpus.report, corpus.catalog);
  const indexMs = performance.now() - started;
  const reportOn = async (day: string) => (day === corpus.earlier.date ? corpus.earlier : undefined);
  const days = daysOf(corpus);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const question of corpus.questions) {
      const asked = performance.now();
      await answerQuestion({ ...question, report: corpus.report, catalog: corpus.catalog, index, reportOn, days });
      times.push(performance.now() - asked);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const p95AnswerMs = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
  return { indexMs, medianAnswerMs: median(times), p95AnswerMs, slowestAnswerMs: Math.max(...times) };
}
