/**
 * Lemon Squeezy's exports (shared/import-formats/lemonsqueezy/FORMAT.md): pages of its REST API, JSON:API
 * documents of orders, products, licence keys and subscriptions (read whole, one page at a time), and the
 * email-subscriber CSV. Amounts are integers of cents; times are ISO with Z.
 */
import type {
  ImportedCustomer,
  ImportedLicenseKey,
  ImportedOrder,
  ImportedProduct,
  ImportedSubscription,
  ImportItem,
  PlatformFileReader,
  RecordOrigin,
} from "../import-records";
import { currencyCode, minorUnits, optionalText, RowRejected, requiredEmail, timestamp } from "./cells";
import type { CsvFormat, CsvRow } from "./csv-rows";
import {
  booleanField,
  countField,
  elementItems,
  FirstSeen,
  headerHas,
  isObject,
  type JsonObject,
  type JsonReading,
  jsonHeadMatches,
  notThisDocument,
  objectField,
  optionalTextField,
  type RowNotes,
  readCsvExport,
  readJsonExport,
  textField,
} from "./reader-kit";

/* ---------------------------------------------------------------- JSON:API documents */

/** A JSON:API resource: its type, id, attributes and the ids it links to. */
interface Resource {
  type: string;
  id: string;
  attributes: JsonObject;
  relationships: JsonObject;
}

/** The `included` resources of a document, by "type:id". */
type Included = Map<string, Resource>;

function asResource(value: unknown): Resource | undefined {
  if (!isObject(value) || typeof value.type !== "string" || !isObject(value.attributes)) return undefined;
  const id = typeof value.id === "number" ? String(value.id) : value.id;
  if (typeof id !== "string") return undefined;
  const relationships = isObject(value.relationships) ? value.relationships : {};
  return { type: value.type, id, attributes: value.attributes, relationships };
}

function includedOf(document: JsonObject): Included {
  const included: Included = new Map();
  const list = Array.isArray(document.included) ? document.included : [];
  for (const value of list) {
    const resource = asResource(value);
    if (resource) included.set(`${resource.type}:${resource.id}`, resource);
  }
  return included;
}

/** The included resources a relationship names (`data` is one {type,id} or a list of them). */
function related(resource: Resource, name: string, included: Included): Resource[] {
  const relation = resource.relationships[name];
  if (!isObject(relation)) return [];
  const links = Array.isArray(relation.data) ? relation.data : [relation.data];
  return links.flatMap((link) => {
    if (!isObject(link)) return [];
    const found = included.get(`${String(link.type)}:${String(link.id)}`);
    return found ? [found] : [];
  });
}

/**
 * Reads one list page of `type`: its data in order (test-mode resources skipped with a note), each resource
 * through `read`. A document that is not such a page is refused as a whole.
 */
function readApiPage(
  file: string,
  label: string,
  type: string,
  read: (resource: Resource, included: Included, origin: RecordOrigin, notes: RowNotes) => ImportItem[],
  fileNotes: string[] = [],
) {
  return (document: unknown, notes: RowNotes): JsonReading => {
    if (!isObject(document) || !Array.isArray(document.data)) {
      throw notThisDocument(file, label, 'it is not a Lemon Squeezy API list (no "data" list)');
    }
    const included = includedOf(document);
    const items = document.data.flatMap((value, index) =>
      elementItems(file, index, (origin) => {
        const resource = asResource(value);
        if (!resource || resource.type !== type) {
          throw new RowRejected(`This entry is not one of Lemon Squeezy's ${type}`);
        }
        if (booleanField(resource.attributes, "test_mode")) {
          notes.add("Skipped entries made in Lemon Squeezy's test mode (not real sales)", origin.line);
          return [];
        }
        return read(resource, included, origin, notes);
      }),
    );
    return { items, notes: fileNotes };
  };
}

