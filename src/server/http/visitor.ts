import { createHmac, randomBytes } from "node:crypto";
import { isIPv6 } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Locale } from "../../contracts/i18n/locales";

/** Who presses Buy Now, as keyed hashes: the IP itself is never stored. */
export interface CheckoutVisitor {
  /** The network: one IPv4 address, or one IPv6 /64 (what a single customer line is given). */
  networkHash: string;
  /** The network and the browser: the same buyer coming back. */
  visitorHash: string;
  /** The buyer's country, when a proxy or CDN in front says it (BUYER_COUNTRY_HEADER). */
  country?: string;
  /**
   * The language the buyer's request asked for (buyer-locale.ts' requestedLocale), when it named one we
   * speak: Checkout and the purchase's emails speak it.
   */
  locale?: Locale;
  /** The currency the buyer's request asks for (buyer-currency.ts' requestedCurrency), when it names one. */
  currency?: string;
}

/** A key of its own for visitor hashes, derived from the app's secret. */
export const checkoutVisitorKey = (secret: string) =>
  createHmac("sha256", secret).update("flatfee checkout visitors").digest("hex");

export function checkoutVisitor(key: string, ip: string, browserId: string): CheckoutVisitor {
  const network = networkOf(ip);
  const hash = (value: string) => createHmac("sha256", key).update(value).digest("base64url");
  return { networkHash: hash(network), visitorHash: hash(`${network}\n${browserId}`) };
}

/** The network's hash alone (as checkoutVisitor's): what per-network limits shared with checkout count by. */
export const visitorNetworkHash = (key: string, ip: string) => checkoutVisitor(key, ip, "").networkHash;

const BROWSER_COOKIE = "flatfee_checkout";
const BROWSER_ID = /^[A-Za-z0-9_-]{22}$/;
/** Longer than any checkout (30 minutes): it only has to recognise the browser coming back to one. */
const BROWSER_COOKIE_SECONDS = 60 * 60;

/**
 * A random id for this browser, from its cookie or new (and set on the answer). It tells the buyer
 * pressing Buy Now again, who gets their own open checkout back, from someone else on the same
 * network, whose browser name may well be the same. It identifies nothing beyond that and lives an hour.
 */
export function checkoutBrowserId(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = cookieValue(request.headers.cookie, BROWSER_COOKIE);
  if (existing && BROWSER_ID.test(existing)) return existing;
  const id = randomBytes(16).toString("base64url");
  const attributes = `Path=/; Max-Age=${BROWSER_COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  reply.header("set-cookie", `${BROWSER_COOKIE}=${id}; ${attributes}`);
  return id;
}

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Remembers a buyer's choice from a page's switcher (`lang`, `currency`) for a year: a first-party
 * preference, readable by nothing but us.
 */
export function rememberChoice(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
): void {
  const secure = request.protocol === "https";
  reply.header(
    "set-cookie",
    `${name}=${value}; Path=/; Max-Age=${YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * The network an address belongs to. The browser's name is the caller's to choose, and one IPv6 line
 * has 2^64 addresses: holds are counted per IPv4 address or IPv6 /64, so neither makes a new holder.
 */
export function networkOf(ip: string): string {
  const mappedIPv4 = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  if (mappedIPv4) return mappedIPv4;
  if (!isIPv6(ip)) return ip;
  const [head = "", tail] = ip.split("%")[0]!.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  const prefix = [...headGroups, ...zeros, ...tailGroups].slice(0, 4);
  return `${prefix.map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
}
