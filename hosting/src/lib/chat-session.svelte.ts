/**
 * One conversation about a report: the exchanges so far, one question in flight at a time, each
 * sent with the answered turns before it as `history` so follow-ups ("why?") work.
 */
import { messageOf } from './api.ts';
import { askStreaming } from './chat-stream.ts';
import { applyEvent, historyOf, newExchange, type Exchange } from './chat.ts';

export class ChatSession {
  #exchanges = $state<Exchange[]>([]);
  #date: () => string;
  readonly #fetch: typeof fetch;
  #controller: AbortController | undefined;
  #keys = 0;

  /** `date` names the report the questions are about (read when each is sent); `fetcher` is the app's authorised fetch. */
  constructor(date: () => string, fetcher: typeof fetch) {
    this.#date = date;
    this.#fetch = fetcher;
  }

  get exchanges(): readonly Exchange[] {
    return this.#exchanges;
  }

  /** Whether a question is waiting for (or receiving) its answer. */
  get busy(): boolean {
    return this.#exchanges.some((exchange) => exchange.phase === 'thinking' || exchange.phase === 'streaming');
  }

  /** Asks a question; ignored while another is in flight or when it is blank. */
  ask(question: string): Promise<void> {
    const message = question.trim();
    if (!message || this.busy) return Promise.resolve();
    this.#exchanges.push(newExchange(++this.#keys, message));
    return this.#run(this.#exchanges.length - 1);
  }

  /** Asks a failed question again, with the same history it had. */
  retry(key: number): Promise<void> {
    const index = this.#exchanges.findIndex((exchange) => exchange.key === key);
    if (index < 0 || this.busy || this.#exchanges[index]!.phase !== 'failed') return Promise.resolve();
    this.#exchanges[index] = newExchange(key, this.#exchanges[index]!.question);
    return this.#run(index);
  }

  /** Stops the answer in flight (the panel is going away). */
  stop(): void {
    this.#controller?.abort();
  }

  async #run(index: number): Promise<void> {
    const controller = (this.#controller = new AbortController());
    const exchange = this.#exchanges[index]!;
    try {
      await askStreaming({
        request: { message: exchange.question, date: this.#date(), history: historyOf(this.#exchanges.slice(0, index)) },
        fetch: this.#fetch,
        signal: controller.signal,
        onEvent: (event) => (this.#exchanges[index] = applyEvent(this.#exchanges[index]!, event)),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#exchanges[index] = { ...this.#exchanges[index]!, phase: 'failed', error: messageOf(error) };
    }
  }
}
