import { createHmac } from "node:crypto";
import { isIPv6 } from "node:net";

/** Who presses Buy Now, as keyed hashes: the IP itself is never stored. */
export interface CheckoutVisitor {
  /** The network: one IPv4 address, or one IPv6 /64 (what a single customer line is given). */
  networkHash: string;
  /** The network and the browser: the same buyer coming back. */
  visitorHash: string;
}

/** A key of its own for visitor hashes, derived from the app's secret. */
export const checkoutVisitorKey = (secret: string) =>
  createHmac("sha256", secret).update("flatfee checkout visitors").digest("hex");

export function checkoutVisitor(key: string, ip: string, userAgent: string | undefined): CheckoutVisitor {
  const network = networkOf(ip);
  const hash = (value: string) => createHmac("sha256", key).update(value).digest("base64url");
  return { networkHash: hash(network), visitorHash: hash(`${network}\n${userAgent?.slice(0, 400) ?? ""}`) };
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
