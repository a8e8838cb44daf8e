/**
 * A question read as a structured query over the report and its history: what it selects
 * (framework, requirement, controls, owner, statuses, dates) and what it asks of the selection
 * (readiness, a trend, a comparison, a control's history, ownership, due dates, exceptions). The
 * parser (parse-query.ts) builds one; the answerers run it against the data and cite what they
 * state. Questions that are not such a query go to the intent classifier (intents.ts).
 */
import type { Check, ControlStatus, Finding, ReportSummary } from '../../assessment/model.js';
import type { FrameworkId } from '@evident/contract';

/** A span of days, both ends included, with how the question said it. */
export interface Period {
  from: string;
  to: string;
  phrase: string;
}

export type Query =
  | {
      kind: 'readiness';
      framework: FrameworkId;
      /** The requirements or series the question narrows to ("CC7", "A.8"), as the catalog spells them. */
      requirements?: string[];
      /** "Which requirements have no control" asks for the gaps, not the controls. */
      gaps: boolean;
      statuses?: ControlStatus[];
    }
  | { kind: 'trend'; period: Period; framework?: FrameworkId }
  /** Controls in the statuses asked on every day of a span that has a report (`every`), or on at least one. */
  | { kind: 'throughout'; period: Period; statuses: ControlStatus[]; every: boolean }
  /** One day against the report before it: "what was the score on the 15th", "what broke on Nov 14". */
  | { kind: 'day'; date: string; phrase: string }
  /** The day the score moved most (against the report before it) in the history. */
  | { kind: 'biggestMove'; direction: 'down' | 'up' }
  /** Owners by how many of their controls need attention. */
  | { kind: 'ownersRanked' }
  /** The frameworks by readiness. */
  | { kind: 'frameworksRanked' }
  /** Findings shown for information only, such as a scanner's muted ones. */
  | { kind: 'muted' }
  /** What has needed attention the longest, by each control's `openSince`. */
  | { kind: 'openLongest' }
  /** Controls by the kinds of evidence the catalog asks of them: "which controls rely only on attestations". */
  | { kind: 'evidenceKinds'; kinds: string[]; only: boolean }
  /** The subjects behind the previous answer's controls: "which repository is affected?", "whose are they?". */
  | { kind: 'findings'; controlIds: string[] }
  /** Who owns named controls (or the previous answer's) and when each is due. */
  | { kind: 'ownership'; controlIds: string[] }
  | { kind: 'compare'; earlier: string; later: string; phrase: string }
  | { kind: 'controlHistory'; controlIds: string[]; period: Period; label: string }
  | { kind: 'owner'; owner: string; statuses?: ControlStatus[]; among?: string[] }
  | {
      kind: 'due';
      /** The first due day asked about, when the question names a window ("in December", "on Dec 8"). */
      from?: string;
      before?: { date: string; inclusive: boolean; phrase: string };
      statuses?: ControlStatus[];
      owner?: string;
    }
  /** What has been accepted, and with `scopedOut` the controls that do not apply too. */
  | { kind: 'exceptions'; scopedOut?: boolean }
  /** Evidence that goes stale ahead: by a day, of some kinds, subjects or controls. */
  | {
      kind: 'expiring';
      from?: string;
      until?: string;
      phrase?: string;
      kinds?: string[];
      subjects?: string[];
      controlIds?: string[];
      /** Only the items of controls in these statuses ("passing but with evidence on the expiring list"). */
      statuses?: ControlStatus[];
    }
  /** Subject-level: the subjects the matched checks fail ("which people do not have MFA enabled"). */
  | { kind: 'checks'; checks: CheckMatch[] }
  /** One subject of the evidence ("what does priya.patel fail"): how the report names it, and the strings that find it. */
  | { kind: 'subject'; name: string; keys: string[]; checks?: CheckMatch[] };

/** A catalog check a question's words match, and the control it belongs to. */
export interface CheckMatch {
  controlId: string;
  check: Check;
  /** How strongly the question's words met it (2 for each id or field word, 1 for a kind or message word). */
  score?: number;
}

/** One day's report as history answers need it: the score, counts and each control's status. */
export interface DayRecord {
  date: string;
  summary: ReportSummary;
  statuses: Readonly<Record<string, ControlStatus>>;
}

/** A finding of one day's report, with the day and its control. */
export interface DayFinding {
  date: string;
  controlId: string;
  finding: Finding;
}

/** The reports of a span of days, for trends and histories; only days that have one are returned. */
export interface ReportDays {
  between(from: string, to: string): Promise<DayRecord[]>;
  /**
   * The findings `keep` selects in each day's report of a span, for one subject's history; only the
   * last `maxFindingDays` days of the span are read, as each is a whole report.
   */
  findings?(from: string, to: string, keep: (finding: Finding, controlId: string) => boolean): Promise<DayFinding[]>;
}

/** The most days of whole reports a question about one subject's history reads. */
export const maxFindingDays = 31;
