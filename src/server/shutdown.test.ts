import http from "node:http";
import net from "node:net";
import { PassThrough } from "node:stream";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../../tests/api/support/wait";
import { sendPrepared } from "./http/send-prepared";
import { closeInOrder, closeWithin, DRAINING_CLOSE, drainOnClose } from "./shutdown";

interface Entry {
  level: "info" | "warn" | "error";
  message: string;
}

function recordingLog() {
  const entries: Entry[] = [];
  const write = (level: Entry["level"]) => (first: unknown, second?: string) => {
    entries.push({ level, message: typeof first === "string" ? first : (second ?? "") });
  };
  return { entries, log: { info: write("info"), warn: write("warn"), error: write("error") } };
}

let server: FastifyInstance;
const DONE = '{"done":true}';
// Keep-alive, as browsers and proxies connect: an idle connection must not hold the shutdown open.
const agent = new http.Agent({ keepAlive: true });
const openSockets: net.Socket[] = [];
afterEach(() => {
  agent.destroy();
  for (const socket of openSockets.splice(0)) socket.destroy();
});

/** An app like ours (see app.ts) with a route that answers when the test says so. */
async function appWithSlowRoute() {
  server = Fastify(DRAINING_CLOSE);
  drainOnClose(server);
  let answer = () => {};
  const started = new Promise<void>((resolveStarted) => {
    server.get<{ Querystring: { prepared?: string } }>("/slow", async (request, reply) => {
      resolveStarted();
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      // An answer made ahead, sent past Fastify's onSend hooks (a kept page).
      if (request.query.prepared) {
        return sendPrepared(request, reply, 200, { "content-type": "application/json" }, Buffer.from(DONE));
      }
      return { done: true };
    });
  });
  server.get("/fast", async () => ({ done: true }));
  // A response whose headers are out before shutdown begins (a download, say), ended by the test.
  const stream = new PassThrough();
  server.get("/stream", async (_request, reply) => {
    stream.write("first ");
    return reply.type("text/plain").send(stream);
  });
  return { started, answer: () => answer(), stream };
}

function get(path: string, onHeaders: () => void = () => {}) {
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (response) => {
        onHeaders();
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
        );
      })
      .on("error", reject);
  });
}

/**
 * A kept-alive connection driven byte by byte: `send` writes a request at once (synchronously, so the
 * test decides whether it reaches the server before or after closing begins) and answers its response,
 * or the error the connection ended with.
 */
async function rawConnection() {
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let received = Buffer.alloc(0);
  let waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined;
  const settle = () => {
    const end = received.indexOf("\r\n\r\n");
    if (!waiting || end < 0) return;
    const head = received.subarray(0, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(
      head
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
    );
    const length = Number(headers["content-length"] ?? 0);
    if (received.length < end + 4 + length) return;
    const body = received.subarray(end + 4, end + 4 + length).toString("utf8");
    received = received.subarray(end + 4 + length);
    const done = waiting;
    waiting = undefined;
    done.resolve({ status: Number(head[0]?.split(" ")[1]), connection: headers.connection, body });
  };
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    settle();
  });
  let ended: Error | undefined;
  const fail = (error: Error) => {
    ended ??= error;
    waiting?.reject(ended);
  };
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("the server closed the connection")));
  openSockets.push(socket);
  return {
    send(path: string): Promise<RawAnswer> {
      if (ended) return Promise.reject(ended);
      const answer = new Promise<RawAnswer>((resolve, reject) => {
        waiting = { resolve, reject };
      });
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      return answer;
    },
  };
}

interface RawAnswer {
  status: number;
  connection: string | undefined;
  body: string;
}

