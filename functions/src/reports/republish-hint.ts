/**
 * What the daily job's development trigger answers when today's report exists: how to assess
 * today again. The job never replaces a report, so without this a second run answers
 * `created: false` and leaves the person nowhere to go.
 */
export interface Republish {
  message: string;
  /** The request that starts an analysis publishing its result as today's report. */
  startAnalysis: { method: 'POST'; path: '/api/analyses'; body: { publish: true } };
  /** Where the day's versions are listed once one is published. */
  versions: string;
}

export function republishOf(date: string): Republish {
  return {
    message:
      `The report of ${date} exists and this job never replaces it. To assess today again with the evidence sent ` +
      'since, start an analysis that publishes its result as today\u2019s report ("Re-assess now" on the dashboard, ' +
      'or the request below); the report it replaces is kept as a version.',
    startAnalysis: { method: 'POST', path: '/api/analyses', body: { publish: true } },
    versions: `/api/report/${date}/versions`,
  };
}
