/**
 * The history the chat reads for trends, comparisons and a control's runs: for each day that has
 * a report, its summary and each control's status, a few kilobytes where the report is hundreds.
 * Past days' records are kept once built (a past report cannot change), so a warm question over a
 * year of history costs one listing and no report reads; the newest day is read again each time,
 * as an analysis may republish it.
 */
import type { Finding } from '../assessment/model.js';
import { maxFindingDays, type DayFinding, type DayRecord, type ReportDays } from '../chat/report-days.js';
import { inBatches } from '../storage/object-store.js';
import type { ReportStore } from './report-store.js';

export class StoredReportDays implements ReportDays {
  readonly #reports: ReportStore;
  readonly #today: () => string;
  readonly #records = new Map<string, DayRecord>();

  constructor(reports: ReportStore, today: () => string) {
    this.#reports = reports;
    this.#today = today;
  }

  async between(from: string, to: string): Promise<DayRecord[]> {
    const today = this.#today();
    const dates = await this.#reports.datesBetween(from, to);
    const records = await inBatches(dates, 16, async (date) => {
      const kept = this.#records.get(date);
      if (kept) return kept;
      const stored = await this.#reports.find(date, { immutable: date < today });
      if (!stored) return undefined;
      const { summary, controls } = stored.report;
      const record: DayRecord = {
        date,
        summary,
        statuses: Object.fromEntries(controls.map((control) => [control.id, control.status])),
      };
      if (date < today) this.#records.set(date, record);
      return record;
    });
    return records.filter((record): record is DayRecord => record !== undefined);
  }

  dates(from: string, to: string): Promise<string[]> {
    return this.#reports.datesBetween(from, to);
  }

  async findings(from: string, to: string, keep: (finding: Finding, controlId: string) => boolean): Promise<DayFinding[]> {
    const today = this.#today();
    const dates = (await this.#reports.datesBetween(from, to)).slice(-maxFindingDays);
    const days = await inBatches(dates, 16, async (date) => {
      const stored = await this.#reports.find(date, { immutable: date < today });
      return (stored?.report.controls ?? []).flatMap((control) =>
        control.findings
          .filter((finding) => keep(finding, control.id))
          .map((finding) => ({ date, controlId: control.id, finding })),
      );
    });
    return days.flat();
  }
}
