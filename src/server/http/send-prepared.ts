import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { pendingSessionCookies } from "./session";

/**
 * Sends an answer made ahead of time (a kept page's bytes and headers) straight to Node's response,
 * past Fastify's onSend hooks: for a kept page they were most of its cost and did nothing (compression
 * skips an encoded body). What two of them would add is added here: the session's renewed cookies and,
 * while the server drains, `Connection: close`. The request's log line (onResponse) still runs.
 */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  headers: Readonly<Record<string, string>>,
  body?: Buffer,
): void {
  const all = { ...reply.getHeaders(), ...headers } as OutgoingHttpHeaders;
  if (body) all["content-length"] = body.length;
  const cookies = pendingSessionCookies(request);
  if (cookies) all["set-cookie"] = cookies;
  if (request.server.draining()) all.connection = "close";
  reply.hijack();
  reply.raw.writeHead(status, all);
  reply.raw.end(body);
}
