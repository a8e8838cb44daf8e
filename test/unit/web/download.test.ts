/**
 * Downloads in the web app: a second click on a download under way starts nothing, and a failed
 * download frees its button for another try.
 */
import { describe, expect, it } from 'vitest';
import { Downloads } from '../../../hosting/src/lib/download.ts';

describe('downloadFrom', () => {
  it('ignores a second download of the same path while the first is under way, not of another path', async () => {
    const asked: string[] = [];
    const answers: ((response: Response) => void)[] = [];
    const { downloadFrom, isDownloading } = new Downloads((input) => {
      asked.push(String(input));
      return new Promise<Response>((resolve) => answers.push(resolve));
    });
    const problem = () =>
      new Response(JSON.stringify({ title: 'Not found', detail: 'There is no report for 2026-01-01.' }), {
        status: 404,
        headers: { 'Content-Type': 'application/problem+json' },
      });

    const first = downloadFrom('/api/report/2026-01-01', 'a.json');
    expect(await downloadFrom('/api/report/2026-01-01', 'a.json')).toBe(false);
    const other = downloadFrom('/api/report/2026-01-02', 'b.json');
    expect(asked).toEqual(['/api/report/2026-01-01', '/api/report/2026-01-02']);
    expect([isDownloading('/api/report/2026-01-01'), isDownloading('/api/report/2026-01-03')]).toEqual([true, false]);

    for (const answer of answers) answer(problem());
    await expect(first).rejects.toThrow('Not found: There is no report for 2026-01-01.');
    await expect(other).rejects.toThrow('Not found');
    expect(isDownloading('/api/report/2026-01-01')).toBe(false);
    // Once it has failed, the same download may be tried again.
    const again = downloadFrom('/api/report/2026-01-01', 'a.json');
    expect(asked).toHaveLength(3);
    answers[2]!(problem());
    await expect(again).rejects.toThrow('Not found');
  });
});
