/** How the Sources pages word a collection run (hosting/src/lib/collection-runs.ts), and a source's path both ways. */
import { describe, expect, it } from 'vitest';
import { countsText, dropText, runBadge, sourceOfSegment, sourcePath } from '../../../hosting/src/lib/collection-runs.ts';
import { routeOf, sectionOf } from '../../../hosting/src/lib/routes.ts';

describe('runBadge', () => {
  it.each([
    [{ status: 'complete' }, { text: 'Complete', tone: 'ok' }],
    [{ status: 'running' }, { text: 'Running', tone: 'busy' }],
    [
      { status: 'cancelled', incompleteReason: 'cancelled' },
      { text: 'Cancelled', tone: 'muted' },
    ],
    [
      { status: 'incomplete', incompleteReason: 'counts_disagree' },
      { text: 'Incomplete: counts disagree', tone: 'bad' },
    ],
    [
      { status: 'incomplete', incompleteReason: 'abandoned' },
      { text: 'Incomplete: not completed in time', tone: 'bad' },
    ],
  ] as const)('words %j', (run, badge) => {
    expect(runBadge(run)).toEqual(badge);
  });
});

describe('countsText', () => {
  it('lists kinds in order with their counts, and a dash for none', () => {
    expect(countsText({ 'idp.user': 1200, 'endpoint.device': 3 })).toBe('endpoint.device 3, idp.user 1,200');
    expect(countsText({ 'idp.user': 0 })).toBe('idp.user 0');
    expect(countsText(undefined)).toBe('–');
  });
});

describe('a source’s page', () => {
  it.each(['okta', 'HR export', 'a/b', '100%', 'ü'])('has a path that routes back to %j', (source) => {
    const path = sourcePath(source);
    expect(path.split('/')).toHaveLength(3);
    expect(routeOf(path)).toEqual({ name: 'source', source });
    expect(sectionOf(routeOf(path))).toBe('sources');
  });

  it('is not found for a segment that does not decode, and /sources lists them all', () => {
    expect(sourceOfSegment('%E0%A4%A')).toBeUndefined();
    expect(routeOf('/sources/%E0%A4%A')).toEqual({ name: 'not-found', path: '/sources/%E0%A4%A' });
    expect(routeOf('/sources/a/b')).toEqual({ name: 'not-found', path: '/sources/a/b' });
    expect(routeOf('/sources/')).toEqual({ name: 'sources' });
    expect(sectionOf({ name: 'sources' })).toBe('sources');
  });
});

describe('a population drop in words', () => {
  it('names the kind, both counts and the share lost', () => {
    expect(dropText({ kind: 'idp.user', previousCount: 1200, count: 840, percent: 30 })).toBe(
      'idp.user: 1,200 → 840 subjects (−30 %)',
    );
    expect(dropText({ kind: 'endpoint.device', previousCount: 3, count: 0, percent: 100 })).toBe(
      'endpoint.device: 3 → 0 subjects (−100 %)',
    );
  });
});
