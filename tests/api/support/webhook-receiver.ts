import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local HTTP server standing in for a seller's tool: it records every request and answers the
 * statuses it is told, in turn (then 204). Listens on 127.0.0.1 with a port of its own.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const answers: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.statusCode = answers.shift() ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    /** The next requests are answered with these statuses, in order. */
    answerWith(...statuses: number[]) {
      answers.push(...statuses);
    },
    /** Forgets what was received and any answers not used yet. */
    reset() {
      received.length = 0;
      answers.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Verifies a delivery as a receiver following the Standard Webhooks specification would, written
 * here independently of the app's signer: HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the
 * base64-decoded secret, compared in constant time with each `v1,` signature of the header.
 */
export function verifyStandardWebhook(secret: string, webhook: ReceivedWebhook): boolean {
  const id = webhook.headers["webhook-id"];
  const timestamp = webhook.headers["webhook-timestamp"];
  const signatures = webhook.headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (!/^\d+$/.test(timestamp)) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${webhook.body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
