import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { EventBus } from "../adapters/events/event-bus";
import { SellerCache } from "../adapters/events/seller-cache";
import { clientHolds, strongEtag } from "./etag";

/** A JSON answer as sent: its text, checked against the route's schema once, and a strong ETag of it. */
interface JsonAnswer {
  json: string;
  etag: string;
}

/**
 * How long an answer is kept without an event. Sales, refunds, downloads and the seller's own changes
 * are published and drop it at once; store views and license verifications are counted without an
 * event (they are too many), so they show within this.
 */
export const SELLER_ANSWER_TTL_MS = 5_000;
const SELLER_ANSWER_MAX_ENTRIES = 5_000;

/** The dashboard's busiest reads, as answered, per seller (see SellerCache). */
export type SellerAnswers = SellerCache<JsonAnswer>;

export const sellerAnswers = (events: EventBus, now: () => Date): SellerAnswers =>
  new SellerCache(events, { now, ttlMs: SELLER_ANSWER_TTL_MS, maxEntries: SELLER_ANSWER_MAX_ENTRIES });

/**
 * Sends the signed-in seller's answer named `key`: kept, or computed now and checked against `schema`
 * (what the route's serializer would do). It carries an ETag and `private, no-cache`, so a browser
 * asking again gets 304 while nothing changed. Only for reads of the seller's own data: the key is
 * always under their id.
 */
export async function sendSellerAnswer<Schema extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  answers: SellerAnswers,
  answer: { sellerId: string; key: string; schema: Schema; compute: () => Promise<z.input<Schema>> },
) {
  const { sellerId, schema, compute } = answer;
  const kept = await answers.get(`${sellerId}:${answer.key}`, async () => {
    const json = JSON.stringify(schema.parse(await compute()));
    return { value: { json, etag: strongEtag(json) }, sellerId };
  });
  if (!kept) throw new Error(`seller answer ${answer.key}: nothing computed`);
  reply.header("cache-control", "private, no-cache").header("etag", kept.etag);
  if (clientHolds(request, kept.etag)) return reply.status(304).send();
  return reply.type("application/json; charset=utf-8").send(kept.json);
}
