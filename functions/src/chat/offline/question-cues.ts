/**
 * The phrases that say what a question asks, apart from its topic: requests the report can never
 * answer, the cues for changes, fixes, evidence, reasons, posture, rankings, frameworks and
 * objectives, and the statuses and severities a question names.
 */
import type { ControlStatus, Severity } from '../../assessment/model.js';
import type { ChangeFocus } from '../question.js';
import { controlStatuses, openStatuses } from '@evident/contract';
import { statusWords } from './status-words.js';

export const attentionStatuses: ControlStatus[] = [...openStatuses];

/** Requests the report can never answer, however they are worded (and instructions aimed at the assistant itself). */
export const offTopic =
  /\b(ignore (all |any |the |your )?((previous|prior|above|earlier) )?(instructions|prompts?|rules)|system prompt|jailbreak|pretend (to be|you are)|revenue|profits?|fees?|pricing|prices?|costs?|how much (?:does|do|would|will|is|are) [a-z0-9 ]{0,40}(?:cost|charge)\w*|earnings|salar(y|ies)|payroll|budget|weather|forecast|jokes?|funny|poems?|poetry|haiku|songs?|lyrics|recipes?|cook(ing)?|restaurants?|movies?|films?|sports?|football|soccer|basketball|baseball|world cup|super bowl|olympics|stock price|share price|bitcoin|cryptocurrenc\w*|lottery|horoscope|translate|capital of|meaning of life|who (won|invented|wrote|painted)|your name|are you (a |an )?(bot|ai|human|robot)|what time is it|what day is it|dating|girlfriend|boyfriend|vacation|holiday plans?|performance reviews?|appraisals?|promotions?|(sick|parental|annual) leave|pto|time off|birthdays?|job interviews?|how (do|can|should) i (reset|change|recover|unlock) my|(?:give|send|tell|show|share) (?:me|us) (?:the |our |your |their )?(?:admin |root |login |master )?(?:passwords?|credentials|api keys?|private keys?|secret keys?)|what(?:'s| is) (?:the|our) (?:(?:admin|root|login|master) password|password (?:for|to|of)\b)|cheaper|(recommend|suggest) (a|an|some|another) (product|tool|vendor|alternative)|alternatives? to|(?:to|should (?:we|i)|could (?:we|i)) (?:buy|purchase)|legal(?:ly)? (?:required|obliged|obligated|advice|liab\w*)|lawyers?|attorneys?|how many (?:people|employees|staff|engineers|contractors) (?:work|are (?:there|employed)|do we (?:have|employ))|best (?:\w+ ){0,3}(?:products?|tools?|software|brands?) (?:to|for))\b/;

/**
 * Requests to act rather than to be told ("mark VEN-02 as passing", "ok, then email Datadog", "draft our incident
 * policy"): the chat reads the report, it changes nothing and contacts no one. A summary, list or update asked for in
 * writing ("write a summary for the board") is a question about the report, not an action.
 */
export const actionRequest =
  /^(?:(?:ok(?:ay)?|so|then|now|great|thanks|please|pls|and|alright|right|just)[,.!]? +)*(?:(?:can|could|would|will) you (?:please )?|please |go ahead and |i (?:need|want) you to )?(?:mark|flip|edit|delete|remove|approve|reject|assign|reassign|override|waive|mute|unmute|suppress|upload|attach|email|e-mail|send|forward|notify|message|contact|ping|slack|remind|book|raise|create|draft|write|compose|generate|fill (?:in|out)|set (?:\S+ )?(?:to|as)|change (?:\S+ )?(?:to|as)|schedule|invite|reset|re-?run|re-?trigger|trigger|restart|kick off|disable|enable|revoke|rotate|deactivate|reactivate|grant|reopen|close|escalate|open (?:a|an) (?:ticket|issue|incident|jira\w*|pr|pull request)|make (?!sure\b|sense\b|a list\b)|fix (?:it|this|that|them|the|our|\w+-\d+)|(?:turn|switch) (?:on|off)\b)\b(?![^.?!]*\b(?:summary|summari[sz]e|overview|recap|update|brief\w*|list|status|paragraph|report card)\b)/;

/**
 * The verbs of a request to act, anywhere in the question: a cheap test first, since V8 takes over 10 ms to compile
 * `actionRequest` on a cold instance and most questions have none of them.
 */
const actionVerb =
  /\b(?:mark|flip|edit|delete|remove|approve|reject|assign|reassign|override|waive|mute|unmute|suppress|upload|attach|e-?mail|send|forward|notify|message|contact|ping|slack|remind|book|raise|create|draft|write|compose|generate|fill|set|change|schedule|invite|reset|re-?run|re-?trigger|trigger|restart|kick|disable|enable|revoke|rotate|deactivate|reactivate|grant|reopen|close|escalate|open|make|fix|turn|switch)\b/;

/** Whether the question asks the chat to act (`actionRequest`), in any of its sentences ("We have it on file. Mark it passing."). */
export const asksToAct = (text: string): boolean =>
  actionVerb.test(text) &&
  text
    .split(/[.!?;:]\s+|,\s+(?=(?:just|please|so|then|now|can you|could you) )/)
    .some((sentence) => actionRequest.test(sentence));

/**
 * A forecast ("which control is going to fail next?", "what will the score be at the end of December?"): the reports
 * record what was found up to their day; what evidence will go stale and what falls due are dates they hold, not this.
 */
export const prediction =
  /\b(?:going to (?:fail|break|pass|drop|fall|rise|improve)|(?:fail|break)s? next|next (?:one )?to (?:fail|break)|(?:likely|expected) to (?:fail|break|pass)|predict\w*|forecast\w*|will (?:it|the score|our score|we|readiness|our readiness) (?:be|look|end up|score|drop|fall|rise) (?:at|on|by|in|next|like)\b|will (?:our |the )?(?:[\w.-]+ ){0,3}(?:readiness|score|posture) (?:be|look|end up)\b|will (?:[\w.-]+ ){1,4}(?:be |get )?(?:fixed|remediated|resolved|closed|passing|pass|met|ready|compliant)\b)/;

/** "The people controls with their current status": each control asked about, whatever its status. */
export const withTheirStatus = /\bwith (?:their|its|each(?:'s)?) (?:current |latest )?(?:status|state)(?:es)?\b/;

/** What ends a line for `.` in an expression: text split at these reads as `.*` does. */
export const lineBreaks = /[\n\r\u2028\u2029]/;

/**
 * Whether `first` is followed by `then` within a part of the text ending at `breaks`: `/first[^?]*then/` in one pass,
 * where that expression is quadratic on a sentence repeating `first`. Neither is global; `then` reads the rest of the
 * part as a text of its own, so a `\b` starting it must not depend on the character before.
 */
export function followedBy(text: string, first: RegExp, then: RegExp, breaks: string | RegExp = '?'): boolean {
  return text.split(breaks).some((part) => {
    const found = first.exec(part);
    return found !== null && then.test(part.slice(found.index + found[0].length));
  });
}

const notInReportCue =
  /\bwho(?:'s| is| was| will be)?(?: the)? on[- ]call\b|\bon[- ]call (?:schedule|rota|rotation|roster)\b|\b(?:auditors?|auditor's) (?:write|wrote|said|say|found|noted?|opinion|letter|comments?)\b|\bhow many (?!(?:[a-z]+ )?(?:controls?|requirements?|findings?|frameworks?|subjects?|checks?|items?|days?|reports?|criteria|exceptions?|risks?)\b)[a-z]+(?: [a-z]+)? (?:do|does|did) (?:we|you|the company|our company|(?!it\b|they\b|this\b|that\b|these\b|those\b)[a-z]+) (?:have|employ|serve|run|use)\b/;
const whoDid =
  /\bwho (?:approved|signed(?: off)?|authori[sz]ed|merged|deployed|wrote|released|pushed|made|created|changed|configured|set up|opened|introduced|caused|broke|disabled|enabled|turned off|deleted|removed)\b/g;

/**
 * Facts the report never holds: inventories ("how many employees do we have") and who did what outside the evidence
 * ("who approved the last change"). Exceptions are the one approval it records, so "who …" with "exception" later on its
 * line is not refused. The line's last "who …" decides (what follows it follows the others too): one pass, no look-ahead.
 */
export function asksNotInReport(text: string): boolean {
  if (notInReportCue.test(text)) return true;
  return text.split(lineBreaks).some((line) => {
    const last = [...line.matchAll(whoDid)].at(-1);
    return last !== undefined && !/\bexceptions?\b/.test(line.slice(last.index + last[0].length));
  });
}

/** Frameworks and standards the catalog does not map to: a question about one is about something the report never holds. */
export const otherFramework =
  /\b(fedramp|pci(?:[ -]?dss)?|hipaa|hitrust|gdpr|ccpa|cmmc|sox|sarbanes[ -]oxley|nis ?2|dora|csa star|cis (?:controls|benchmarks?)|cobit|tisax|cyber essentials|essential eight|irap|iso(?:[ /-]?iec)?[ -]?(?:27017|27018|27701|42001|9001|22301|14001))\b/;

export const cues = {
  changes:
    /\b((were|was|got|been|get|gotten) fixed|recovered|(went|changed|moved|flipped|turned) from (passing|green|failing|red) to|did (we|you|they|the team) (fix|resolve|close|remediate)|(we|they) (fixed|resolved|closed|remediated)|broke|started failing|changed|changes since|what'?s new|what is new|(any|recent|latest|new) changes|differen(t|ce)s?|compared?|diff|went (up|down)|gone (up|down)|(got|get|getting|gotten) (better|worse)|improved|regress\w*|worse|trend|(failures?|problems?|issues?|failing ones) (are |is )?new)\b/,
  fix: /\b(fix|fixing|remediat\w*|resolve|repair|address|solve|make (it|them|that|this|\w+(-\d+)?) pass|get (it|them|that|this) (to )?pass(ing)?|what (should|can|do|must) (we|i) do|how (do|can|should|would|to) (we |i )?(fix|get|make|resolve|improve|handle|address|remediate|close)|next steps?|recommend\w*|guidance)\b/,
  evidence:
    /\b(evidenced?|proof|proves?|proven|supports?|supporting|backs? (it|this|that) up|based on|sources?|artifacts?|which (items|data|records)|what (items|data|records))\b/,
  why: /\b(why|how come|explain\w*|reasons?|what'?s wrong|what is wrong|what went wrong|causes?|caused|details?|more about|elaborate)\b/,
  posture:
    /\b(how (are|is|'re) (we|things|it|everything|the company|our security|security) (doing|looking|going)|how'?s it (going|looking)|how is it (going|looking)|scores?|posture|summary|summari[sz]e|overview|overall|big picture|in a nutshell|report card|tl;?dr|health|how (healthy|secure|compliant|good) (are we|is it)|are we ([\w.-]+ ){0,3}(compliant|secure|ok|okay|good|doing ok|audit[- ]ready|ready)|where (do )?we stand|state of (things|security|compliance)|(exec(utive)?|board|leadership|management|c-?level|ciso|ceo) (summary|overview|update|brief\w*|report|view)|(for|to) (the |our )?(board|leadership|management|execs?|executives|ciso|ceo|cto|auditors?))\b/,
  superlative:
    /\b(riskiest|biggest (risk|problem|issue|gap|concern)|most (critical|urgent|important|severe|pressing|serious|risky)|worst|top( \d+| three| five)? (risk|priority|priorities|issue|problem|concern)s?|highest (risk|priority)|first|(one|single|1) thing|start with|prioriti[sz]e)\b/,
  /** The framework requirements a control maps to ("Which frameworks does IAM-01 map to?"). */
  frameworks:
    /\b(frameworks?|mappings?|map(s|ped|ping)? (to|onto)|mapped|cross-?walk|(which|what) (?:[\w.-]+ ){0,3}(requirements?|criteria|clauses?) (does|do|is|are))\b/,
  /** A control's objective: "objective of ENC-04", "what is IAM-01 for?", "what does it check?". */
  objective:
    /\b(objectives? (of|for)|(the|its|their) (control'?s? )?(objectives?|purpose|goals?|aims?)|purpose of|[a-z]{2,5}[-_ ]?\d{1,3}'?s? (objectives?|purpose|goals?)|what (is|are) ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this|they|those) (for|about)|what does ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this) (require|check|cover|test)|(supposed|meant|intended|designed) to (ensure|achieve|do|prevent|protect)|why (does|do|would) ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this) matter|why (is|are) ([a-z]{2,5}[-_ ]?\d{1,3}|it|that|this) important)\b/,
  /** "Which of those are failing?" narrows the previous answer's controls, whatever else the words match. */
  ofThose:
    /\b(of|among|from|in) (those|these|them|they|that list)\b|\b(which|any|are any) (of )?(those|these|them|it)\b|^(and )?(are )?(those|these|they)\b|^(and )?which ones\b/,
  pronoun: /\b(it|its|that|this|these|those|them|they|their|the same)\b/,
  followUp: /^(and|also|plus|what about|how about|and what about|and how about|same for|what of|ok(ay)?,? (and|what about))\b/,
};

/** The statuses' phrases, in the order `statusesIn` takes them out of the text. */
const statusCues = statusWords.map(([status, words]) => [status, words.phrases] as const);

/**
 * A list of severities and what they qualify. Tried only from a list's first severity (the
 * look-behind): from each later one it rescanned the rest of the list, quadratic in a long one,
 * and found nothing the first one did not.
 */
export const severityCue =
  /(?<!\b(?:critical|high|medium|low)(?:,? (?:or|and|and\/or) |, |\/))\b(critical|high|medium|low)(?:(?:,? (?:or|and|and\/or) |, |\/)(?:critical|high|medium|low))*(?:[- ](?:severity|sev|risk|priority))?\s+(controls?|ones|issues|problems|findings|risks|items|failures|gaps)\b|(?<!\b(?:critical|high|medium|low)(?:,? (?:or|and|and\/or) |, |\/))\b(critical|high|medium|low)(?:(?:,? (?:or|and|and\/or) |, |\/)(?:critical|high|medium|low))*[- ]sev(?:erity)?\b|\b(critical|high)(?= (?:failing|failures?|broken|stale|missing)\b)|\b(?:are|is) (?:any (?:of )?(?:them|those) )?(critical|high|medium|low)(?= ?(?:[?.!]|$))/g;

/** Every severity a question names in its severity phrases ("high or critical severity controls"). */
export const severitiesIn = (text: string): Severity[] => [
  ...new Set([...text.matchAll(severityCue)].flatMap((match) => match[0].match(/\b(critical|high|medium|low)\b/g) as Severity[])),
];

/**
 * Curly quotes and dashes as people's keyboards type them, in lower case, and requirement ids in the catalog's notation:
 * "Annex A 8.5" is A.8.5, "A.6.x" the A.6 series, and a range ("A.5.19 - A.5.22", "CC6.1 to CC6.3") each id in it.
 */
export function normalize(text: string): string {
  return (
    text
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/[\u2010-\u2014]/g, '-')
      .toLowerCase()
      .trim()
      .replace(/\bannex a[ .]?(\d+)\.(\d+)\b/g, 'a.$1.$2')
      .replace(/\b(a\.\d+|cc\d+)\.x\b/g, '$1')
      // Words that only stress what is asked: "every single day", "just the number", "since what date".
      .replace(/\bevery single\b/g, 'every')
      .replace(/\b(?:just|only) (?:the|a) (?:number|count|figure|total)\b/g, ' ')
      .replace(/\bsince what (?:date|day)\b/g, 'since when')
      .replace(
        /\b(a\.\d+\.|cc\d+\.)(\d+) ?(?:-|to|through|thru) ?(?:\1)?(\d+)\b/g,
        (whole, series: string, first: string, last: string) => {
          const [from, to] = [Number(first), Number(last)];
          if (to <= from || to - from > 20) return whole;
          return Array.from({ length: to - from + 1 }, (_, at) => `${series}${from + at}`).join(' ');
        },
      )
  );
}

/** The statuses a question names, and the text with those phrases taken out ("not passing" is attention, not passing). */
export function statusesIn(text: string): { statuses: ControlStatus[]; rest: string } {
  const statuses = new Set<ControlStatus>();
  let attention = false;
  // "Stale or missing, rather than because a check fails", "leave out the stale ones", "(not merely stale or missing)":
  // the clause set aside names no status asked for.
  let rest = text.replace(
    /\b(rather than|instead of|not because|as opposed to|other than|leav(e|ing) out|excluding|except( for)?|apart from|not (merely|just|simply|counting|including))\b[^,.;?()]*/g,
    ' ',
  );
  // "Neither passing nor failing": every other status; "not failing but stale": that status is set aside.
  const neither = /\bneither (\w+) nor (\w+)\b/.exec(rest);
  const excluded = new Set<ControlStatus>();
  if (neither) {
    for (const word of [neither[1]!, neither[2]!])
      for (const [status, pattern] of statusCues) if (status !== 'attention' && pattern.test(word)) excluded.add(status);
    if (/\b(ignor\w*|except|excluding|not counting|besides) (the )?(n\/a|not applicable)/.test(text))
      excluded.add('not_applicable');
    rest = rest.replace(neither[0], ' ');
    if (excluded.size > 0)
      return { statuses: controlStatuses.filter((status) => status !== 'passing' && !excluded.has(status)), rest };
  }
  for (const negated of rest.matchAll(/\b(?:not|isn'?t|aren'?t|never) (failing|failed|stale|missing)\b/g)) {
    excluded.add(negated[1]!.startsWith('fail') ? 'failing' : (negated[1] as ControlStatus));
    rest = rest.replace(negated[0], ' ');
  }
  for (const [status, pattern] of statusCues) {
    if (!pattern.test(rest)) continue;
    rest = rest.replace(new RegExp(pattern.source, 'g'), ' ');
    if (status === 'attention') attention = true;
    else statuses.add(status);
  }
  // "Open because their evidence is stale or missing": the statuses named say which of the open ones.
  const specific = attentionStatuses.some((status) => statuses.has(status));
  if (attention && !specific) for (const status of attentionStatuses) statuses.add(status);
  for (const status of excluded) statuses.delete(status);
  // "Which endpoint controls aren't failing?" names no status it wants: every applicable one but those set aside.
  if (statuses.size === 0 && excluded.size > 0)
    return { statuses: controlStatuses.filter((status) => status !== 'not_applicable' && !excluded.has(status)), rest };
  return { statuses: [...statuses], rest };
}

/** "top 3 risks" → 3, "the riskiest control" → 1. */
export function limitIn(text: string): number {
  const count = /\b(?:top|riskiest|worst|first) (\d+|three|five)\b|\b(\d+|three|five) (?:riskiest|worst|most)\b/
    .exec(text)
    ?.slice(1)
    .find(Boolean);
  return count ? Math.min(10, count === 'three' ? 3 : count === 'five' ? 5 : Number(count)) : 1;
}

/** Which changes a question asks for; "has our posture improved?" is answered with what got better and what got worse. */
export function changeFocus(text: string): ChangeFocus {
  if (
    /\b(fixed|resolved|improved|better|now passing|recovered|went green|did (we|you|they|the team) (fix|resolve|close|remediate))\b/.test(
      text,
    )
  )
    return /^(has|have|did|is|are)\b/.test(text) && /\b(posture|score|things|we|security|compliance)\b/.test(text)
      ? 'all'
      : 'fixed';
  if (
    /\b(newly failing|new(ly)? fail\w*|broke|broken|started failing|went red|turned red|from (passing|green) to (failing|red)|regress\w*|worse|new (failures|problems|issues)|(failures?|problems?|issues?|failing ones) (are |is )?new)\b/.test(
      text,
    )
  )
    return 'newlyFailing';
  if (/\b(newly stale|went stale|became stale|gone stale|new(ly)? stale)\b/.test(text)) return 'newlyStale';
  return 'all';
}
