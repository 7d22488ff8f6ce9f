import { type RealtimeEvent, realtimeEventSchema } from "../../../src/contracts/realtime";

/** Reads /api/events as a browser's EventSource would, collecting the events it receives. */
export async function openEventStream(baseUrl: string, cookie: string) {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`event stream failed: ${response.status}`);
  const received: RealtimeEvent[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const messages = buffer.split("\n\n");
        buffer = messages.pop() ?? "";
        for (const message of messages) {
          const data = message.split("\n").find((line) => line.startsWith("data: "));
          if (data) received.push(realtimeEventSchema.parse(JSON.parse(data.slice(6))));
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { received, close: () => abort.abort() };
}
