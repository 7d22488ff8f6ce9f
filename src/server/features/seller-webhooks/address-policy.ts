import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { WEBHOOK_MESSAGES } from "../../../contracts/webhooks";
import { badRequest } from "../../http/errors";

/** Where webhook URLs may point, from config.ts. */
export interface WebhookNetworkPolicy {
  /** Production: only https:// URLs. */
  requireHttps: boolean;
  /**
   * Host names, as written in an endpoint's URL, that may reach private addresses: local development
   * only (WEBHOOK_ALLOW_PRIVATE_HOSTS). Matched on the URL's host, never on what a name resolves to.
   */
  allowPrivateHosts: readonly string[];
}

/** The default when nothing is configured: https only, no private address at all. */
export const STRICT_WEBHOOK_POLICY: WebhookNetworkPolicy = { requireHttps: true, allowPrivateHosts: [] };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** A delivery that must not be attempted: the reason is shown to the seller as the delivery's error. */
export class WebhookTargetRefused extends Error {}

// The app's own network and everything that is not a public unicast address (IANA special-purpose
// registries): private, loopback, link-local, CGNAT, documentation, benchmarking, multicast, reserved.
const forbidden = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  forbidden.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible addresses.
  ["::", 96],
  // IPv4-translated (SIIT).
  ["::ffff:0:0:0", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // IETF protocol assignments (Teredo, ORCHID...) and documentation.
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  forbidden.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address (with "::" and a trailing dotted quad expanded). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/** The IPv4 address an IPv6 one stands for (IPv4-mapped, NAT64, 6to4), which is then what counts. */
function embeddedIpv4(groups: number[]): string | undefined {
  const group = (index: number) => groups[index] ?? 0;
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeroFrom = (from: number, to: number) => groups.slice(from, to).every((value) => value === 0);
  if (zeroFrom(0, 5) && group(5) === 0xffff) return quad(group(6), group(7));
  if (group(0) === 0x64 && group(1) === 0xff9b && zeroFrom(2, 6)) return quad(group(6), group(7));
  if (group(0) === 0x2002) return quad(group(1), group(2));
  return undefined;
}

/** Whether a literal IP address must never be reached by a webhook. Anything unparsable is refused. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0] ?? "";
  const family = isIP(bare);
  if (family === 4) return forbidden.check(bare, "ipv4");
  if (family !== 6) return true;
  const embedded = embeddedIpv4(ipv6Groups(bare.toLowerCase()));
  if (embedded !== undefined) return isForbiddenAddress(embedded);
  return forbidden.check(bare, "ipv6");
}

/** The URL's host as the allow-list names it: no IPv6 brackets, no trailing dot, lower case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

function allowedPrivate(url: URL, policy: WebhookNetworkPolicy): boolean {
  const host = hostOf(url);
  return policy.allowPrivateHosts.some((allowed) => allowed.replace(/^\[|\]$/g, "").toLowerCase() === host);
}

const isLocalName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * Checks an endpoint URL when the seller saves it: http(s) only (https in production), no
 * credentials, and no literal private address or localhost. Names are resolved at each delivery.
 */
export function checkEndpointUrl(raw: string, policy: WebhookNetworkPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(WEBHOOK_MESSAGES.urlInvalid, "invalid_url");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw badRequest(WEBHOOK_MESSAGES.urlScheme, "invalid_url");
  }
  if (policy.requireHttps && url.protocol !== "https:") {
    throw badRequest(WEBHOOK_MESSAGES.httpsRequired, "https_required");
  }
  if (url.username || url.password) throw badRequest(WEBHOOK_MESSAGES.urlCredentials, "invalid_url");
  const host = hostOf(url);
  if (!host) throw badRequest(WEBHOOK_MESSAGES.urlInvalid, "invalid_url");
  const privateHost = isIP(host) ? isForbiddenAddress(host) : isLocalName(host);
  if (privateHost && !allowedPrivate(url, policy)) {
    throw badRequest(WEBHOOK_MESSAGES.privateAddress, "private_address");
  }
  return url;
}

/**
 * The addresses a delivery may connect to, resolved now and checked: every address the name resolves
 * to must be public (unless the host is allow-listed). The caller connects to exactly these, so a DNS
 * answer that changes between this check and the connection (rebinding) is never used.
 */
export async function resolveDeliveryTarget(
  url: URL,
  policy: WebhookNetworkPolicy,
  resolve: Resolver = systemResolver,
): Promise<ResolvedAddress[]> {
  if (url.protocol !== "https:" && (policy.requireHttps || url.protocol !== "http:")) {
    throw new WebhookTargetRefused("Refused: the URL must use https");
  }
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
      throw new WebhookTargetRefused(`Could not resolve ${host} (${code})`);
    }
    if (addresses.length === 0) throw new WebhookTargetRefused(`Could not resolve ${host}`);
  }
  const refused = addresses.find(({ address }) => isForbiddenAddress(address));
  if (refused && !allowedPrivate(url, policy)) {
    throw new WebhookTargetRefused(`Refused: ${host} resolves to a private address (${refused.address})`);
  }
  return addresses;
}
