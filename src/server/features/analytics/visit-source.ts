import { SOURCE_FIELDS, SOURCE_LIMITS, type VisitSource } from "../../../contracts/analytics";

export const NO_SOURCE: VisitSource = {
  referrerHost: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
};

const HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
const CONTROL = /[\u0000-\u001f\u007f]/g;

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** A utm value as typed, trimmed and cut to its limit; null when there is none. */
function utmValue(value: unknown): string | null {
  const text = first(value);
  if (typeof text !== "string") return null;
  const clean = text.replace(CONTROL, "").trim().slice(0, SOURCE_LIMITS.utmLength);
  return clean === "" ? null : clean;
}

/** A host name, lower-case and without "www." (so both spellings of a site count together); else null. */
function hostValue(value: unknown): string | null {
  const text = first(value);
  if (typeof text !== "string") return null;
  const host = text
    .trim()
    .toLowerCase()
    .replace(/^www\./, "");
  return host.length <= SOURCE_LIMITS.hostLength && HOST.test(host) ? host : null;
}

/**
 * A source from fields named as SOURCE_FIELDS: a page's query, the Buy Now form's hidden fields, a JSON
 * body, the product page's view. Anything else in `fields` is ignored; bad values are dropped.
 */
export function sourceOfFields(fields: unknown): VisitSource {
  if (!fields || typeof fields !== "object") return NO_SOURCE;
  const record = fields as Record<string, unknown>;
  return {
    referrerHost: hostValue(record[SOURCE_FIELDS.referrerHost]),
    utmSource: utmValue(record[SOURCE_FIELDS.utmSource]),
    utmMedium: utmValue(record[SOURCE_FIELDS.utmMedium]),
    utmCampaign: utmValue(record[SOURCE_FIELDS.utmCampaign]),
  };
}

/**
 * Where a request for a product or store page came from: the Referer's host unless it is one of ours
 * (the app's address, or the host the request was sent to), else the `ref` our own store page passed
 * on; and the utm fields of the page's address. Only the host of the Referer is kept.
 */
export function sourceOfPage(
  query: unknown,
  request: { referer: string | undefined; host: string | undefined },
  appUrl: string,
): VisitSource {
  const fromQuery = sourceOfFields(query);
  // Most visits send no Referer and no `ref`: then no address is parsed.
  if (!request.referer && fromQuery.referrerHost === null) return fromQuery;
  const ownHosts = [new URL(appUrl).hostname, hostnameOf(request.host)];
  const external = externalHost(request.referer, ownHosts);
  // A `ref` naming us (the seller's own preview of the embed button) is no source either.
  const passedOn = isOwnHost(fromQuery.referrerHost, ownHosts) ? null : fromQuery.referrerHost;
  return { ...fromQuery, referrerHost: external ?? passedOn };
}

const isOwnHost = (host: string | null, ownHosts: Array<string | null>): boolean =>
  host !== null && ownHosts.some((own) => own !== null && own.toLowerCase().replace(/^www\./, "") === host);

function externalHost(referer: string | undefined, ownHosts: Array<string | null>): string | null {
  if (!referer) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = hostValue(url.hostname);
  return isOwnHost(host, ownHosts) ? null : host;
}

/** The name part of a Host header (`example.com:3000` → `example.com`). */
function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

export const hasSource = (source: VisitSource): boolean =>
  Object.values(source).some((value) => value !== null);

/** The source as fields (only those present), for a query string, hidden inputs or a page's data. */
export function sourceFieldValues(source: VisitSource): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, name] of Object.entries(SOURCE_FIELDS)) {
    const value = source[key as keyof VisitSource];
    if (value !== null) fields[name] = value;
  }
  return fields;
}

/** The columns the roll-ups store a source in ('' for an absent field, so it can be part of a key). */
export function sourceColumns(source: VisitSource) {
  return {
    referrer_host: source.referrerHost ?? "",
    utm_source: source.utmSource ?? "",
    utm_medium: source.utmMedium ?? "",
    utm_campaign: source.utmCampaign ?? "",
  };
}
