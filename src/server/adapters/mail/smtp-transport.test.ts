import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpTransport } from "./smtp-transport";

let server: SMTPServer;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        received.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("SMTP transport", () => {
  it("delivers HTML and text to a real SMTP server", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
    expect(await transport.isHealthy()).toBe(true);
    await transport.send({
      from: "Flatfee <no-reply@flatfee.local>",
      to: "buyer@example.com",
      subject: "Your receipt",
      html: "<p>Thanks for <b>buying</b></p>",
      text: "Thanks for buying",
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain("Subject: Your receipt");
    expect(received[0]).toContain("To: buyer@example.com");
    expect(received[0]).toContain("text/html");
    expect(received[0]).toContain("Thanks for buying");
  });

  it("sends an email's extra headers (one-click unsubscribe)", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
    await transport.send({
      from: "Flatfee <no-reply@flatfee.local>",
      to: "fan@example.com",
      subject: "News",
      html: "<p>News</p>",
      text: "News",
      headers: {
        "List-Unsubscribe": "<https://app.example/unsubscribe/t>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
    const raw = received.at(-1) ?? "";
    expect(raw).toContain("List-Unsubscribe: <https://app.example/unsubscribe/t>");
    expect(raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  });

  it("reports an unreachable server as unhealthy", async () => {
    const transport = smtpTransport("smtp://127.0.0.1:1?ignoreTLS=true&connectionTimeout=500");
    expect(await transport.isHealthy()).toBe(false);
  });
});
