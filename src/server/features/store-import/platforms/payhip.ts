/**
 * Payhip's only machine-readable history (shared/import-formats/payhip/FORMAT.md): the webhook payloads a
 * creator stored, as one JSON array. `paid` gives orders, products and customers; `refunded` gives refunds
 * of those orders; subscription events give customers. Amounts are integer minor units, times Unix seconds.
 */
import type {
  ImportedCustomer,
  ImportedLicenseKey,
  ImportedOrder,
  ImportedProduct,
  ImportItem,
  PlatformFileReader,
  RecordOrigin,
} from "../import-records";
import {
  currencyCode,
  minorUnits,
  optionalText,
  quoted,
  RowRejected,
  requiredEmail,
  unixSeconds,
} from "./cells";
import {
  countField,
  elementItems,
  FirstSeen,
  isObject,
  type JsonObject,
  type JsonReading,
  jsonHeadMatches,
  notThisDocument,
  objectField,
  optionalTextField,
  type RowNotes,
  readJsonExport,
  textField,
} from "./reader-kit";

/** The amount refunded of each sale, by its transaction id. */
type Refunds = Map<string, number>;

/**
 * Refund events come after the sale they refund; the document is read whole, so refunds are gathered
 * first and each sale is written once, with its refund. Repeated refund events of one sale keep the
 * largest amount (Payhip does not document whether a second partial refund sends the total or the part).
 */
function refundsOf(events: unknown[]): Refunds {
  const refunds: Refunds = new Map();
  for (const event of events) {
    if (!isObject(event) || event.type !== "refunded" || typeof event.id !== "string") continue;
    const refunded = typeof event.amount_refunded === "number" ? event.amount_refunded : 0;
    refunds.set(event.id, Math.max(refunds.get(event.id) ?? 0, refunded));
  }
  return refunds;
}

interface Sale {
  event: JsonObject;
  id: string;
  email: string;
  currency: string;
  priceCents: number;
  items: JsonObject[];
  createdAt: string;
}

function saleOf(event: JsonObject, createdField: string): Sale {
  const items = Array.isArray(event.items) ? event.items.filter(isObject) : [];
  if (items.length === 0) throw new RowRejected("This sale lists no product (items is empty)");
  return {
    event,
    id: textField(event, "id"),
    email: requiredEmail(optionalTextField(event, "email") ?? "", "email"),
    currency: currencyCode(textField(event, "currency"), "currency"),
    priceCents: minorUnits(event.price, "price"),
    items,
    createdAt: unixSeconds(event[createdField], createdField),
  };
}

/** Older payloads list the coupons used, with the amount each took off. */
function coupons(event: JsonObject): { code: string | null; cents: number } {
  const list = Array.isArray(event.coupons) ? event.coupons.filter(isObject) : [];
  const cents = list.reduce((sum, coupon) => sum + minorUnits(coupon.amount ?? 0, "coupons.amount"), 0);
  return { code: list.length > 0 ? optionalTextField(list[0]!, "code") : null, cents };
}

/** The product's id is its short link code (product_key), which the licence API and subscription events use too. */
function productIdOf(item: JsonObject): string {
  return optionalTextField(item, "product_key") ?? textField(item, "product_id", "items.product_id");
}

/**
 * A product as a sale shows it. Payhip exports no prices: a product bought alone is priced at what its
 * buyer paid before VAT and coupons (price − vat_amount + coupons); one only ever bought with others gets 0
 * (the dry run shows it, for the creator to set).
 */
function productOf(item: JsonObject, sale: Sale, origin: RecordOrigin): ImportedProduct {
  const alone = sale.items.length === 1;
  const vat = minorUnits(sale.event.vat_amount ?? 0, "vat_amount");
  const listPrice = Math.max(0, sale.priceCents - vat + coupons(sale.event).cents);
  return {
    kind: "product",
    externalId: productIdOf(item),
    title: textField(item, "product_name", "items.product_name"),
    description: "",
    priceCents: alone ? listPrice : 0,
    currency: sale.currency,
    priceMode: "fixed",
    suggestedPriceCents: null,
    productKind: "one_time",
    issueLicenseKeys: Boolean(optionalTextField(item, "license_key")),
    origin,
  };
}

/**
 * One order per item. Payhip gives one price for the whole cart, so a cart of several products puts the
 * amount (and any refund) on its first item's order and 0 on the others; the ids are `<id>-1`, `<id>-2`….
 */
