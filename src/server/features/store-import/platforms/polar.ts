/**
 * Polar's exports (shared/import-formats/polar/FORMAT.md): the orders CSV (default, all-columns and 2025
 * legacy headers), the subscriptions CSV (current and legacy), the customers CSV, and the API's licence key
 * list. Polar's CSVs name products but give no product id, so a product's name is its id here.
 */
import type {
  ImportedLicenseKey,
  ImportedOrder,
  ImportedProduct,
  ImportedSubscription,
  ImportItem,
  PlatformFileReader,
  RecordOrigin,
} from "../import-records";
import {
  amount,
  currencyCode,
  flag,
  optionalText,
  quoted,
  RowRejected,
  requiredEmail,
  requiredText,
  timestamp,
} from "./cells";
import type { CsvFormat, CsvRow } from "./csv-rows";
import {
  arrayField,
  countField,
  elementItems,
  FirstSeen,
  headerHas,
  isObject,
  type JsonObject,
  type JsonReading,
  jsonHeadMatches,
  notThisDocument,
  optionalTextField,
  type RowNotes,
  readCsvExport,
  readJsonExport,
  textField,
} from "./reader-kit";

/**
 * Polar writes every amount as its integer of minor units divided by 100, for every currency (a yen
 * amount too), so "25.0" is read back as 2500 of the currency's minor unit whatever the currency. "usd"
 * here only says: two decimals.
 */
function polarAmount(value: string | undefined, label: string): number {
  return amount(value, label, "usd");
}

function cellOf(row: CsvRow) {
  return (column: string): string => row.cells[column] ?? "";
}

/** Whether the header had the column (a chosen-columns export may leave any out) and the row fills it. */
function filled(row: CsvRow, column: string): boolean {
  return (row.cells[column] ?? "").trim() !== "";
}

/* ---------------------------------------------------------------- orders CSV */

const ORDERS_FORMAT: CsvFormat = {
  label: "Polar orders CSV",
  known: [
    "Email",
    "Created At",
    "Product",
    "Net Amount",
    "Amount",
    "Currency",
    "Status",
    "Invoice number",
    "Customer Name",
    "Billing Name",
    "Billing Country",
    "Subtotal",
    "Discount",
    "Tax",
    "Total",
    "Refunded Amount",
    "Billing Reason",
  ],
  required: ["Email", "Created At", "Product", "Currency", "Status", ["Total", "Net Amount", "Amount"]],
};

const PAID_STATUSES = new Set(["paid", "refunded", "partially_refunded"]);
const MEMBERSHIP_PAYMENT =
  "Skipped subscription payments (Billing Reason subscription_…): memberships come over from the subscriptions CSV, as members to invite";
const PARTIAL_REFUND_UNKNOWN =
  "Partly refunded orders were imported with nothing refunded: this export has no Refunded Amount column. Export the orders with all columns to bring the refunded amounts";

/**
 * What the buyer paid: Total (tax included) when exported, else the net amount (the default columns,
 * or the 2025 header's Amount), which is before tax.
 */
function paidAmount(row: CsvRow): number {
  const cell = cellOf(row);
  if (filled(row, "Total")) return polarAmount(cell("Total"), "Total");
  const column = row.cells["Net Amount"] !== undefined ? "Net Amount" : "Amount";
  return polarAmount(cell(column), column);
}

/** Polar's CSV has no order id: the invoice number is the key, else email, time and product together. */
function orderKey(row: CsvRow, createdAt: string, product: string, email: string): string {
  return optionalText(row.cells["Invoice number"]) ?? `${email}|${createdAt}|${product}`;
}

/**
 * One order: its product the first time the product's name appears, its buyer, and the order. Every value
 * is read before anything is kept or noted, so a rejected row leaves no trace.
 */
