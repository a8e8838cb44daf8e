/**
 * How questions name a control's status, in one table for every part of the reader: the phrases
 * `statusesIn` reads (question-cues.ts), the words the topic search sets aside so "why is backup
 * failing" looks for backups (vocabulary.ts), and the words a slip is put right to, "faling" read
 * as "failing" (known-words.ts). `attention` is every open status at once ("any problems").
 */
import type { ControlStatus } from '../../assessment/model.js';

interface StatusWords {
  /** The phrases that name it in a (lower-cased) question. */
  phrases: RegExp;
  /** Its words, which say what is asked rather than about what. */
  words: string;
  /** Those long enough to stay recognisable after a slip ("stale" and "red" are too close to other words). */
  correctable: string;
}

/**
 * What an auditor would flag: the exceptions of an audit's testing, controls that fail it — not
 * the exceptions a team grants, accepted risks.
 */
export const auditFinding =
  /\b(?:auditors? (?:would |will |might |could |may )?(?:flag|find|raise|cite|call out)|flag(?:ged)? as (?:an )?exceptions?|audit exceptions?)\b/;

/** The phrases of each status, in the order of the table below. */
const attention =
  /\b((has|have|did|do|does|is|are)n'?t (yet )?pass\w*|(not|never) (yet )?pass(ed|es)?|need\w* (attention|work|fixing)|attention|problems?|issues?|gaps?|risks|any risk|wrong|to ?do|action needed|unhealthy|not (ok|okay|passing|green|compliant)|out of compliance|concerns?|weak\w*|red flags?|worr\w*|escalat\w*|not (yet )?met|unmet|(is|are)n'?t met|open(?! to\b)|outstanding|unresolved|hold\w* (us |it |them )?(back|up)|held (us |it |them )?(back|up)|(on|off) [\w' ]{0,30}plate)\b/;
const notApplicable =
  /\b(not applicable|n\/a|scoped out|out of scope|excluded|exempt\w*|(doesn'?t|does not|do not|don'?t) apply)\b/;
const failing = /\b(fail\w*|broken|red|non-?compliant|violat\w*|not operat\w* effectively|ineffective)\b/;
const stale = /\b(stale|out[- ]of[- ]date|outdated|expired|too old|old evidence|not fresh|overdue evidence)\b/;
const missing = /\b(missing|no evidence|never (been )?(received|submitted|sent)|without (any )?evidence|unevidenced)\b/;
const passing = /\b(passing|passes|passed|pass|green|in good shape)\b/;

type Status = ControlStatus | 'attention';
const entry = (status: Status, phrases: RegExp, words = '', correctable = ''): [Status, StatusWords] => [
  status,
  { phrases, words, correctable },
];

export const statusWords: [Status, StatusWords][] = [
  entry('attention', attention, 'attention wrong problem problems issue issues', 'attention problem problems issues unhealthy'),
  entry('not_applicable', notApplicable, 'applicable', 'applicable'),
  entry('failing', failing, 'fail failing failed failure failures broken red', 'failing failed failure failures'),
  entry('stale', stale, 'stale'),
  entry('missing', missing, 'missing', 'missing'),
  entry('passing', passing, 'pass passing passed green', 'passing passed'),
  entry('attention', auditFinding),
];

const listed = (pick: (words: StatusWords) => string) =>
  statusWords.flatMap(([, words]) => pick(words).split(' ').filter(Boolean));

/** Every status word, as the topic search sets them aside. */
export const statusWordList = listed((words) => words.words);

/** The status words a misspelling is corrected to. */
export const correctableStatusWords = listed((words) => words.correctable);
