/**
 * Whether what an answer to an auditor's request names exists, checked as cheaply as the API
 * that serves it can tell (docs/audit-requests.md § Answers): an evidence item, its claim; a
 * submission, its record (one stat); a population, `<date>/<kind>` of the request's control, the
 * day's report and its population header (what `GET /api/controls/{id}/population` reads
 * first); a sample of the control's days, the query of `GET /api/controls/{id}/sample`
 * (`from=…&to=…&size=…&seed=…`), which is made from its parameters and so exists when they are
 * valid. Each fault is an error of the request body, at the answer it is about.
 */
import { evidenceIdPattern, printableTextPattern, sampleLimits, submissionIdPattern } from '@evident/contract';
import { isCalendarDate } from '../assessment/dates.js';
import { ApiProblem, type RequestError } from '../http/problem.js';
import type { Answer } from '../requests/request-model.js';
import { periodFault } from '../requests/request-model.js';
import { ObjectNotFound } from '../storage/object-store.js';
import { submissionObjectName } from '../submissions/submission-store.js';
import { populationAsked } from './control-population.js';
import type { Services } from './services.js';

const evidenceId = new RegExp(evidenceIdPattern);
const submissionId = new RegExp(submissionIdPattern);
const printable = new RegExp(printableTextPattern, 'u');

/** Why the answer names nothing that exists, or undefined when it does. */
async function missing(s: Services, controlId: string, today: string, answer: Answer): Promise<string | undefined> {
  switch (answer.kind) {
    case 'evidence':
      if (!evidenceId.test(answer.ref)) return 'is not an evidence id';
      return (await exists(() => s.evidence.get(answer.ref))) ? undefined : `names no evidence item ("${answer.ref}")`;
    case 'submission':
      if (!submissionId.test(answer.ref)) return 'is not a submission id (sub-…)';
      return (await exists(() => s.store.stat(submissionObjectName(answer.ref))))
        ? undefined
        : `names no submission ("${answer.ref}")`;
    case 'population':
      return populationMissing(s, controlId, answer.ref);
    case 'sample':
      return sampleFault(answer.ref, today);
  }
}

async function exists(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    if (error instanceof ObjectNotFound) return false;
    throw error;
  }
}

async function populationMissing(s: Services, controlId: string, ref: string): Promise<string | undefined> {
  const slash = ref.indexOf('/');
  const date = ref.slice(0, slash);
  const kind = ref.slice(slash + 1);
  if (slash === -1 || !isCalendarDate(date) || kind === '') return 'is not a population key (<date>/<evidence kind>)';
  try {
    await populationAsked(s, controlId, { date, kind });
    return undefined;
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return `names no population: ${error.message}`;
    throw error;
  }
}

/** Why the query names no sample of days `GET /api/controls/{id}/sample` would draw. */
function sampleFault(ref: string, today: string): string | undefined {
  const query = new URLSearchParams(ref);
  const names = [...query.keys()];
  if (names.some((name) => !['from', 'to', 'size', 'seed'].includes(name)) || new Set(names).size !== names.length)
    return 'is not a sample key (from=…&to=…, with size=… and seed=… if chosen)';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const period = periodFault({ from, to });
  if (period) return `has a "${period.field}" that ${period.message}`;
  if (to > today) return `has a "to" after today (${today})`;
  const size = query.get('size');
  if (size !== null && !(/^\d{1,3}$/.test(size) && +size >= sampleLimits.size.minimum && +size <= sampleLimits.size.maximum))
    return `has a size that is not ${sampleLimits.size.minimum}\u2013${sampleLimits.size.maximum}`;
  const seed = query.get('seed');
  if (
    seed !== null &&
    (seed.length < sampleLimits.seed.minLength || seed.length > sampleLimits.seed.maxLength || !printable.test(seed))
  )
    return `has a seed that is not ${sampleLimits.seed.minLength}\u2013${sampleLimits.seed.maxLength} printable characters`;
  return undefined;
}

/** The body errors of answers that name nothing, at `/add/<index>/ref`; a few checked at once. */
export async function answerErrors(
  s: Services,
  controlId: string,
  today: string,
  answers: readonly Answer[],
): Promise<RequestError[]> {
  const faults: RequestError[] = [];
  for (let start = 0; start < answers.length; start += 8) {
    const batch = answers.slice(start, start + 8);
    const found = await Promise.all(batch.map((answer) => missing(s, controlId, today, answer)));
    found.forEach((message, index) => {
      if (message) faults.push({ in: 'body', pointer: `/add/${start + index}/ref`, message });
    });
  }
  return faults;
}
