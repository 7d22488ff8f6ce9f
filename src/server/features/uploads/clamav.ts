import { connect } from "node:net";
import type { Readable } from "node:stream";

export type ScanResult = { infected: false } | { infected: true; signature: string };
/** Scans a file's bytes for malware. */
export type VirusScanner = (content: Readable) => Promise<ScanResult>;

// clamd accepts chunks up to its StreamMaxLength overall; each chunk is framed by a 4-byte length.
const CHUNK_BYTES = 64 * 1024;

/**
 * A scanner talking to clamd's INSTREAM command over TCP (`tcp://host:3310`). clamd must allow files
 * as large as ours (StreamMaxLength 260M); a file over its limit is reported as an error, never as clean.
 */
export function clamdScanner(clamdUrl: string, timeoutMs = 120_000): VirusScanner {
  const url = new URL(clamdUrl);
  const port = Number(url.port || 3310);
  const host = url.hostname;

  return async (content) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("clamd timed out")));
    let socketError: Error | undefined;
    socket.on("error", (error) => {
      socketError ??= error;
    });
    const replyChunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => replyChunks.push(chunk));
    const settle = (event: string) => new Promise<void>((resolve) => socket.once(event, () => resolve()));
    const closed = settle("close");
    const send = async (bytes: Buffer) => {
      if (!socket.write(bytes)) await Promise.race([settle("drain"), closed]);
    };

    try {
      await Promise.race([settle("connect"), closed]);
      await send(Buffer.from("zINSTREAM\0"));
      for await (const chunk of content) {
        const bytes = chunk as Buffer;
        for (let offset = 0; offset < bytes.length && !socket.destroyed; offset += CHUNK_BYTES) {
          const part = bytes.subarray(offset, offset + CHUNK_BYTES);
          const length = Buffer.alloc(4);
          length.writeUInt32BE(part.length);
          await send(Buffer.concat([length, part]));
        }
        // clamd answers early (and hangs up) when the stream is over its limit.
        if (socket.destroyed || replyChunks.length > 0) break;
      }
      if (!socket.destroyed) socket.end(Buffer.alloc(4));
    } finally {
      content.destroy();
    }
    await closed;
    const reply = Buffer.concat(replyChunks).toString("utf8");
    if (!reply && socketError) throw socketError;
    return parseReply(reply);
  };
}

/** `stream: OK`, `stream: Eicar-Test-Signature FOUND`, or `… ERROR`. */
function parseReply(reply: string): ScanResult {
  const text = reply.replace(/\0/g, "").trim();
  if (/^stream: OK$/.test(text)) return { infected: false };
  const found = text.match(/^stream: (.+) FOUND$/);
  if (found?.[1]) return { infected: true, signature: found[1] };
  throw new Error(`clamd could not scan the file: ${text || "no answer"}`);
}
