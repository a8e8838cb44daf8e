/**
 * What `npm run daily-report` says when it has run: the report it made, or the one it found,
 * and — since the job never replaces a report — how to get a new one of today from the evidence
 * sent since (an analysis published as today's report; docs/analyses.md).
 */
export interface DailyReportOutcome {
  created: boolean;
  date: string;
  today: string;
  storeName: string;
  asOf: string;
  score: number;
  counts: { passing: number; failing: number; stale: number; missing: number; not_applicable: number };
  /** What the job read, when it made the report: "It started from … and read … batches …". */
  read?: string;
}

export const publishHint =
  'Reports are never replaced by this job. To assess today again with the evidence sent since, run an analysis\n' +
  'and publish it as today\'s report (the report it replaces is kept as a version): "Re-assess now" on the\n' +
  'dashboard, then "Publish as today\'s report"; or on the Analyses page (tick "Publish the result as today\'s report"), or\n' +
  "  curl -X POST -H 'Content-Type: application/json' -d '{\"publish\":true}' http://127.0.0.1:5000/api/analyses";

export function outcomeLines({ created, date, today, storeName, asOf, score, counts, read }: DailyReportOutcome): string[] {
  const tally =
    `${counts.passing} passing, ${counts.failing} failing, ${counts.stale} stale, ` +
    `${counts.missing} missing, ${counts.not_applicable} not applicable`;
  if (created)
    return [`Created the report of ${date} in ${storeName}: score ${score.toFixed(1)} (${tally}).`, ...(read ? [read] : [])];
  return [
    `The report of ${date} was already in ${storeName}, as of ${asOf}: score ${score.toFixed(1)} (${tally}).`,
    date === today ? publishHint : `Past reports never change: ${date} stays as it was assessed.`,
  ];
}