/** Whether the head is a JSON:API list page whose first resource is of `type`. */
function isApiPageOf(head: string, type: string): boolean {
  const first = /"data"\s*:\s*\[\s*\{[\s\S]*?"type"\s*:\s*"([\w-]+)"/.exec(head)?.[1];
  return jsonHeadMatches(head, "{", [/"data"\s*:\s*\[/]) && first === type;
}

/** Lemon Squeezy's products and plans are priced in the store's currency, which they do not state. */
const STORE_CURRENCY_NOTE =
  "Lemon Squeezy's products and plans do not say their currency: their prices are read as US dollars. If your Lemon Squeezy store used another currency, correct the prices after the import.";

/* ---------------------------------------------------------------- customers and consent */

/** The customer's email-marketing status: only "subscribed" is consent; a bounce or pending check says nothing. */
function marketingOf(status: string | null): ImportedCustomer["marketing"] {
  if (status === "subscribed") return "subscribed";
  if (status === "unsubscribed") return "unsubscribed";
  return "unknown";
}

/* ---------------------------------------------------------------- orders */

const UNPAID_STATUSES = new Set(["pending", "failed", "fraudulent"]);

const MEMBERSHIP_ORDER =
  "Skipped subscription payments: memberships come over as members to invite (the subscriptions list), not as orders";

/**
 * A paid order: its product the first time it appears (from the order's first item), its customer, the
 * order and its licence keys. An order the page links to a subscription (include=subscriptions) is a
 * membership payment: its product and customer come over, the payment is counted in a note.
 */
function readOrder(
  order: Resource,
  included: Included,
  origin: RecordOrigin,
  notes: RowNotes,
  products: FirstSeen,
): ImportItem[] {
  const a = order.attributes;
  const status = textField(a, "status");
  if (UNPAID_STATUSES.has(status)) {
    throw new RowRejected(
      `Order #${optionalTextField(a, "order_number") ?? order.id} is "${status}" on Lemon Squeezy, not paid, so it is not imported`,
    );
  }
  const currency = currencyCode(textField(a, "currency"), "currency");
  const item = objectField(a, "first_order_item", "first_order_item (the product bought)");
  const keys = related(order, "license-keys", included).map((key) => licenseKeyOf(key.attributes, origin));
  const customer = customerOfOrder(order, included, origin);
  const productId = textField(item, "product_id", "first_order_item.product_id");
  const membership = related(order, "subscriptions", included).length > 0;
  const product: ImportedProduct = {
    kind: "product",
    externalId: productId,
    title: textField(item, "product_name", "first_order_item.product_name"),
    description: "",
    priceCents: minorUnits(item.price, "first_order_item.price"),
    currency,
    priceMode: "fixed",
    suggestedPriceCents: null,
    productKind: membership ? "membership" : "one_time",
    issueLicenseKeys: keys.length > 0,
    origin,
  };
  const total = minorUnits(a.total, "total");
  const fullyRefunded = booleanField(a, "refunded") || status === "refunded";
  const redemption = related(order, "discount-redemptions", included)[0];
  const result: ImportedOrder = {
    kind: "order",
    externalId: order.id,
    productExternalId: productId,
    productTitle: product.title,
    email: customer.email,
    buyerName: optionalTextField(a, "user_name"),
    amountCents: total,
    currency,
    discountCode: redemption ? optionalTextField(redemption.attributes, "discount_code") : null,
    discountCents: minorUnits(a.discount_total ?? 0, "discount_total"),
    status: fullyRefunded ? "refunded" : "completed",
    refundedCents: fullyRefunded ? total : minorUnits(a.refunded_amount ?? 0, "refunded_amount"),
    createdAt: timestamp(textField(a, "created_at"), "created_at", "refuse"),
    licenseKey: keys[0]?.key ?? null,
    origin,
  };
  const first = products.first(productId) ? [product] : [];
  if (!membership) return [...first, customer, result, ...keys];
  notes.add(MEMBERSHIP_ORDER, origin.line);
  return [...first, customer, ...keys];
}

/** The included customer (with its marketing status), else the order's own email and name. */
function customerOfOrder(order: Resource, included: Included, origin: RecordOrigin): ImportedCustomer {
  const customer = related(order, "customer", included)[0]?.attributes ?? {};
  const a = order.attributes;
  const email = optionalTextField(customer, "email") ?? optionalTextField(a, "user_email") ?? "";
  return {
    kind: "customer",
    email: requiredEmail(email, "user_email"),
    name: optionalTextField(customer, "name") ?? optionalTextField(a, "user_name"),
    marketing: marketingOf(optionalTextField(customer, "status")),
    origin,
  };
}

export const lemonSqueezyApiOrders: PlatformFileReader = {
  platform: "lemonsqueezy",
  label: "Lemon Squeezy orders (API)",
  detect: (_fileName, head) => isApiPageOf(head, "orders"),
  read: (fileName, body) => {
    const products = new FirstSeen();
    return readJsonExport(
      fileName,
      body,
      readApiPage(fileName, "Lemon Squeezy orders list", "orders", (order, included, origin, notes) =>
        readOrder(order, included, origin, notes, products),
      ),
    );
  },
};

/* ---------------------------------------------------------------- licence keys */

/** An expired key no longer validates on Lemon Squeezy, so it comes over disabled, like a disabled one. */
function licenseKeyOf(a: JsonObject, origin: RecordOrigin): ImportedLicenseKey {
  const status = optionalTextField(a, "status");
  return {
    kind: "license_key",
    key: textField(a, "key"),
    orderExternalId: textField(a, "order_id"),
    productExternalId: textField(a, "product_id"),
    uses: countField(a, "instances_count"),
    disabled: booleanField(a, "disabled") || status === "disabled" || status === "expired",
    origin,
  };
}

export const lemonSqueezyApiLicenseKeys: PlatformFileReader = {
  platform: "lemonsqueezy",
  label: "Lemon Squeezy licence keys (API)",
  readAfterOrders: true,
  detect: (_fileName, head) => isApiPageOf(head, "license-keys"),
  read: (fileName, body) =>
    readJsonExport(
      fileName,
      body,
      readApiPage(fileName, "Lemon Squeezy licence keys list", "license-keys", (key, _included, origin) => [
        licenseKeyOf(key.attributes, origin),
      ]),
    ),
};

/* ---------------------------------------------------------------- products */

/**
 * A product with its variants (when the page was fetched with include=variants): a membership if any
 * variant is a subscription, keys if any variant issues them, pay-what-you-want from the first variant's
 * minimum and suggestion.
 */
function readProduct(product: Resource, included: Included, origin: RecordOrigin): ImportItem[] {
  const a = product.attributes;
  const variants = related(product, "variants", included).map((variant) => variant.attributes);
  const flexible = booleanField(a, "pay_what_you_want");
  const first = variants[0];
  const suggested = first && flexible ? minorUnits(first.suggested_price ?? 0, "suggested_price") : 0;
  const imported: ImportedProduct = {
    kind: "product",
    externalId: product.id,
    title: textField(a, "name"),
    description: optionalTextField(a, "description") ?? "",
    priceCents:
      first && flexible ? minorUnits(first.min_price ?? 0, "min_price") : minorUnits(a.price ?? 0, "price"),
    currency: "usd",
    priceMode: flexible ? "flexible" : "fixed",
    suggestedPriceCents: suggested > 0 ? suggested : null,
    productKind: variants.some((variant) => booleanField(variant, "is_subscription"))
      ? "membership"
      : "one_time",
    issueLicenseKeys: variants.some((variant) => booleanField(variant, "has_license_keys")),
    origin,
  };
  return [imported];
}

export const lemonSqueezyApiProducts: PlatformFileReader = {
  platform: "lemonsqueezy",
  label: "Lemon Squeezy products (API)",
  detect: (_fileName, head) => isApiPageOf(head, "products"),
  read: (fileName, body) =>
    readJsonExport(
      fileName,
      body,
      readApiPage(fileName, "Lemon Squeezy products list", "products", readProduct, [STORE_CURRENCY_NOTE]),
    ),
};

/* ---------------------------------------------------------------- subscriptions */

/** The statuses of members still paying (or about to): the ones invited to re-subscribe, as Flatfee names them. */
const TO_RESUBSCRIBE: Record<string, string> = {
  active: "active",
  on_trial: "trialing",
  past_due: "past_due",
};

/**
 * An active, on-trial or past-due subscription. Its price and interval are on its plan (the variant), which
 * the page carries only when fetched with include=variant; a cancelled one (ending at its period's end),
 * a paused, unpaid or expired one is not invited, and counted in a note.
 */
function readSubscription(
  subscription: Resource,
  included: Included,
  origin: RecordOrigin,
  notes: RowNotes,
): ImportItem[] {
  const a = subscription.attributes;
  const status = textField(a, "status");
  const flatfeeStatus = TO_RESUBSCRIBE[status];
  if (!flatfeeStatus) {
    notes.add(
      `Skipped "${status}" subscriptions: only active, on-trial and past-due members are invited to re-subscribe`,
      origin.line,
    );
    return [];
  }
  const plan = included.get(`variants:${textField(a, "variant_id")}`)?.attributes;
  if (!plan) {
    throw new RowRejected(
      "Lemon Squeezy's subscriptions list does not give the plan's price and billing interval: download it again with ?include=variant",
    );
  }
  const renewsAt = optionalTextField(a, "renews_at");
  const imported: ImportedSubscription = {
    kind: "subscription",
    externalId: subscription.id,
    productExternalId: textField(a, "product_id"),
    productTitle: textField(a, "product_name"),
    email: requiredEmail(optionalTextField(a, "user_email") ?? "", "user_email"),
    status: flatfeeStatus,
    amountCents: minorUnits(plan.price, "the plan's price"),
    currency: "usd",
    interval: planInterval(plan),
    currentPeriodEnd: renewsAt ? timestamp(renewsAt, "renews_at", "refuse") : null,
    origin,
  };
  return [imported];
}

/** Flatfee memberships renew every month or every year; any other plan is left to the creator. */
function planInterval(plan: JsonObject): ImportedSubscription["interval"] {
  const interval = optionalTextField(plan, "interval");
  const count = countField(plan, "interval_count") || 1;
  if ((interval === "month" || interval === "year") && count === 1) return interval;
  const every = count === 1 ? (interval ?? "?") : `${count} ${interval ?? "?"}s`;
  throw new RowRejected(
    `This plan renews every ${every}; Flatfee memberships renew monthly or yearly, so invite this member by hand`,
  );
}

export const lemonSqueezyApiSubscriptions: PlatformFileReader = {
  platform: "lemonsqueezy",
  label: "Lemon Squeezy subscriptions (API)",
  detect: (_fileName, head) => isApiPageOf(head, "subscriptions"),
  read: (fileName, body) =>
    readJsonExport(
      fileName,
      body,
      readApiPage(fileName, "Lemon Squeezy subscriptions list", "subscriptions", readSubscription, [
        STORE_CURRENCY_NOTE,
      ]),
    ),
};

/* ---------------------------------------------------------------- email-subscriber CSV */

const SUBSCRIBERS_FORMAT: CsvFormat = {
  label: "Lemon Squeezy email-subscriber CSV",
  known: [
    "identifier",
    "name",
    "email",
    "status",
    "status_formatted",
    "country",
    "country_formatted",
    "email_sends",
    "email_opens",
    "email_clicks",
    "unsubscribed_at",
    "created_at",
  ],
  required: ["email", "status"],
};

/** A buyer or sign-up with their consent: an unsubscribe date is an unsubscribe whatever the status says. */
function readSubscriberRow(row: CsvRow, origin: RecordOrigin): ImportItem[] {
  const status = optionalText(row.cells.status);
  const unsubscribed = Boolean(optionalText(row.cells.unsubscribed_at));
  return [
    {
      kind: "customer",
      email: requiredEmail(row.cells.email, "email"),
      name: optionalText(row.cells.name),
      marketing: unsubscribed ? "unsubscribed" : marketingOf(status),
      origin,
    },
  ];
}

export const lemonSqueezySubscribersCsv: PlatformFileReader = {
  platform: "lemonsqueezy",
  label: "Lemon Squeezy email-subscriber CSV",
  detect: (_fileName, head) => headerHas(head, ["identifier", "email", "status", "email_sends"]),
  read: (fileName, body) => readCsvExport(fileName, body, SUBSCRIBERS_FORMAT, readSubscriberRow),
};

export const LEMON_SQUEEZY_READERS: PlatformFileReader[] = [
  lemonSqueezyApiOrders,
  lemonSqueezyApiProducts,
  lemonSqueezyApiLicenseKeys,
  lemonSqueezyApiSubscriptions,
  lemonSqueezySubscribersCsv,
];
