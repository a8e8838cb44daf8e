/**
 * A feed of numbered, persisted events: what a resumable stream reads. Domain modules (a chat
 * answer, an analysis run) provide feeds; the HTTP core's event stream (http/event-stream.ts)
 * serves them, so neither needs the other's module.
 */

export interface StreamEvent {
  id: number;
  type: string;
}

export interface EventFeed<E extends StreamEvent> {
  /**
   * The events after `afterId`, waiting up to `waitMs` for one to exist; `ended` once the
   * feed's last event is among them (or was sent before). An empty batch means nothing came.
   */
  next(afterId: number, waitMs: number, signal: AbortSignal): Promise<{ events: readonly E[]; ended: boolean }>;
}
