/**
 * How text becomes search terms (one tokenizer and stemmer for the index and the question, so both sides meet) and the
 * words that carry no topic. What people call a control's subject ("MFA", "pentest") is catalog data: its `aliases`.
 */
import { statusWordList } from './offline/status-words.js';

/**
 * Ids keep their punctuation so `CC6.1`, `A.5.17`, `ia-2.1` and `IAM-01` stay one term; any other run of letters or
 * digits is a word. Tried in this order at each position, so an id is only recognised where a word starts.
 */
export const tokenize = (text: string): string[] => text.toLowerCase().match(/[a-z]{1,3}\d*(?:[.-]\d+)+|[\p{L}\p{N}]+/gu) ?? [];

/**
 * A deliberately small stemmer: plurals and the -ing/-ed/-ion/-e endings, so "backups" meets "backup" and "encryption"
 * meets "encrypted". It only has to be the same on both sides, not linguistically right.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ion', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      // "logging" → "logg" → "log", "scanned" → "scann" → "scan"; but "enroll", "pass" keep theirs.
      if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Whether `typed` is one edit from `word`: a letter inserted, dropped or replaced, or two swapped ("fialing"). */
export function isOneEditFrom(typed: string, word: string): boolean {
  if (typed === word || Math.abs(typed.length - word.length) > 1) return false;
  let at = 0;
  while (typed[at] === word[at]) at++;
  if (typed.length === word.length) {
    if (typed.slice(at + 1) === word.slice(at + 1)) return true;
    return typed[at] === word[at + 1] && typed[at + 1] === word[at] && typed.slice(at + 2) === word.slice(at + 2);
  }
  return typed.length < word.length ? typed.slice(at) === word.slice(at + 1) : typed.slice(at + 1) === word.slice(at);
}

/** Words that say nothing about which control is meant. */
export const stopWords: ReadonlySet<string> = new Set(
  (
    'a an the is are was were be been being am do does did doing done have has had having of in on at to for from by with ' +
    'about as into onto and or but if then than so not no nor it its this that these those them they their there here we our ' +
    'ours us you your yours i me my mine he she his her what which who whom whose when where why how can could should would ' +
    'will shall may might must any all some each every tell show give list please s t let know get got hey hi hello ok okay ' +
    'just now currently current today right thing things one ones also up out more most much many very really like want need ' +
    'see look looking going way lot lots bit kind sort whether else other another same such only own again still yet ever ' +
    'already anything something everything nothing either neither both few re ll ve d m don doesn isn aren wasn weren haven ' +
    'hasn didn won wouldn shouldn couldn altogether ' +
    // Words every control is about, which would otherwise match half the catalog.
    'security secure compliance compliant company organisation organization environment stuff area areas side aspect aspects ' +
    'regard regarding related relating concerning topic overall use uses using used make makes made ensure ensured happening'
  ).split(' '),
);

/**
 * Words that say what is asked (a status, evidence, a fix, a change) rather than about what, kept out of the topic search
 * so "why is backup failing" looks for backups, not every finding that says "fail". Compared after stemming.
 */
export const questionWords: ReadonlySet<string> = new Set(
  [
    ...(
      'status statuses state control controls requirement requirements report reports score scores posture summary summarise ' +
      'summarize overview overall evidence support supports supporting proof prove proves fix fixed fixing remediate ' +
      'remediation resolve resolved repair solve recommend recommendation guidance step steps why reason reasons explain ' +
      'cause since differ different difference compare compared newly yesterday week weeks day days ago last previous earlier back ' +
      'before doing healthy health ok fine good bad working severity riskiest biggest worst urgent priority priorities top ' +
      'first gap gaps detail details framework frameworks mapped maps map soc soc2 iso iso27001 27001 nist 800 53 annex ' +
      'calculate calculated calculation compute computed formula weighted weighting methodology ' +
      'criterion criteria clause date dates dated recorded information info something happen happened going does mean means look looks'
    ).split(' '),
    ...statusWordList,
  ].map(stem),
);

const isTopicWord = (token: string) => !stopWords.has(token) && !questionWords.has(stem(token)) && !stopWords.has(stem(token));

/** The question's topic words, stemmed: tokens that are neither filler nor about what kind of answer is wanted. */
export function topicTerms(text: string): string[] {
  return [...new Set(tokenize(text).filter(isTopicWord).map(stem))];
}

/** The same words as the question wrote them, to name the topic back: "backups", "laptops patched". */
export function topicWords(text: string): string {
  return [...new Set(tokenize(text).filter(isTopicWord))].join(' ');
}

/** Text put in an expression as itself. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
