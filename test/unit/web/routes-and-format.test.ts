/** The web app's pure pieces: which page a path names, and how statuses and dates are worded and ranked. */
import { describe, expect, it } from 'vitest';
import { byRisk, longDate, scoreText } from '../../../hosting/src/lib/format.ts';
import { routeOf } from '../../../hosting/src/lib/routes.ts';

describe('routeOf', () => {
  it.each([
    ['/', { name: 'today' }],
    ['/reports/2026-11-21', { name: 'report', date: '2026-11-21' }],
    ['/reports/2026-11-21/', { name: 'report', date: '2026-11-21' }],
    ['/reports/21-11-2026', { name: 'not-found', path: '/reports/21-11-2026' }],
    ['/reports', { name: 'not-found', path: '/reports' }],
    ['/controls', { name: 'controls' }],
    ['/controls/IAM-01', { name: 'control', id: 'IAM-01' }],
    ['/controls/iam-01', { name: 'not-found', path: '/controls/iam-01' }],
    ['/no/such/page', { name: 'not-found', path: '/no/such/page' }],
  ])('%s is %o', (path, route) => {
    expect(routeOf(path)).toEqual(route);
  });
});

describe('format', () => {
  it('ranks by severity, then id', () => {
    const ranked = byRisk([
      { id: 'VUL-02', severity: 'high' as const },
      { id: 'IAM-08', severity: 'critical' as const },
      { id: 'CHG-02', severity: 'high' as const },
      { id: 'LOG-04', severity: 'low' as const },
    ]);
    expect(ranked.map((item) => item.id)).toEqual(['IAM-08', 'CHG-02', 'VUL-02', 'LOG-04']);
  });

  it('words a calendar day without shifting it across time zones, and scores with one decimal', () => {
    expect(longDate('2026-11-21')).toBe('Saturday, 21 November 2026');
    expect(scoreText(75)).toBe('75.0');
    expect(scoreText(75.66)).toBe('75.7');
  });
});
