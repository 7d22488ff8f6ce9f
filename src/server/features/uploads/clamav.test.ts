import { createServer, type Server } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clamdScanner } from "./clamav";

/** A stand-in clamd speaking INSTREAM: it flags any stream containing MALWARE. */
let server: Server;
let clamdUrl: string;
const received: Buffer[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const command = Buffer.from("zINSTREAM\0");
      if (!buffered.subarray(0, command.length).equals(command)) return;
      let offset = command.length;
      const content: Buffer[] = [];
      while (offset + 4 <= buffered.length) {
        const length = buffered.readUInt32BE(offset);
        if (length === 0) {
          const scanned = Buffer.concat(content);
          received.push(scanned);
          socket.end(
            scanned.includes(Buffer.from("MALWARE")) ? "stream: Test.Malware FOUND\0" : "stream: OK\0",
          );
          return;
        }
        if (offset + 4 + length > buffered.length) return;
        content.push(buffered.subarray(offset + 4, offset + 4 + length));
        offset += 4 + length;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  clamdUrl = `tcp://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("clamdScanner (INSTREAM over TCP)", () => {
  it("streams the whole file in framed chunks and reports a clean file", async () => {
    const big = Buffer.alloc(300_000, 7);
    expect(await clamdScanner(clamdUrl)(Readable.from([big]))).toEqual({ infected: false });
    expect(received.at(-1)?.equals(big)).toBe(true);
  });

  it("reports the signature clamd found", async () => {
    const result = await clamdScanner(clamdUrl)(Readable.from([Buffer.from("some MALWARE here")]));
    expect(result).toEqual({ infected: true, signature: "Test.Malware" });
  });

  it("fails (never says clean) when clamd cannot be reached", async () => {
    await expect(clamdScanner("tcp://127.0.0.1:1")(Readable.from([Buffer.from("x")]))).rejects.toThrow();
  });
});