describe("drainOnClose and closeWithin", () => {
  it("lets a request in flight finish, tells its client the connection ends, closes idle ones", async () => {
    const slow = await appWithSlowRoute();
    const { log, entries } = recordingLog();
    const close = () => closeWithin(server, log, 60_000);
    await server.listen({ port: 0, host: "127.0.0.1" });
    // An idle keep-alive connection, and a request being handled.
    expect((await get("/fast")).status).toBe(200);
    const inFlight = get("/slow");
    await slow.started;

    const closed = close();
    await eventually(async () => expect(server.server.listening).toBe(false));
    slow.answer();
    expect(await inFlight).toEqual({ status: 200, connection: "close", body: '{"done":true}' });
    await closed;
    expect(entries.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("answers a request that reached a kept-alive connection just before closing began", async () => {
    await appWithSlowRoute();
    await server.listen({ port: 0, host: "127.0.0.1" });
    const connection = await rawConnection();
    expect(await connection.send("/fast")).toMatchObject({ status: 200, connection: "keep-alive" });

    // The request is on the server's side of the connection, not read yet, when closing begins.
    const answer = connection.send("/fast");
    const closed = closeWithin(server, recordingLog().log, 60_000);
    // Not reset as an idle connection, nor refused with a 503: answered, and the connection ends.
    expect(await answer).toEqual({ status: 200, connection: "close", body: '{"done":true}' });
    await closed;
  });

  it("answers a request sent on an idle kept-alive connection while closing, then closes it", async () => {
    await appWithSlowRoute();
    await server.listen({ port: 0, host: "127.0.0.1" });
    const connection = await rawConnection();
    expect(await connection.send("/fast")).toMatchObject({ status: 200, connection: "keep-alive" });

    const closed = closeWithin(server, recordingLog().log, 60_000);
    await eventually(async () => expect(server.server.listening).toBe(false), 1000, 1);
    expect(await connection.send("/fast")).toEqual({
      status: 200,
      connection: "close",
      body: '{"done":true}',
    });
    await closed;
  });

  it("tells the client of an answer made ahead (a kept page) in flight that the connection ends", async () => {
    const slow = await appWithSlowRoute();
    await server.listen({ port: 0, host: "127.0.0.1" });
    const inFlight = get("/slow?prepared=1");
    await slow.started;

    const closed = closeWithin(server, recordingLog().log, 60_000);
    await eventually(async () => expect(server.server.listening).toBe(false));
    slow.answer();
    expect(await inFlight).toEqual({ status: 200, connection: "close", body: DONE });
    await closed;
  });

  it("closes a connection whose response was already on its way once that response is done", async () => {
    const app = await appWithSlowRoute();
    const close = () => closeWithin(server, recordingLog().log, 60_000);
    await server.listen({ port: 0, host: "127.0.0.1" });
    let headersReceived = false;
    const download = get("/stream", () => {
      headersReceived = true;
    });
    await eventually(async () => expect(headersReceived).toBe(true));

    const closed = close();
    await eventually(async () => expect(server.server.listening).toBe(false));
    app.stream.end("last");
    expect(await download).toMatchObject({ status: 200, body: "first last" });
    // Resolves without waiting for the deadline or the connection's keep-alive timeout.
    await closed;
  });

  it("cuts what is still running at the deadline, so shutdown cannot hang", async () => {
    const slow = await appWithSlowRoute();
    const { log, entries } = recordingLog();
    const close = () => closeWithin(server, log, 100);
    await server.listen({ port: 0, host: "127.0.0.1" });
    const stuck = get("/slow").catch((error: Error) => error);
    await slow.started;

    await close();
    expect(await stuck).toBeInstanceOf(Error);
    expect(entries.some((entry) => entry.level === "warn" && entry.message.includes("deadline"))).toBe(true);
  });
});

describe("closeInOrder", () => {
  it("closes the parts in order, goes on past one that fails, and then reports it", async () => {
    const { log, entries } = recordingLog();
    const closed: string[] = [];
    const part = (name: string, fails = false) => ({
      name,
      close: async () => {
        if (fails) throw new Error(`${name} is stuck`);
        closed.push(name);
      },
    });

    await expect(
      closeInOrder([part("outbox"), part("event bus", true), part("database")], log),
    ).rejects.toThrow("Shutdown could not close: event bus");
    expect(closed).toEqual(["outbox", "database"]);
    expect(entries.map((entry) => `${entry.level} ${entry.message}`)).toEqual([
      "info shutdown: outbox closed",
      "error shutdown: event bus failed to close",
      "info shutdown: database closed",
    ]);
  });
});
