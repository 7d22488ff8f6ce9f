import type { ServerResponse } from "node:http";

/** An open event stream: ending it writes `closing` (an SSE field or nothing) and resolves once sent. */
export interface EventStream {
  end(closing?: string): Promise<void>;
}

/** Ends a Server-Sent Events response, resolving once its last bytes are handed to the connection. */
export function endResponse(res: ServerResponse, closing = ""): Promise<void> {
  if (res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    res.once("close", resolve);
    res.end(closing, resolve);
  });
}

/**
 * The event streams open on this instance, per user, oldest first. Past `maxPerUser` the oldest
 * stream of that user is ended: it most likely belongs to a tab or device no longer looked at.
 */
export class OpenStreams {
  private readonly byUser = new Map<string, Set<EventStream>>();

  constructor(
    private readonly maxPerUser: number,
    /** What an evicted stream is told before it ends (e.g. when to reconnect). */
    private readonly evictionNotice: string,
  ) {}

  add(userId: string, stream: EventStream): void {
    const streams = this.byUser.get(userId) ?? new Set();
    this.byUser.set(userId, streams.add(stream));
    for (const oldest of streams) {
      if (streams.size <= this.maxPerUser) break;
      this.remove(userId, oldest);
      void oldest.end(this.evictionNotice);
    }
  }

  remove(userId: string, stream: EventStream): void {
    const streams = this.byUser.get(userId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byUser.delete(userId);
  }

  /** Ends every stream (server shutdown): browsers reconnect, to another instance if there is one. */
  async endAll(): Promise<void> {
    const all = [...this.byUser.values()].flatMap((streams) => [...streams]);
    this.byUser.clear();
    await Promise.all(all.map((stream) => stream.end()));
  }
}
