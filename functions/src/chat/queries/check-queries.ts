/**
 * Subject-level questions ("which people do not have MFA enabled", "which laptops aren't
 * patched"): the question's words are matched against the catalog's checks, by the check's id
 * and the evidence fields its expression reads (`item.data.mfaEnabled` → "mfa", "enabled"), so
 * the vocabulary is the evidence schemas' own. The answer lists the subjects each matched check
 * fails, from the report's findings, and how many pass.
 */
import type { Check, ControlResult } from '../../assessment/model.js';
import { plural } from '../../contract.js';
import { escapeMarkdown, type ComposedAnswer } from '../compose.js';
import { severityCue, statusesIn } from '../question-cues.js';
import { controlIdsIn, type ReportIndex } from '../report-index.js';
import { stem, stopWords, tokenize } from '../vocabulary.js';
import type { CheckMatch } from './query-model.js';
import { answered } from './report-queries.js';

/** Words too general to pick a check ("data", "item", "active" describe most of them). */
const generic = new Set(
  ['item', 'data', 'active', 'has', 'are', 'all', 'any', 'control', 'check', 'evidence', 'run', 'day'].map(stem),
);

/** The words a check answers to: its id's and those of the fields its expression reads, split at camelCase. */
function wordsOf(check: Check): Set<string> {
  const fields = [...`${check.expression} ${check.where ?? ''}`.matchAll(/\bdata\.([A-Za-z0-9]+)/g)].map((match) => match[1]!);
  const words = [...check.id.split('-'), ...fields.flatMap((field) => field.split(/(?<=[a-z0-9])(?=[A-Z])/))];
  return new Set(words.map((word) => stem(word.toLowerCase())).filter((word) => word.length >= 3 && !generic.has(word)));
}

/** The checks a subject-level question is about: those meeting the most of its words (at least one). */
export function checksAskedAbout(text: string, index: ReportIndex): CheckMatch[] {
  if (
    !/^(which|who|whose|list|show|what (people|users|accounts|devices|laptops|repos|repositories|buckets|hosts|vendors|keys))\b/.test(
      text,
    )
  )
    return [];
  // A question about controls, evidence or named controls is not about subjects; statuses and severities pick no check.
  if (/\b(controls?|evidence|requirements?)\b/.test(text) || controlIdsIn(index, text).length > 0) return [];
  const rest = statusesIn(text.replace(severityCue, ' ')).rest.replace(/\b(critical|high|medium|low)\b/g, ' ');
  const words = new Set(
    tokenize(rest)
      .filter((token) => !stopWords.has(token))
      .map(stem),
  );
  let best = 0;
  let found: CheckMatch[] = [];
  for (const { control } of index.controls) {
    for (const check of control?.checks ?? []) {
      const met = [...wordsOf(check)].filter((word) => words.has(word)).length;
      if (met === 0 || met < best) continue;
      if (met > best) found = [];
      best = met;
      found.push({ controlId: control!.id, check });
    }
  }
  return found.length <= 3 ? found : [];
}

export function answerChecks(matches: readonly CheckMatch[], index: ReportIndex): ComposedAnswer {
  const lines: string[] = [];
  const cited: ControlResult[] = [];
  for (const { controlId, check } of matches) {
    const result = index.byId.get(controlId)?.result;
    if (!result) continue;
    const findings = result.findings.filter((finding) => finding.check === check.id);
    const failing = findings.filter((finding) => finding.outcome === 'fail' || finding.outcome === 'error');
    const passing = findings
      .filter((finding) => finding.outcome === 'pass')
      .reduce((sum, finding) => sum + subjectsIn(finding.message), 0);
    lines.push(
      `**${result.id}** ${escapeMarkdown(result.title)}, check ${escapeMarkdown(check.id)} on ${check.kind} evidence: ` +
        (findings.length === 0
          ? `not evaluated in this report (the control is ${result.status.replace('_', ' ')}).`
          : `${failing.length === 0 ? 'no subject fails' : `${plural(failing.length, 'subject')} ${failing.length === 1 ? 'fails' : 'fail'}`}` +
            `${passing > 0 ? `; ${passing} pass` : ''}.`),
      ...failing.map((finding) => `- ${escapeMarkdown(finding.message)}`),
      '',
    );
    if (!cited.includes(result)) cited.push(result);
  }
  return answered(lines, cited);
}

/** Subjects a pass finding speaks for: "12 subjects pass mfa-enrolled." counts 12, one named subject 1. */
const subjectsIn = (message: string) => Number(/^(\d+) subjects pass\b/.exec(message)?.[1] ?? 1);