function readOrderRow(products: FirstSeen) {
  return (row: CsvRow, origin: RecordOrigin, notes: RowNotes): ImportItem[] => {
    const cell = cellOf(row);
    const status = requiredText(cell("Status"), "Status");
    if (!PAID_STATUSES.has(status)) {
      throw new RowRejected(`This order is "${status}" on Polar, not paid, so it is not imported`);
    }
    const email = requiredEmail(cell("Email"), "Email");
    const title = requiredText(cell("Product"), "Product");
    const currency = currencyCode(cell("Currency"), "Currency");
    const createdAt = timestamp(cell("Created At"), "Created At", "refuse");
    const amountCents = paidAmount(row);
    const refund = refundOf(row, status, amountCents);
    const membership = (optionalText(cell("Billing Reason")) ?? "").startsWith("subscription_");
    const product: ImportedProduct = {
      kind: "product",
      externalId: title,
      title,
      description: "",
      priceCents: filled(row, "Subtotal") ? polarAmount(cell("Subtotal"), "Subtotal") : amountCents,
      currency,
      priceMode: "fixed",
      suggestedPriceCents: null,
      productKind: membership ? "membership" : "one_time",
      issueLicenseKeys: false,
      origin,
    };
    const order: ImportedOrder = {
      kind: "order",
      externalId: orderKey(row, createdAt, title, email),
      productExternalId: title,
      productTitle: title,
      email,
      buyerName: optionalText(cell("Customer Name")),
      amountCents,
      currency,
      // Polar exports the discount's amount but not its code.
      discountCode: null,
      discountCents: filled(row, "Discount") ? polarAmount(cell("Discount"), "Discount") : 0,
      status: status === "refunded" ? "refunded" : "completed",
      refundedCents: refund.cents,
      createdAt,
      licenseKey: null,
      origin,
    };
    const customer: ImportItem = {
      kind: "customer",
      email,
      name: order.buyerName,
      marketing: "unknown",
      origin,
    };

    if (membership) notes.add(MEMBERSHIP_PAYMENT, origin.line);
    else if (refund.amountUnknown) notes.add(PARTIAL_REFUND_UNKNOWN, origin.line);
    const first = products.first(title) ? [product] : [];
    return [...first, customer, ...(membership ? [] : [order])];
  };
}

/** What went back to the buyer; a partial refund's amount is only in the Refunded Amount column. */
function refundOf(row: CsvRow, status: string, amountCents: number) {
  if (status === "refunded") return { cents: amountCents, amountUnknown: false };
  if (status !== "partially_refunded") return { cents: 0, amountUnknown: false };
  if (!filled(row, "Refunded Amount")) return { cents: 0, amountUnknown: true };
  return { cents: polarAmount(row.cells["Refunded Amount"], "Refunded Amount"), amountUnknown: false };
}

export const polarOrdersCsv: PlatformFileReader = {
  platform: "polar",
  label: "Polar orders CSV",
  detect: (_fileName, head) =>
    headerHas(head, ["Email", "Created At", "Product", "Currency", "Status"]) &&
    (headerHas(head, ["Invoice number"]) || headerHas(head, ["Billing Reason"])),
  read: (fileName, body) => readCsvExport(fileName, body, ORDERS_FORMAT, readOrderRow(new FirstSeen())),
};

/* ---------------------------------------------------------------- subscriptions CSV */

const SUBSCRIPTIONS_FORMAT: CsvFormat = {
  label: "Polar subscriptions CSV",
  known: [
    "Email",
    "Started At",
    "Product",
    "Amount",
    "Currency",
    "Status",
    "Billing Interval",
    "Customer Name",
    "Billing Name",
    "Billing Country",
    "Net Amount",
    "Discount",
    "Seats",
    "Current Period Start",
    "Current Period End",
    "Cancels At Period End",
    "Canceled At",
    "Ends At",
    "Ended At",
    "Cancellation Reason",
    "Trial Start",
    "Trial End",
    // The header before August 2026.
    "Created At",
    "Active",
    "Price",
    "Interval",
  ],
  required: [
    "Email",
    "Product",
    "Currency",
    ["Started At", "Created At"],
    ["Status", "Active"],
    ["Amount", "Price"],
    ["Billing Interval", "Interval"],
  ],
};

const TO_RESUBSCRIBE = new Set(["active", "trialing", "past_due"]);
const CANCELLING =
  "Skipped memberships cancelled at the end of their period: their members chose to leave, so they are not invited";

/** The subscription's status; the legacy header only says whether it is active. */
function subscriptionStatus(row: CsvRow): string {
  if (row.cells.Status !== undefined) return requiredText(row.cells.Status, "Status");
  return flag(row.cells.Active, "Active") ? "active" : "inactive";
}

/** Flatfee memberships renew every month or every year; "3 months", a day or a week is left to the creator. */
function intervalOf(row: CsvRow): ImportedSubscription["interval"] {
  const column = row.cells["Billing Interval"] !== undefined ? "Billing Interval" : "Interval";
  const interval = requiredText(row.cells[column], column);
  if (interval === "month" || interval === "year") return interval;
  throw new RowRejected(
    `This membership renews every ${quoted(interval)}; Flatfee memberships renew monthly or yearly, so invite this member by hand`,
  );
}

