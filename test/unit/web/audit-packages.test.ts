/**
 * The dashboard's reading of a package built in the background (hosting/src/lib/audit-packages.ts):
 * its events folded as the API folds them, replays changing nothing; the ranges a download asks
 * for; the words for its progress; and the period offered first, which ends yesterday.
 */
import { describe, expect, it } from 'vitest';
import type { AuditPackage, AuditPackageEvent } from '../../../hosting/src/lib/api-types.ts';
import {
  buildOf,
  buildText,
  defaultAuditPeriod,
  foldPackageEvent,
  rangeBytes,
  rangesOf,
  sizeText,
} from '../../../hosting/src/lib/audit-packages.ts';

const time = '2026-11-27T10:00:00.000Z';
const queued: AuditPackage = {
  id: 'pkg-20260901-20261126-0123456789ab-abcdef',
  from: '2026-09-01',
  to: '2026-11-26',
  state: 'queued',
  progress: { reports: 0, reportsTotal: 0, files: 0, bytes: 0 },
  requestedBy: { uid: 'u-ana' },
  requestedAt: time,
  expiresAt: '2026-12-11T10:00:00.000Z',
  lastEventId: 0,
  links: { self: '', events: '', download: '' },
};
const file = { name: 'evident-audit-2026-09-01-to-2026-11-26.zip', size: 40_000_000, sha256: 'ab'.repeat(32) };
const events: AuditPackageEvent[] = [
  { id: 1, type: 'run.started', time, data: { reportsTotal: 87 } },
  { id: 2, type: 'run.progress', time, data: { reports: 40, reportsTotal: 87, files: 900, bytes: 8_388_608 } },
  { id: 3, type: 'run.completed', time, data: { file, parts: 5, partBytes: 8_388_608 } },
];

describe('a package built in the background, as the dashboard reads it', () => {
  it('folds its events into its state, progress and file, and ignores a replayed one', () => {
    const built = events.reduce(foldPackageEvent, buildOf(queued));
    expect(built).toEqual({ lastEventId: 3, state: 'ready', progress: events[1]!.data, file });
    expect(foldPackageEvent(built, events[1]!)).toBe(built);
    const failed = foldPackageEvent(buildOf(queued), {
      id: 1,
      type: 'run.failed',
      time,
      data: { problem: 'The package could not be built; ask for it again.' },
    });
    expect([failed.state, buildText(failed)]).toEqual(['failed', 'The package could not be built; ask for it again.']);
  });

  it('says how far the build got', () => {
    expect(buildText(buildOf(queued))).toBe('Queued: the package will be built in the background.');
    expect(buildText(foldPackageEvent(foldPackageEvent(buildOf(queued), events[0]!), events[1]!))).toBe(
      'Building: 40 of 87 report days written, 8.4 MB stored.',
    );
    expect(buildText(events.reduce(foldPackageEvent, buildOf(queued)))).toBe('Ready: 40.0 MB, SHA-256 abababababab…');
  });

  it('downloads in ranges of at most 16 MiB that cover the file exactly once', () => {
    expect(rangesOf(40_000_000)).toEqual([
      `bytes=0-${rangeBytes - 1}`,
      `bytes=${rangeBytes}-${2 * rangeBytes - 1}`,
      `bytes=${2 * rangeBytes}-39999999`,
    ]);
    expect(rangesOf(10, 4)).toEqual(['bytes=0-3', 'bytes=4-7', 'bytes=8-9']);
    expect(rangesOf(8, 4)).toEqual(['bytes=0-3', 'bytes=4-7']);
    expect([sizeText(512), sizeText(840_400), sizeText(12_345_678)]).toEqual(['512 bytes', '840 kB', '12.3 MB']);
  });

  it('offers the 90 days up to yesterday, from the first report when the history is shorter', () => {
    expect(defaultAuditPeriod('2026-11-27', undefined)).toEqual({ from: '2026-08-29', to: '2026-11-26' });
    expect(defaultAuditPeriod('2026-11-27', '2026-11-14')).toEqual({ from: '2026-11-14', to: '2026-11-26' });
    // With only today's report, today is the whole history.
    expect(defaultAuditPeriod('2026-11-27', '2026-11-27')).toEqual({ from: '2026-11-27', to: '2026-11-27' });
  });
});
