import type { FastifyRequest } from "fastify";
import { buyerCountry } from "./buyer-currency";

/** A user agent as the activity logs keep it (download_logs, license_verifications). */
export const USER_AGENT_MAX_LENGTH = 400;

/**
 * Who made a request, as an activity log keeps it (a download, a license check; the dispute evidence
 * lists them, docs/disputes.md): the browser's or software's user agent, and the country the proxy or
 * CDN in front says (BUYER_COUNTRY_HEADER; none without it). The IP itself is never kept.
 */
export interface Requester {
  userAgent?: string;
  country?: string;
}

export function requesterOf(request: FastifyRequest, countryHeader: string | undefined): Requester {
  const userAgent = request.headers["user-agent"]?.trim().slice(0, USER_AGENT_MAX_LENGTH);
  const country = buyerCountry(request, countryHeader);
  return { ...(userAgent ? { userAgent } : {}), ...(country ? { country } : {}) };
}