function ordersOf(sale: Sale, refundedCents: number, origin: RecordOrigin): ImportedOrder[] {
  const { code, cents } = coupons(sale.event);
  const fullyRefunded = refundedCents >= sale.priceCents && refundedCents > 0;
  return sale.items.map((item, index) => {
    const first = index === 0;
    const amountCents = first ? sale.priceCents : 0;
    return {
      kind: "order",
      externalId: sale.items.length === 1 ? sale.id : `${sale.id}-${index + 1}`,
      productExternalId: productIdOf(item),
      productTitle: textField(item, "product_name", "items.product_name"),
      email: sale.email,
      buyerName: null,
      amountCents,
      currency: sale.currency,
      discountCode: code,
      discountCents: first ? cents : 0,
      status: fullyRefunded ? "refunded" : "completed",
      refundedCents: fullyRefunded ? amountCents : first ? refundedCents : 0,
      createdAt: sale.createdAt,
      licenseKey: optionalTextField(item, "license_key"),
      origin,
    };
  });
}

/** `unconsented_from_emails` true: the buyer did not agree to emails, kept as an unsubscribe. */
function buyerOf(sale: Sale, origin: RecordOrigin): ImportedCustomer {
  const unconsented = sale.event.unconsented_from_emails;
  return {
    kind: "customer",
    email: sale.email,
    name: null,
    marketing: unconsented === true ? "unsubscribed" : unconsented === false ? "subscribed" : "unknown",
    origin,
  };
}

function readSale(sale: Sale, refunds: Refunds, origin: RecordOrigin, products: FirstSeen): ImportItem[] {
  const orders = ordersOf(sale, refunds.get(sale.id) ?? 0, origin);
  const newProducts = sale.items
    .map((item) => productOf(item, sale, origin))
    .filter((product) => products.first(product.externalId));
  return [...newProducts, buyerOf(sale, origin), ...orders];
}

/** A subscriber as a customer: the events carry no price and no interval, so no subscription can be made. */
function subscriberOf(event: JsonObject, origin: RecordOrigin): ImportedCustomer {
  const consent = optionalTextField(event, "gdpr_consent");
  const name = [
    optionalTextField(event, "customer_first_name"),
    optionalTextField(event, "customer_last_name"),
  ]
    .filter(Boolean)
    .join(" ");
  return {
    kind: "customer",
    email: requiredEmail(optionalTextField(event, "customer_email") ?? "", "customer_email"),
    name: optionalText(name),
    marketing: consent === "Yes" ? "subscribed" : consent === "No" ? "unsubscribed" : "unknown",
    origin,
  };
}

const SUBSCRIPTION_EVENTS =
  "Membership events came over as customers only: Payhip's subscription events carry no price or billing interval, so invite these members to your membership by hand";
const REFUND_OF_LISTED_SALE = "Refund events were applied to the sales they refund";

function readEvents(file: string) {
  return (document: unknown, notes: RowNotes): JsonReading => {
    if (!Array.isArray(document)) {
      throw notThisDocument(file, "list of Payhip webhook events", "it is not a JSON list of events");
    }
    const refunds = refundsOf(document);
    const paidIds = new Set(
      document.flatMap((e) => (isObject(e) && e.type === "paid" ? [String(e.id)] : [])),
    );
    const products = new FirstSeen();
    const items = document.flatMap((event, index) =>
      elementItems(file, index, (origin) => {
        if (!isObject(event)) throw new RowRejected("This entry is not a webhook event");
        return readEvent(event, origin, notes, { refunds, paidIds, products });
      }),
    );
    return { items };
  };
}

interface EventContext {
  refunds: Refunds;
  paidIds: Set<string>;
  products: FirstSeen;
}

/**
 * `paid` is a sale (with its refunds applied); `refunded` of a sale that is in the file was applied to
 * it, and of one that is not, is the sale itself (its payload repeats the sale, created at date_created).
 */
function readEvent(event: JsonObject, origin: RecordOrigin, notes: RowNotes, context: EventContext) {
  const type = textField(event, "type");
  switch (type) {
    case "paid":
      return readSale(saleOf(event, "date"), context.refunds, origin, context.products);
    case "refunded": {
      if (context.paidIds.has(textField(event, "id"))) {
        notes.add(REFUND_OF_LISTED_SALE, origin.line);
        return [];
      }
      return readSale(saleOf(event, "date_created"), context.refunds, origin, context.products);
    }
    case "subscription.created":
    case "subscription.deleted": {
      const subscriber = subscriberOf(event, origin);
      notes.add(SUBSCRIPTION_EVENTS, origin.line);
      return [subscriber];
    }
    default:
      throw new RowRejected(`"${type}" is not a Payhip webhook event this importer reads`);
  }
}

