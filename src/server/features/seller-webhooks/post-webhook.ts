import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./address-policy";

export const WEBHOOK_TIMEOUT_MS = 10_000;

/** The endpoint took longer than the timeout to answer. */
export class WebhookTimeout extends Error {}

/**
 * A lookup that answers only the addresses already checked, so the connection goes where the check
 * said (no second DNS query an attacker could answer differently).
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0]!;
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
}

/**
 * POSTs a JSON body to the endpoint, connecting only to `addresses`. Redirects are not followed (a 3xx
 * is an answer like any other), the answer's body is not read, and the whole exchange is cut after
 * `timeoutMs`. Resolves with the status code; rejects on a connection error or the timeout.
 */
export function postWebhook(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<number> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        // One connection per delivery: a pooled socket could have been opened to another address.
        agent: false,
        lookup: pinnedLookup(addresses),
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Flatfee-Webhooks/1.0",
        },
      },
      (response) => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new WebhookTimeout(`No answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