function readSubscriptionRow(row: CsvRow, origin: RecordOrigin, notes: RowNotes): ImportItem[] {
  const cell = cellOf(row);
  const status = subscriptionStatus(row);
  if (!TO_RESUBSCRIBE.has(status)) {
    notes.add(
      `Skipped "${status}" subscriptions: only active, trialing and past-due members are invited to re-subscribe`,
      origin.line,
    );
    return [];
  }
  if (flag(cell("Cancels At Period End"), "Cancels At Period End")) {
    notes.add(CANCELLING, origin.line);
    return [];
  }
  const email = requiredEmail(cell("Email"), "Email");
  const title = requiredText(cell("Product"), "Product");
  const startedColumn = row.cells["Started At"] !== undefined ? "Started At" : "Created At";
  const startedAt = timestamp(cell(startedColumn), startedColumn, "refuse");
  const amountColumn = row.cells.Amount !== undefined ? "Amount" : "Price";
  const subscription: ImportedSubscription = {
    kind: "subscription",
    // Polar's CSV has no subscription id: the member, the product and the start make one.
    externalId: `${email}|${title}|${startedAt}`,
    productExternalId: title,
    productTitle: title,
    email,
    status,
    amountCents: polarAmount(cell(amountColumn), amountColumn),
    currency: currencyCode(cell("Currency"), "Currency"),
    interval: intervalOf(row),
    currentPeriodEnd: filled(row, "Current Period End")
      ? timestamp(cell("Current Period End"), "Current Period End", "refuse")
      : null,
    origin,
  };
  return [subscription];
}

export const polarSubscriptionsCsv: PlatformFileReader = {
  platform: "polar",
  label: "Polar subscriptions CSV",
  detect: (_fileName, head) =>
    headerHas(head, ["Email", "Started At", "Product", "Status", "Billing Interval"]) ||
    headerHas(head, ["Email", "Created At", "Active", "Product", "Price", "Interval"]),
  read: (fileName, body) => readCsvExport(fileName, body, SUBSCRIPTIONS_FORMAT, readSubscriptionRow),
};

/* ---------------------------------------------------------------- customers CSV */

const CUSTOMERS_FORMAT: CsvFormat = {
  label: "Polar customers CSV",
  known: [
    "ID",
    "External ID",
    "Created At",
    "Email",
    "Name",
    "Tax ID",
    "Billing Address Line 1",
    "Billing Address Line 2",
    "Billing Address City",
    "Billing Address State",
    "Billing Address Zip",
    "Billing Address Country",
    "Metadata",
  ],
  required: ["Email", "Name"],
};

/** Polar exports no marketing consent: every customer's is unknown. */
function readCustomerRow(row: CsvRow, origin: RecordOrigin): ImportItem[] {
  const email = requiredEmail(row.cells.Email, "Email");
  return [{ kind: "customer", email, name: optionalText(row.cells.Name), marketing: "unknown", origin }];
}

export const polarCustomersCsv: PlatformFileReader = {
  platform: "polar",
  label: "Polar customers CSV",
  detect: (_fileName, head) => headerHas(head, ["ID", "External ID", "Email", "Name"]),
  read: (fileName, body) => readCsvExport(fileName, body, CUSTOMERS_FORMAT, readCustomerRow),
};

/* ---------------------------------------------------------------- licence keys (API) */

const KEYS_BY_BUYER =
  "Polar ties licence keys to buyers, not to orders: each key names its buyer's email, for the import to match it to that buyer's order";

/**
 * A key of `GET /v1/license-keys`. Polar links keys to a customer and a licence benefit, never to an order
 * or a product, so the key carries its buyer's email and empty order and product ids. Uses are its
 * activations when the answer lists them (`GET /v1/license-keys/{id}`), else its usage counter.
 */
function readLicenseKey(key: JsonObject, origin: RecordOrigin): ImportedLicenseKey {
  const customer = isObject(key.customer) ? key.customer : {};
  const activations = Array.isArray(key.activations) ? key.activations.length : undefined;
  return {
    kind: "license_key",
    key: textField(key, "key"),
    orderExternalId: "",
    productExternalId: "",
    buyerEmail: requiredEmail(optionalTextField(customer, "email") ?? "", "customer.email"),
    uses: activations ?? countField(key, "usage"),
    disabled: textField(key, "status") !== "granted",
    origin,
  };
}

export const polarApiLicenseKeys: PlatformFileReader = {
  platform: "polar",
  label: "Polar licence keys (API)",
  readAfterOrders: true,
  detect: (_fileName, head) => jsonHeadMatches(head, "{", [/"items"\s*:\s*\[/, /"display_key"\s*:/]),
  read: (fileName, body) =>
    readJsonExport(fileName, body, (document): JsonReading => {
      const keys = arrayField(document, "items");
      if (!keys) throw notThisDocument(fileName, "Polar licence keys list", 'it has no "items" list');
      const items = keys.flatMap((key, index) =>
        elementItems(fileName, index, (origin) => {
          if (!isObject(key)) throw new RowRejected("This entry is not a licence key");
          return [readLicenseKey(key, origin)];
        }),
      );
      return { items, notes: [KEYS_BY_BUYER] };
    }),
};

export const POLAR_READERS: PlatformFileReader[] = [
  polarOrdersCsv,
  polarSubscriptionsCsv,
  polarCustomersCsv,
  polarApiLicenseKeys,
];
