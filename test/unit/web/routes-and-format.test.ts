/** The web app's pure pieces: which page a path names, and how statuses and dates are worded and ranked. */
import { describe, expect, it } from 'vitest';
import { byRisk, longDate, scoreText } from '../../../hosting/src/lib/format.ts';
import { addressWithQuery, isPublicPage, routeOf, sectionOf } from '../../../hosting/src/lib/routes.ts';

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
    ['/frameworks', { name: 'frameworks' }],
    ['/requests', { name: 'requests' }],
    ['/frameworks/', { name: 'frameworks' }],
    ['/frameworks/soc2', { name: 'framework', framework: 'soc2' }],
    ['/frameworks/nist80053/', { name: 'framework', framework: 'nist80053' }],
    ['/frameworks/hipaa', { name: 'framework', framework: 'hipaa' }],
    ['/frameworks/SOC2', { name: 'not-found', path: '/frameworks/SOC2' }],
    ['/frameworks/iso-27001', { name: 'not-found', path: '/frameworks/iso-27001' }],
    ['/frameworks/abcdefghijklmnopqrstu', { name: 'not-found', path: '/frameworks/abcdefghijklmnopqrstu' }],
    ['/frameworks/soc2/CC6.1', { name: 'not-found', path: '/frameworks/soc2/CC6.1' }],
    ['/evidence', { name: 'evidence' }],
    ['/evidence/github:repo:acme-web', { name: 'evidence-item', id: 'github:repo:acme-web' }],
    ['/evidence/..', { name: 'not-found', path: '/evidence/..' }],
    ['/submit', { name: 'submit' }],
    ['/analyses/', { name: 'analyses' }],
    ['/analyses/an-20261121093000123-0a1b2c3d', { name: 'analysis', id: 'an-20261121093000123-0a1b2c3d' }],
    ['/analyses/an-1', { name: 'not-found', path: '/analyses/an-1' }],
    ['/docs', { name: 'docs' }],
    ['/docs/getting-started', { name: 'doc', slug: 'getting-started' }],
    ['/docs/Getting_Started', { name: 'not-found', path: '/docs/Getting_Started' }],
    ['/settings/webhooks', { name: 'webhooks' }],
    ['/settings/webhooks/', { name: 'webhooks' }],
    ['/settings', { name: 'settings' }],
    ['/settings/', { name: 'settings' }],
    ['/settings/versions/3', { name: 'settings-version', version: 3 }],
    ['/settings/versions/999999999', { name: 'settings-version', version: 999_999_999 }],
    ['/settings/versions/0', { name: 'not-found', path: '/settings/versions/0' }],
    ['/settings/versions/03', { name: 'not-found', path: '/settings/versions/03' }],
    ['/settings/versions/1000000000', { name: 'not-found', path: '/settings/versions/1000000000' }],
    ['/settings/versions', { name: 'not-found', path: '/settings/versions' }],
    ['/settings/webhooks/wh-0123456789ab', { name: 'not-found', path: '/settings/webhooks/wh-0123456789ab' }],
    ['/webhooks', { name: 'not-found', path: '/webhooks' }],
    ['/no/such/page', { name: 'not-found', path: '/no/such/page' }],
  ])('%s is %o', (path, route) => {
    expect(routeOf(path)).toEqual(route);
  });
});

describe('sections and public pages', () => {
  it('puts each page under its menu section', () => {
    expect(sectionOf(routeOf('/reports/2026-11-20'))).toBe('reports');
    expect(sectionOf(routeOf('/controls/IAM-01'))).toBe('controls');
    expect(sectionOf(routeOf('/frameworks'))).toBe('frameworks');
    expect(sectionOf(routeOf('/frameworks/soc2'))).toBe('frameworks');
    expect(sectionOf(routeOf('/evidence/x'))).toBe('evidence');
    expect(sectionOf(routeOf('/docs/a'))).toBe('docs');
    expect(sectionOf(routeOf('/submit'))).toBe('submit');
    expect(sectionOf(routeOf('/requests'))).toBe('requests');
    expect(sectionOf(routeOf('/settings/webhooks'))).toBe('webhooks');
    expect(sectionOf(routeOf('/settings'))).toBe('settings');
    expect(sectionOf(routeOf('/settings/versions/2'))).toBe('settings');
  });

  it('lets only the docs (and page-not-found) open without a session in protected mode', () => {
    const open = [
      '/',
      '/reports/2026-11-20',
      '/controls',
      '/frameworks',
      '/frameworks/soc2',
      '/evidence',
      '/submit',
      '/analyses',
      '/settings/webhooks',
      '/settings',
      '/settings/versions/2',
      '/docs',
      '/docs/a',
      '/nope',
    ]
      .map(routeOf)
      .filter(isPublicPage)
      .map((route) => route.name);
    expect(open).toEqual(['docs', 'doc', 'not-found']);
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

describe('addressWithQuery', () => {
  it('puts the query between the path and the fragment, and drops an empty one', () => {
    expect(addressWithQuery('/controls', new URLSearchParams({ status: 'failing' }), '#IAM-01')).toBe(
      '/controls?status=failing#IAM-01',
    );
    expect(addressWithQuery('/controls', new URLSearchParams(), '#IAM-01')).toBe('/controls#IAM-01');
    expect(addressWithQuery('/controls', new URLSearchParams({ q: 'a b' }), '')).toBe('/controls?q=a+b');
  });
});
