/**
 * The chat's pure logic, kept apart from the runes so it is unit tested: one exchange (a
 * question and its answer as the events build it), the history a follow-up sends, where a
 * citation links, which hrefs an answer may carry, and the Markdown renderer the answers use.
 */
import { chatLimits } from '@evident/contract';
import type { MarkdownIt } from 'markdown-it';
import type { ChatAnswer, ChatEvent, ChatTurn, Citation } from './api-types.ts';
import { routeOf } from './routes.ts';

/** One question and its answer, as far as it has arrived. */
export interface Exchange {
  /** Stable key for the conversation list. */
  key: number;
  question: string;
  phase: 'thinking' | 'streaming' | 'done' | 'failed';
  /** The answer's Markdown so far: the `answer.delta` pieces, then the whole answer. */
  text: string;
  citations: Citation[];
  /** The whole answer, once `done` arrived. */
  answer?: ChatAnswer;
  /** Why it failed, in the server's words when it gave some. */
  error?: string;
}

/** The API's limits on `history`, and three quarters of its body limit (the rest is the question and the JSON around it). */
export const historyLimits = {
  turns: chatLimits.turns,
  turnChars: chatLimits.turnChars,
  citations: chatLimits.citations,
  bytes: (chatLimits.bodyBytes / 4) * 3,
} as const;

export function newExchange(key: number, question: string): Exchange {
  return { key, question, phase: 'thinking', text: '', citations: [] };
}

/** The exchange after one more event of its answer stream. */
export function applyEvent(exchange: Exchange, event: ChatEvent): Exchange {
  switch (event.type) {
    case 'answer.delta':
      return { ...exchange, phase: 'streaming', text: exchange.text + event.data.text };
    case 'citations':
      return { ...exchange, citations: event.data.citations };
    case 'done':
      // The whole answer is authoritative: it is what the pieces were cut from.
      return { ...exchange, phase: 'done', text: event.data.answer, citations: event.data.citations, answer: event.data };
  }
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * The previous turns a question sends as `history`, oldest first: every answered exchange as a
 * user turn and an assistant turn with its citations (what a follow-up like "why?" leans on).
 * Unanswered or failed exchanges are left out; the newest turns are kept within the API's limits.
 */
export function historyOf(exchanges: readonly Exchange[]): ChatTurn[] {
  const pairs: [ChatTurn, ChatTurn][] = [];
  for (const exchange of exchanges) {
    if (!exchange.answer) continue;
    const { answer, citations } = exchange.answer;
    const assistant: ChatTurn = { role: 'assistant', content: clip(answer, historyLimits.turnChars) };
    if (citations.length > 0) assistant.citations = citations.slice(0, historyLimits.citations);
    pairs.push([{ role: 'user', content: clip(exchange.question, historyLimits.turnChars) }, assistant]);
  }
  let kept = pairs.slice(-Math.floor(historyLimits.turns / 2));
  while (kept.length > 0 && byteLength(kept) > historyLimits.bytes) kept = kept.slice(1);
  return kept.flat();
}

/**
 * `href` when it is a path on this origin (`/controls/IAM-01`), otherwise undefined: no scheme,
 * no protocol-relative `//host`, no backslash tricks, no whitespace or control characters.
 */
export function sameOriginPath(href: string): string | undefined {
  if (!/^\/(?![/\\])/.test(href)) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\s\\\u0000-\u001f\u007f]/.test(href)) return undefined;
  const base = 'https://origin.invalid';
  try {
    return new URL(href, base).origin === base ? href : undefined;
  } catch {
    return undefined;
  }
}

/** An app page's path when the route table knows it as that kind of page, else undefined. */
function pageHref(path: string, name: 'control' | 'evidence-item'): string | undefined {
  return routeOf(path).name === name ? path : undefined;
}

/** Where a citation's control and evidence item live in the app; an id no page could show gets no link. */
export function citationLinks(citation: Citation): { control?: string; evidence?: string } {
  const control = pageHref(`/controls/${citation.controlId}`, 'control');
  const evidence = citation.evidenceId === undefined ? undefined : pageHref(`/evidence/${citation.evidenceId}`, 'evidence-item');
  return { ...(control && { control }), ...(evidence && { evidence }) };
}

/**
 * The answers' Markdown is composed by the server with evidence text escaped; the renderer is
 * still the last line: no raw HTML, no linkified text, no images, links only to our own paths.
 */
export const markdownOptions = { html: false, linkify: false, typographer: false, breaks: false } as const;

export type RenderMarkdown = (markdown: string) => string;

/** Applies the answer rules to a markdown-it instance made with `markdownOptions`. */
export function answerRenderer(md: MarkdownIt): RenderMarkdown {
  md.disable('image');
  // A link the check refuses is not parsed as a link, so it stays visible as its text.
  md.validateLink = (url) => sameOriginPath(url) !== undefined;
  // Table alignment would be an inline style, which the Content-Security-Policy blocks: use a class.
  for (const rule of ['th_open', 'td_open'] as const) {
    md.renderer.rules[rule] = (tokens, index, options, _env, self) => {
      const token = tokens[index]!;
      const align = /text-align:\s*(left|right|center)/.exec(String(token.attrGet('style') ?? ''))?.[1];
      token.attrs = token.attrs?.filter(([name]) => name !== 'style') ?? null;
      if (align) token.attrJoin('class', `align-${align}`);
      return self.renderToken(tokens, index, options);
    };
  }
  return (markdown) => md.render(markdown);
}

let renderer: Promise<RenderMarkdown> | undefined;

/** The renderer, loaded on first use so the first view's JavaScript stays small. */
export function loadMarkdown(): Promise<RenderMarkdown> {
  renderer ??= import('markdown-it').then(
    ({ default: MarkdownIt }) => answerRenderer(new MarkdownIt(markdownOptions)),
    (error: unknown) => {
      renderer = undefined; // a chunk that failed to load may load next time
      throw error;
    },
  );
  return renderer;
}
