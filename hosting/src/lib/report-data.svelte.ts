/**
 * A day's report and the score history, as the report views need them: loaded together,
 * with the states a view shows (loading, loaded, not found, failed).
 */
import type { components } from '$api-types';
import { getJson, type ApiError } from './api.ts';

export type Report = components['schemas']['Report'];
export type ReportList = components['schemas']['ReportList'];

export type ReportState =
  | { status: 'loading' }
  | { status: 'loaded'; report: Report; history: ReportList }
  | { status: 'failed'; error: ApiError | Error };

export class ReportData {
  #state = $state<ReportState>({ status: 'loading' });
  #request = 0;

  get state(): ReportState {
    return this.#state;
  }

  /** Loads the report of `date` (today when undefined); a newer load supersedes an older one. */
  async load(date: string | undefined, fetcher: typeof fetch = fetch): Promise<void> {
    const request = ++this.#request;
    this.#state = { status: 'loading' };
    try {
      const [report, history] = await Promise.all([
        getJson<Report>(date ? `/api/report/${date}` : '/api/report/today', fetcher),
        getJson<ReportList>('/api/report', fetcher),
      ]);
      if (request === this.#request) this.#state = { status: 'loaded', report, history };
    } catch (error) {
      if (request === this.#request) this.#state = { status: 'failed', error: error as Error };
    }
  }
}
