/**
 * The controls a question is about: those it names by id or framework requirement, those a search
 * of the report's text finds for its remaining words, those the previous answer cited (for "why?"),
 * or, with no topic at all, those in the statuses it names, riskiest first.
 */
import type { ControlStatus, Severity } from '../../assessment/model.js';
import type { Topic } from '../question.js';
import { cues, statusesIn } from './question-cues.js';
import type { frameworkMatches } from '../report-index.js';
import { rankByRisk, searchControls, sortIds, withoutControlIds, type ReportIndex } from '../report-index.js';
import { escapeRegExp, topicTerms, topicWords } from '../vocabulary.js';

export type FrameworkMatch = ReturnType<typeof frameworkMatches>[number];

/** The cues that say how a question asks, not what about; then courtesies, hedges and "the full list". */
const howCues = ['superlative', 'posture', 'changes', 'fix', 'evidence', 'why', 'frameworks', 'objective'] as const;
const howAsked = [
  ...howCues.map((cue) => new RegExp(cues[cue].source, 'g')),
  /\b(the|our|next|upcoming|this year'?s|an?) (external |annual |soc 2 |iso |surveillance )?(audit|assessment|certification)( period| window| fieldwork)?\b(?! (logs?|trails?|events?|records?))/g,
  /\b((the )?((full|complete|entire|whole|quick) )?(list|rundown|run-down|lowdown)|give me|pl[sz]|please|thanks?|thx|right now|rn|atm|currently|at the moment|sorry( if this is (a )?(basic|dumb|silly|stupid)( question)?)?|quick question|hi|hello|hey|what does '?\w+'? mean( here)?)\b/g,
];

/** The controls a question names by id or framework requirement: the most precise topic there is. */
export function namedTopic(ids: readonly string[], frameworks: readonly FrameworkMatch[]): Topic | undefined {
  if (ids.length === 0 && frameworks.length === 0) return undefined;
  return {
    controlIds: sortIds(new Set([...ids, ...frameworks.flatMap((framework) => framework.controlIds)])),
    label: [...ids, ...frameworks.map((framework) => framework.id)].join(', '),
    source: ids.length > 0 ? 'id' : 'framework',
  };
}

/**
 * The topic words of a question: what is left once the words that ask *how*, the named controls
 * and requirements and the named day are gone, with the label an answer's lead echoes.
 */
export function topicTermsOf(
  withoutStatuses: string,
  frameworks: readonly FrameworkMatch[],
  dayPhrase: string | undefined,
  index: ReportIndex,
): { terms: string[]; label: string } {
  let rest = withoutControlIds(
    index,
    howAsked.reduce((text, cue) => text.replace(cue, ' '), withoutStatuses),
  );
  for (const framework of frameworks) rest = rest.replace(new RegExp(escapeRegExp(framework.id.toLowerCase()), 'g'), ' ');
  if (dayPhrase) rest = rest.replace(dayPhrase, ' ');
  // "What changed" asks for the diff; "change management" is a topic.
  rest = rest.replace(/\bchang(e|es|ed|ing)\b(?! (management|process|control|request|approval|review))/g, ' ');
  const words = topicTerms(rest);
  // Numbers qualify a topic ("within 30 days") but are not one on their own ("top 3").
  return { terms: words.every((word) => /^\d+$/.test(word)) ? [] : words, label: topicWords(rest).slice(0, 80) };
}

/** A searched topic; `strong` when its words matched a title, family, framework id or subject, not only guidance prose. */
export type SearchTopic = { topic: Topic; strong: boolean };

/**
 * Keeps the controls that meet as many topic words as the best one and score within reach of it
 * (the score already favours controls meeting more of the words). A one-word topic also keeps
 * every control it names outright: by title ("training" → both training controls) or by family
 * ("backups" → the whole backup-and-recovery family).
 */
export function searchTopic(index: ReportIndex, terms: string[], label: string): SearchTopic | undefined {
  const hits = searchControls(index, terms);
  const best = hits[0];
  if (!best) return undefined;
  // With three or more words, one may be incidental ("are admins *using* phishing-resistant MFA").
  const slack = terms.length >= 3 ? 1 : 0;
  const kept = hits.filter(
    (hit) =>
      hit.covered.size >= best.covered.size - slack &&
      (hit.score >= best.score * 0.45 || (terms.length === 1 && (hit.named || hit.inFamily))),
  );
  // Words that find several controls of one family and name it ("vulnerability management", "vendor risk") ask for
  // the family; one control found stays that control ("are encryption keys rotated"), as does the one control whose
  // title says the words as they were asked ("vendor inventory").
  const familyOf = (id: string) => index.byId.get(id)?.result.family;
  const families = new Set(kept.map((hit) => familyOf(hit.id)));
  const phrase = ` ${terms.join(' ')} `;
  const titleHas = (id: string) => ` ${topicTerms(index.byId.get(id)?.result.title ?? '').join(' ')} `.includes(phrase);
  const familyHas = (id: string) => ` ${topicTerms(familyOf(id)?.replaceAll('-', ' ') ?? '').join(' ')} `.includes(phrase);
  const titled = terms.length > 1 && !kept.some((hit) => familyHas(hit.id)) ? kept.filter((hit) => titleHas(hit.id)) : [];
  if (titled.length === 1) kept.splice(0, kept.length, titled[0]!);
  else if (kept.length > 1 && families.size === 1 && kept.some((hit) => hit.inFamily))
    kept.push(...hits.filter((hit) => hit.inFamily && families.has(familyOf(hit.id)) && !kept.includes(hit)));
  return {
    topic: { controlIds: kept.map((hit) => hit.id), label, source: 'search' },
    strong: kept.some((hit) => hit.named || hit.inFamily),
  };
}

/** The controls the words name outright, past their status words: a title's, family's or alias's words, not guidance prose. */
export function controlsNamedIn(text: string, index: ReportIndex): string[] {
  const terms = topicTerms(statusesIn(text).rest);
  const found = terms.length > 0 ? searchTopic(index, terms, terms.join(' ')) : undefined;
  return found?.strong ? found.topic.controlIds : [];
}

/** "How do I fix the failing ones?" with no topic: the controls in those statuses, riskiest first. */
export function statusTopic(
  index: ReportIndex,
  statuses: ControlStatus[],
  severities: Severity[],
  superlative: boolean,
): Topic | undefined {
  const ids = rankByRisk(
    index.controls
      .map((entry) => entry.result)
      .filter((result) => statuses.includes(result.status) && (severities.length === 0 || severities.includes(result.severity))),
  ).map((result) => result.id);
  if (ids.length === 0) return undefined;
  return { controlIds: superlative ? ids.slice(0, 1) : ids, label: statuses.join(', '), source: 'status' };
}
