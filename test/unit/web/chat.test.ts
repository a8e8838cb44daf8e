/**
 * The chat's pure pieces in the web app: an exchange built from its stream events, the history
 * a follow-up sends (within the API's limits), where citations link, which hrefs an answer may
 * carry, and the Markdown renderer leaving hostile input inert.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { ApiError, messageOf } from '../../../hosting/src/lib/api.ts';
import type { ChatAnswer, ChatEvent, Citation } from '../../../hosting/src/lib/api-types.ts';
import {
  answerRenderer,
  applyEvent,
  citationLinks,
  historyOf,
  historyLimits,
  loadMarkdown,
  markdownOptions,
  newExchange,
  sameOriginPath,
  type Exchange,
} from '../../../hosting/src/lib/chat.ts';

const citation: Citation = { controlId: 'IAM-01', evidenceId: 'okta:mfa-policy', quote: 'MFA is not enforced for 3 users.' };

function answered(key: number, question: string, answer: string, citations: Citation[] = []): Exchange {
  const done: ChatAnswer = {
    id: `msg-${'0'.repeat(9)}${key}`,
    date: '2026-11-21',
    answer,
    citations,
    grounded: true,
    suggestions: [],
  };
  return { ...newExchange(key, question), phase: 'done', text: answer, citations, answer: done };
}

describe('applyEvent', () => {
  it('builds the answer from its pieces, then takes the whole answer from done', () => {
    const answer: ChatAnswer = {
      id: 'msg-0000000000ab',
      date: '2026-11-21',
      answer: '**IAM-01** is failing.',
      citations: [citation],
      grounded: true,
      suggestions: ['How do we fix IAM-01?'],
    };
    const events: ChatEvent[] = [
      { id: 1, type: 'answer.delta', data: { text: '**IAM-01** ' } },
      { id: 2, type: 'answer.delta', data: { text: 'is failing.' } },
      { id: 3, type: 'citations', data: { citations: [citation] } },
      { id: 4, type: 'done', data: answer },
    ];
    const steps = events.reduce<Exchange[]>(
      (seen, event) => [...seen, applyEvent(seen.at(-1)!, event)],
      [newExchange(7, 'Why?')],
    );
    expect(steps.map(({ phase, text, citations }) => ({ phase, text, citations: citations.length }))).toEqual([
      { phase: 'thinking', text: '', citations: 0 },
      { phase: 'streaming', text: '**IAM-01** ', citations: 0 },
      { phase: 'streaming', text: '**IAM-01** is failing.', citations: 0 },
      { phase: 'streaming', text: '**IAM-01** is failing.', citations: 1 },
      { phase: 'done', text: '**IAM-01** is failing.', citations: 1 },
    ]);
    expect(steps.at(-1)).toEqual({
      key: 7,
      question: 'Why?',
      phase: 'done',
      text: answer.answer,
      citations: [citation],
      answer,
    });
  });
});

describe('historyOf', () => {
  it('sends each answered exchange as a user turn and an assistant turn with its citations, oldest first', () => {
    const exchanges: Exchange[] = [
      answered(1, 'What is failing?', '- **IAM-01** MFA', [citation]),
      { ...newExchange(2, 'This one failed'), phase: 'failed', error: 'The server could not be reached.' },
      answered(3, 'What is the weather?', 'I can only answer from the report.'),
      { ...newExchange(4, 'Still thinking'), phase: 'streaming', text: 'Half an' },
    ];
    expect(historyOf(exchanges)).toEqual([
      { role: 'user', content: 'What is failing?' },
      { role: 'assistant', content: '- **IAM-01** MFA', citations: [citation] },
      { role: 'user', content: 'What is the weather?' },
      { role: 'assistant', content: 'I can only answer from the report.' },
    ]);
  });

  it('keeps the newest 20 turns, whole exchanges only', () => {
    const exchanges = Array.from({ length: 13 }, (_, n) => answered(n + 1, `question ${n + 1}`, `answer ${n + 1}`));
    const history = historyOf(exchanges);
    expect(history).toHaveLength(20);
    expect(history[0]).toEqual({ role: 'user', content: 'question 4' });
    expect(history.at(-1)).toEqual({ role: 'assistant', content: 'answer 13' });
  });

  it('clips over-long turns and citation lists to what the API accepts', () => {
    const many = Array.from({ length: 150 }, (_, n) => ({ controlId: `IAM-${String(n).padStart(3, '0')}`, quote: 'q' }));
    const [user, assistant] = historyOf([answered(1, 'x'.repeat(9000), 'y'.repeat(9000), many)]);
    expect(user!.content).toBe(`${'x'.repeat(7999)}…`);
    expect(assistant!.content).toBe(`${'y'.repeat(7999)}…`);
    expect(assistant!.citations).toEqual(many.slice(0, 100));
  });

  it('drops the oldest exchanges until the history fits the body limit', () => {
    const quote = 'z'.repeat(1900);
    const heavy = Array.from({ length: 100 }, () => ({ controlId: 'IAM-01', quote }));
    const exchanges = [1, 2, 3].map((key) => answered(key, `question ${key}`, 'answer', heavy));
    const history = historyOf(exchanges);
    expect(history.filter((turn) => turn.role === 'user').map((turn) => turn.content)).toEqual(['question 3']);
    expect(new TextEncoder().encode(JSON.stringify(history)).length).toBeLessThanOrEqual(historyLimits.bytes);
  });
});

describe('citationLinks', () => {
  it.each([
    [citation, { control: '/controls/IAM-01', evidence: '/evidence/okta:mfa-policy' }],
    [{ controlId: 'ENC-04', quote: 'q' }, { control: '/controls/ENC-04' }],
    // Ids no page of the app could show get no link (they are shown as text).
    [{ controlId: '../admin', evidenceId: '//evil.example', quote: 'q' }, {}],
    [{ controlId: 'IAM-01', evidenceId: 'a/../../b', quote: 'q' }, { control: '/controls/IAM-01' }],
  ])('%o links to %o', (cited, links) => {
    expect(citationLinks(cited)).toEqual(links);
  });
});

describe('sameOriginPath', () => {
  it.each(['/controls/IAM-01', '/docs/chat#streaming-and-resuming', '/evidence?kind=tls.endpoint'])('allows %s', (href) => {
    expect(sameOriginPath(href)).toBe(href);
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/ /evil',
    '/\t/evil.example',
    'data:text/html,<script>alert(1)</script>',
    'controls/IAM-01',
    '#top',
    '',
  ])('refuses %j', (href) => {
    expect(sameOriginPath(href)).toBeUndefined();
  });
});

describe('the answer renderer', () => {
  const render = answerRenderer(new MarkdownIt(markdownOptions));

  it('renders the Markdown the server composes', () => {
    expect(render('**IAM-01** Multi-factor authentication is failing:\n\n- 3 users without MFA\n- see `okta`')).toBe(
      '<p><strong>IAM-01</strong> Multi-factor authentication is failing:</p>\n' +
        '<ul>\n<li>3 users without MFA</li>\n<li>see <code>okta</code></li>\n</ul>\n',
    );
  });

  it('leaves raw HTML as text', () => {
    expect(render('<img src=x onerror=alert(1)> and <script>alert(1)</script>')).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt; and &lt;script&gt;alert(1)&lt;/script&gt;</p>\n',
    );
  });

  it('renders no link that leaves the app, and no image at all (an image is left as its link)', () => {
    expect(render('[a](javascript:alert(1)) [b](https://evil.example) <https://evil.example> [c](//evil.example)')).toBe(
      '<p>[a](javascript:alert(1)) [b](https://evil.example) &lt;https://evil.example&gt; [c](//evil.example)</p>\n',
    );
    expect(render('[x]: javascript:alert(1)\n\n[click][x]')).toBe('<p>[x]: javascript:alert(1)</p>\n<p>[click][x]</p>\n');
    expect(render('![pixel](/api/evidence?track=1) ![x](javascript:alert(1))')).toBe(
      '<p>!<a href="/api/evidence?track=1">pixel</a> ![x](javascript:alert(1))</p>\n',
    );
  });

  it('keeps links to the app and does not turn bare URLs into links', () => {
    expect(render('See [IAM-01](/controls/IAM-01) or https://evil.example')).toBe(
      '<p>See <a href="/controls/IAM-01">IAM-01</a> or https://evil.example</p>\n',
    );
  });

  it('aligns table cells with classes, not the inline styles the CSP blocks', () => {
    expect(render('| a | b |\n|:-|-:|\n| 1 | 2 |')).toBe(
      '<table>\n<thead>\n<tr>\n<th class="align-left">a</th>\n<th class="align-right">b</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td class="align-left">1</td>\n<td class="align-right">2</td>\n</tr>\n</tbody>\n</table>\n',
    );
  });

  it('is loaded once, on first use, with the same rules', async () => {
    const loaded = await loadMarkdown();
    expect(await loadMarkdown()).toBe(loaded);
    expect(loaded('[a](javascript:alert(1)) <b>')).toBe('<p>[a](javascript:alert(1)) &lt;b&gt;</p>\n');
  });
});

describe('messageOf', () => {
  it('says what went wrong in the server words when there is a problem', () => {
    const problem = {
      type: '/docs/reference-errors#report_not_found',
      title: 'Report not found',
      status: 404,
      detail: 'There is no report for 2026-01-01.',
      code: 'report_not_found',
      requestId: 'req-1',
      instance: '/api/chat',
    };
    expect(messageOf(new ApiError(404, problem as ConstructorParameters<typeof ApiError>[1]))).toBe(
      'There is no report for 2026-01-01.',
    );
    expect(messageOf(new ApiError(502, undefined))).toBe('The server answered 502.');
    expect(messageOf(new Error('The server could not be reached.'))).toBe('The server could not be reached.');
  });

  it('puts what could not be done before the reason, when the view names it', () => {
    const problem = { title: 'Bad request', status: 400, detail: 'The query parameter "control" names no control.' };
    expect(
      messageOf(new ApiError(400, problem as ConstructorParameters<typeof ApiError>[1]), 'The evidence could not be loaded.'),
    ).toBe('The evidence could not be loaded. The query parameter "control" names no control.');
    expect(
      messageOf(
        new ApiError(400, { ...problem, detail: undefined } as ConstructorParameters<typeof ApiError>[1]),
        'The runs could not be loaded.',
      ),
    ).toBe('The runs could not be loaded. Bad request');
    expect(messageOf('timeout', 'The report could not be loaded.')).toBe('The report could not be loaded. timeout');
  });
});
