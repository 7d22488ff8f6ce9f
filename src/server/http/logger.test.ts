import { describe, expect, it } from "vitest";
import { createLogger, readableLogLine, redactUrl } from "./logger";

/** A stand-in for process.stdout, terminal or pipe. */
function output(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => void written.push(text) };
}

describe("the logger's output", () => {
  it("is readable lines on a terminal", () => {
    const terminal = output(true);
    createLogger("info", undefined, terminal).info({ productId: "p1" }, "product saved");
    expect(terminal.written).toHaveLength(1);
    expect(terminal.written[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}product saved productId=p1\n$/);
  });

  it("is JSON lines otherwise (a pipe, a log collector)", async () => {
    const pipe = output(false);
    const logger = createLogger("info", undefined, pipe);
    // Not a terminal: pino writes to the real stdout, never to the readable formatter.
    expect(pipe.written).toHaveLength(0);
    expect(logger.level).toBe("info");
    const captured: string[] = [];
    createLogger("info", { write: (line: string) => void captured.push(line) }, output(true)).info("x");
    expect(JSON.parse(captured[0] ?? "")).toMatchObject({ msg: "x", level: 30 });
  });

  it("shows a request's method, URL, status and time, and an error's stack", () => {
    const line = readableLogLine(
      JSON.stringify({
        level: 50,
        time: Date.UTC(2026, 10, 26, 12, 0, 1),
        pid: 1,
        hostname: "h",
        reqId: "req-1",
        req: { method: "GET", url: "/product/1" },
        res: { statusCode: 500 },
        responseTime: 3.14,
        err: { message: "boom", stack: "Error: boom\n    at x" },
        msg: "request failed",
      }),
    );
    expect(line).toBe(
      "12:00:01 ERROR GET /product/1 500 3.1 ms request failed reqId=req-1\n  Error: boom\n      at x\n",
    );
  });
});

describe("redactUrl", () => {
  it("redacts query values named or shaped like keys, and leaves ids and campaign names", () => {
    expect(redactUrl("/api/v1/sales?api_key=ff_live_abc&limit=5")).toBe(
      "/api/v1/sales?api_key=[redacted]&limit=5",
    );
    expect(redactUrl("/x?access_token=abc&apiKey=def&key=ghi")).toBe(
      "/x?access_token=[redacted]&apiKey=[redacted]&key=[redacted]",
    );
    expect(redactUrl("/x?q=sk_live_123")).toBe("/x?q=[redacted]");
    expect(redactUrl("/x?q=AbCdEf0123456789GhIjKlMn")).toBe("/x?q=[redacted]");
    expect(redactUrl("/x?productId=0b6f4c7e-3a1d-4e52-9c0a-5f2d8e1b7a93&utm_campaign=spring")).toBe(
      "/x?productId=0b6f4c7e-3a1d-4e52-9c0a-5f2d8e1b7a93&utm_campaign=spring",
    );
    expect(redactUrl("/download/secret?x=1")).toBe("/download/[redacted]?x=1");
  });
});