export const payhipWebhookEvents: PlatformFileReader = {
  platform: "payhip",
  label: "Payhip webhook events",
  detect: (_fileName, head) =>
    jsonHeadMatches(head, "[", [
      /"signature"\s*:/,
      /"type"\s*:\s*"(paid|refunded|subscription\.(created|deleted))"/,
    ]),
  read: (fileName, body) => readJsonExport(fileName, body, readEvents(fileName)),
};

/** The fields of a verify response's `data` (FORMAT.md §3, Payhip's licence API v2): anything else is reported. */
const VERIFY_FIELDS = new Set(["enabled", "product_link", "license_key", "buyer_email", "uses", "date"]);

const KEYS_OF_ORDERS =
  "Payhip's verify responses give each licence key its use count and whether it is enabled: a key is matched to the imported order that carries it (older sale payloads list it), else to its buyer's order of that product, when that product issues keys";
const EMPTY_RESPONSE = "Skipped keys Payhip did not verify (an empty response: an unknown key)";

/**
 * One answer of `GET /api/v2/license/verify` (`{"data": {enabled, product_link, license_key, buyer_email,
 * uses, date}}`). A key's order is not named: the key carries its product (product_link, the short link
 * code the sales use as product id) and buyer, for the applier to find the order that holds it.
 */
function readVerifyResponse(
  response: JsonObject,
  askedFor: string | null,
  origin: RecordOrigin,
  unknownFields: Set<string>,
): ImportedLicenseKey {
  for (const field of Object.keys(response)) if (field !== "data") unknownFields.add(field);
  const data = objectField(response, "data");
  for (const field of Object.keys(data)) if (!VERIFY_FIELDS.has(field)) unknownFields.add(`data.${field}`);
  const key = textField(data, "license_key", "data.license_key");
  if (askedFor !== null && askedFor !== key)
    throw new RowRejected(`The response listed for ${quoted(askedFor)} is of another key: ${quoted(key)}`);
  if (typeof data.enabled !== "boolean")
    throw new RowRejected("data.enabled is missing: the response does not say whether the key works");
  const email = optionalTextField(data, "buyer_email");
  return {
    kind: "license_key",
    key,
    orderExternalId: "",
    productExternalId: textField(data, "product_link", "data.product_link"),
    ...(email ? { buyerEmail: requiredEmail(email, "data.buyer_email") } : {}),
    uses: countField(data, "uses", "data.uses"),
    disabled: !data.enabled,
    origin,
  };
}

/**
 * The verify responses a creator saved, one per key (Payhip has no list of keys: each is asked for alone):
 * an object keyed by licence key (an empty response, null, for a key Payhip does not know), or a list of
 * responses. Top-level names starting with `_` (a "_comment") are not responses: reported, not read.
 */
function readVerifyResponses(file: string) {
  return (document: unknown, notes: RowNotes): JsonReading => {
    if (!Array.isArray(document) && !isObject(document))
      throw notThisDocument(
        file,
        "set of Payhip licence verify responses",
        "it is neither a JSON object of responses by licence key nor a list of responses",
      );
    const entries: [askedFor: string | null, response: unknown][] = Array.isArray(document)
      ? document.map((response) => [null, response])
      : Object.entries(document);
    const unknownFields = new Set<string>();
    const items = entries.flatMap(([askedFor, response], index) =>
      elementItems(file, index, (origin) => {
        if (askedFor?.startsWith("_")) {
          unknownFields.add(askedFor);
          return [];
        }
        if (response === null || (isObject(response) && Object.keys(response).length === 0)) {
          notes.add(EMPTY_RESPONSE, origin.line);
          return [];
        }
        if (!isObject(response)) throw new RowRejected("This entry is not a licence verify response");
        return [readVerifyResponse(response, askedFor, origin, unknownFields)];
      }),
    );
    return { items, notes: [KEYS_OF_ORDERS], unknownFields: [...unknownFields] };
  };
}

const VERIFY_RESPONSE_PATTERNS = [/"data"\s*:\s*\{/, /"license_key"\s*:/, /"product_link"\s*:/];

export const payhipLicenseVerifyResponses: PlatformFileReader = {
  platform: "payhip",
  label: "Payhip licence verify responses",
  detect: (_fileName, head) =>
    jsonHeadMatches(head, "{", VERIFY_RESPONSE_PATTERNS) ||
    jsonHeadMatches(head, "[", VERIFY_RESPONSE_PATTERNS),
  readAfterOrders: true,
  read: (fileName, body) => readJsonExport(fileName, body, readVerifyResponses(fileName)),
};

export const PAYHIP_READERS: PlatformFileReader[] = [payhipWebhookEvents, payhipLicenseVerifyResponses];
