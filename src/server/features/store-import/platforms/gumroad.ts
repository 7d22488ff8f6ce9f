/**
 * Gumroad's exports (shared/import-formats/gumroad/FORMAT.md): the sales CSV (both header versions, matched
 * by name), the audience CSV, and the API's products and sales lists. Every ($) amount is US dollars.
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
  amount,
  currencyCode,
  flag,
  minorUnits,
  optionalAmount,
  optionalText,
  quoted,
  RowRejected,
  requiredEmail,
  requiredText,
  stripFormulaGuard,
  timestamp,
} from "./cells";
import type { CsvFormat, CsvRow } from "./csv-rows";
import {
  arrayField,
  booleanField,
  elementItems,
  FirstSeen,
  headerHas,
  isObject,
  type JsonObject,
  jsonHeadMatches,
  notThisDocument,
  optionalTextField,
  type RowNotes,
  readCsvExport,
  readJsonExport,
  textField,
} from "./reader-kit";

/* ---------------------------------------------------------------- sales CSV */

/** Every column Gumroad's exporter writes, newest version (S1); the April 2025 header is a subset. */
const SALES_COLUMNS = [
  "Purchase ID",
  "Item Name",
  "Buyer Name",
  "Purchase Email",
  "Buyer Email",
  "Do not contact?",
  "Purchase Date",
  "Purchase Time (UTC timezone)",
  "Subtotal ($)",
  "Taxes ($)",
  "Tax Type",
  "Shipping ($)",
  "Sale Price ($)",
  "Fees ($)",
  "Net Total ($)",
  "Tip ($)",
  "Tax Included in Price?",
  "Street Address",
  "City",
  "Zip Code",
  "State",
  "Country",
  "Referrer",
  "Refunded?",
  "Partial Refund ($)",
  "Fully Refunded?",
  "Disputed?",
  "Dispute Won?",
  "Access Revoked?",
  "Variants",
  "Discount Code",
  "Recurring Charge?",
  "Free trial purchase?",
  "Pre-order authorization?",
  "Product ID",
  "Order Number",
  "Pre-order authorization time (UTC timezone)",
  "Custom Fields",
  "Item Price ($)",
  "Variants Price ($)",
  "Giftee Email",
  "SKU ID",
  "Quantity",
  "Recurrence",
  "Affiliate",
  "Affiliate commission ($)",
  "Discover?",
  "Cancellation Date",
  "Subscription End Date",
  "Rating",
  "Review",
  "License Key",
  "License Key Activation Count",
  "License Key Enabled?",
  "Payment Type",
  "PayPal Transaction ID",
  "PayPal Fee Amount",
  "PayPal Fee Currency",
  "Stripe Transaction ID",
  "Stripe Fee Amount",
  "Stripe Fee Currency",
  "Purchasing Power Parity Discounted?",
  "Upsold?",
  "Sent Abandoned Cart Email?",
  "UTM Source",
  "UTM Medium",
  "UTM Campaign",
  "UTM Term",
  "UTM Content",
  "Buyer Currency",
  "Buyer Total",
  "Buyer Refunded Total",
] as const;

type SalesColumn = (typeof SALES_COLUMNS)[number];

const SALES_FORMAT: CsvFormat = {
  label: "Gumroad sales CSV",
  known: SALES_COLUMNS,
  required: ["Purchase ID", "Item Name", "Purchase Email", "Purchase Date", "Sale Price ($)", "Product ID"],
};

const TOTALS_ROW = "Skipped Gumroad's Totals row";
const MEMBERSHIP_CHARGE =
  "Skipped membership charges and free trials: Gumroad's sales CSV does not say which memberships are still active, so they are not imported as orders (their products and buyers are); invite your members to re-subscribe";
const PRE_ORDER = "Skipped pre-order authorizations: the buyer has not been charged yet";

/** One sales row's cell, with Gumroad's formula guard (a leading ') taken off: the exporter guards every text value. */
function salesCell(row: CsvRow, column: SalesColumn): string {
  return stripFormulaGuard(row.cells[column] ?? "");
}

/**
 * One sale: its product the first time the product appears, its buyer, and its order (with the key's count
 * in the newest export). Everything is read before anything is kept, so a rejected row leaves no trace.
 */
function readSalesRow(products: FirstSeen) {
  return (row: CsvRow, origin: RecordOrigin, notes: RowNotes): ImportItem[] => {
    const cell = (column: SalesColumn) => salesCell(row, column);
    if (cell("Purchase ID").trim() === "Totals") {
      notes.add(TOTALS_ROW, origin.line);
      return [];
    }
    refuseLostAccess(cell);
    const membership =
      Boolean(optionalText(cell("Recurrence"))) ||
      flag(cell("Recurring Charge?"), "Recurring Charge?") ||
      flag(cell("Free trial purchase?"), "Free trial purchase?");
    const preOrder = flag(cell("Pre-order authorization?"), "Pre-order authorization?");
    const product = productOfSale(cell, membership, origin);
    const customer = customerOfSale(cell, origin);
    const order = membership || preOrder ? undefined : orderOfSale(cell, origin);
    const keys = order ? licenseKeyOfSale(cell, order) : [];

    if (membership) notes.add(MEMBERSHIP_CHARGE, origin.line);
    else if (preOrder) notes.add(PRE_ORDER, origin.line);
    const first = products.first(product.externalId) ? [product] : [];
    return [...first, customer, ...(order ? [order] : []), ...keys];
  };
}

/**
 * A sale whose money went back through a lost chargeback, or whose access the creator took away, gives no
 * library. A refund revokes access too, but a refunded sale is still imported, as refunded.
 */
function refuseLostAccess(cell: (column: SalesColumn) => string): void {
  if (flag(cell("Disputed?"), "Disputed?") && !flag(cell("Dispute Won?"), "Dispute Won?")) {
    throw new RowRejected(
      "This sale was disputed (a chargeback) and the dispute was not won, so it is not imported",
    );
  }
  const refunded = flag(cell("Fully Refunded?"), "Fully Refunded?");
  if (flag(cell("Access Revoked?"), "Access Revoked?") && !refunded) {
    throw new RowRejected("You revoked this buyer's access on Gumroad, so the sale is not imported");
  }
}

/** The product as its first sale shows it: the item's price in US dollars (discounts as sold), no description. */
function productOfSale(
  cell: (column: SalesColumn) => string,
  membership: boolean,
  origin: RecordOrigin,
): ImportedProduct {
  const itemPrice = cell("Item Price ($)").trim() ? "Item Price ($)" : "Sale Price ($)";
  return {
    kind: "product",
    externalId: requiredText(cell("Product ID"), "Product ID"),
    title: requiredText(cell("Item Name"), "Item Name"),
    description: "",
    priceCents: amount(cell(itemPrice), itemPrice, "usd"),
    currency: "usd",
    priceMode: "fixed",
    suggestedPriceCents: null,
    productKind: membership ? "membership" : "one_time",
    issueLicenseKeys: Boolean(optionalText(cell("License Key"))),
    origin,
  };
}

/** `Do not contact?` 1 is an unsubscribe, 0 lets the creator email the buyer, empty says nothing. */
function customerOfSale(cell: (column: SalesColumn) => string, origin: RecordOrigin): ImportedCustomer {
  const doNotContact = cell("Do not contact?").trim();
  return {
    kind: "customer",
    email: requiredEmail(cell("Purchase Email"), "Purchase Email"),
    name: optionalText(cell("Buyer Name")),
    marketing:
      doNotContact === "" ? "unknown" : flag(doNotContact, "Do not contact?") ? "unsubscribed" : "subscribed",
    origin,
  };
}

function orderOfSale(cell: (column: SalesColumn) => string, origin: RecordOrigin): ImportedOrder {
  const dollars = dollarPayment(cell);
  const paid = buyerCurrencyPayment(cell) ?? dollars;
  // Gumroad charged (and paid the creator) in US dollars what the buyer saw in their currency.
  const settlement =
    paid === dollars
      ? {}
      : {
          settlement: {
            amountCents: dollars.amountCents,
            currency: "usd",
            refundedCents: dollars.refundedCents,
          },
        };
  return {
    ...settlement,
    kind: "order",
    externalId: requiredText(cell("Purchase ID"), "Purchase ID"),
    productExternalId: requiredText(cell("Product ID"), "Product ID"),
    productTitle: requiredText(cell("Item Name"), "Item Name"),
    email: requiredEmail(cell("Purchase Email"), "Purchase Email"),
    buyerName: optionalText(cell("Buyer Name")),
    amountCents: paid.amountCents,
    currency: paid.currency,
    discountCode: optionalText(cell("Discount Code")),
    // Gumroad folds the discount into the sale price and exports no discount amount.
    discountCents: 0,
    status: paid.fullyRefunded ? "refunded" : "completed",
    refundedCents: paid.fullyRefunded ? paid.amountCents : paid.refundedCents,
    createdAt: purchaseTime(cell),
    licenseKey: optionalText(cell("License Key")),
    origin,
  };
}

interface Payment {
  amountCents: number;
  currency: string;
  fullyRefunded: boolean;
  refundedCents: number;
}

/** The sale in US dollars: the sale price, plus the tax Gumroad charged on top of it (Tax Included in Price? 0). */
function dollarPayment(cell: (column: SalesColumn) => string): Payment {
  const price = amount(cell("Sale Price ($)"), "Sale Price ($)", "usd");
  const taxOnTop = cell("Tax Included in Price?").trim() === "0";
  const tax = taxOnTop ? optionalAmount(cell("Taxes ($)"), "Taxes ($)", "usd") : 0;
  const fullyRefunded = flag(cell("Fully Refunded?"), "Fully Refunded?");
  const refundedCents = optionalAmount(cell("Partial Refund ($)"), "Partial Refund ($)", "usd");
  if (flag(cell("Refunded?"), "Refunded?") && !fullyRefunded && refundedCents === 0) {
    throw new RowRejected(
      "Refunded? is 1 but neither Fully Refunded? nor Partial Refund ($) says how much was refunded",
    );
  }
  return { amountCents: price + tax, currency: "usd", fullyRefunded, refundedCents };
}

/**
 * The sale in the buyer's currency, when the newest export has it. A partial refund made before Gumroad
 * recorded it in that currency leaves Buyer Refunded Total empty: the sale is then read in US dollars.
 */
function buyerCurrencyPayment(cell: (column: SalesColumn) => string): Payment | undefined {
  if (!optionalText(cell("Buyer Currency")) || !optionalText(cell("Buyer Total"))) return undefined;
  const currency = currencyCode(cell("Buyer Currency"), "Buyer Currency");
  const fullyRefunded = flag(cell("Fully Refunded?"), "Fully Refunded?");
  const partly = flag(cell("Refunded?"), "Refunded?") && !fullyRefunded;
  if (partly && !optionalText(cell("Buyer Refunded Total"))) return undefined;
  return {
    amountCents: amount(cell("Buyer Total"), "Buyer Total", currency),
    currency,
    fullyRefunded,
    refundedCents: partly ? amount(cell("Buyer Refunded Total"), "Buyer Refunded Total", currency) : 0,
  };
}

/** "Purchase Time (UTC timezone)" (with +0000, UTC or no zone: the column is UTC), else the UTC "Purchase Date". */
function purchaseTime(cell: (column: SalesColumn) => string): string {
  const time = cell("Purchase Time (UTC timezone)");
  if (time.trim()) return timestamp(time, "Purchase Time (UTC timezone)", "utc");
  return timestamp(cell("Purchase Date"), "Purchase Date", "utc");
}

/** The key's count and state, in the newest export only; older exports give the key on the order alone. */
function licenseKeyOfSale(cell: (column: SalesColumn) => string, order: ImportedOrder): ImportedLicenseKey[] {
  const count = cell("License Key Activation Count").trim();
  const enabled = cell("License Key Enabled?").trim();
  if (!order.licenseKey || (count === "" && enabled === "")) return [];
  if (count !== "" && !/^\d{1,9}$/.test(count)) {
    throw new RowRejected(`License Key Activation Count is not a count: ${quoted(count)}`);
  }
  return [
    {
      kind: "license_key",
      key: order.licenseKey,
      orderExternalId: order.externalId,
      productExternalId: order.productExternalId,
      uses: count === "" ? 0 : Number(count),
      disabled: enabled !== "" && !flag(enabled, "License Key Enabled?"),
      origin: order.origin,
    },
  ];
}

export const gumroadSalesCsv: PlatformFileReader = {
  platform: "gumroad",
  label: "Gumroad sales CSV",
  detect: (_fileName, head) => headerHas(head, ["Purchase ID", "Item Name", "Purchase Email", "Product ID"]),
  read: (fileName, body) => readCsvExport(fileName, body, SALES_FORMAT, readSalesRow(new FirstSeen())),
};

/* ---------------------------------------------------------------- audience CSV */

const AUDIENCE_FORMAT: CsvFormat = {
  label: "Gumroad audience CSV",
  known: ["Subscriber Email", "Subscribed Time", "Follower Email", "Followed Time"],
  required: [["Subscriber Email", "Follower Email"]],
};

/** Everyone in a Gumroad audience agreed to hear from the creator (it has no name and no product). */
function readAudienceRow(row: CsvRow, origin: RecordOrigin): ImportItem[] {
  const column = row.cells["Subscriber Email"] !== undefined ? "Subscriber Email" : "Follower Email";
  const email = requiredEmail(stripFormulaGuard(row.cells[column] ?? ""), column);
  return [{ kind: "customer", email, name: null, marketing: "subscribed", origin }];
}

export const gumroadAudienceCsv: PlatformFileReader = {
  platform: "gumroad",
  label: "Gumroad audience CSV",
  detect: (_fileName, head) => headerHas(head, ["Subscriber Email"]) || headerHas(head, ["Follower Email"]),
  read: (fileName, body) => readCsvExport(fileName, body, AUDIENCE_FORMAT, readAudienceRow),
};

/* ---------------------------------------------------------------- API products */

const DELETED_PRODUCT = "Skipped products deleted on Gumroad";

/**
 * The id the sales CSV uses for a product is its permalink (`Product ID`), so API products are keyed by it:
 * the end of `short_url`, which is that permalink unless the creator set a custom one.
 */
function productPermalink(product: JsonObject): string {
  const custom = optionalTextField(product, "custom_permalink");
  const shortUrl = optionalTextField(product, "short_url");
  const slug = shortUrl?.match(/\/l\/([^/?#]+)\/?$/)?.[1];
  return !custom && slug ? slug : textField(product, "id");
}

function readApiProduct(product: JsonObject, origin: RecordOrigin): ImportedProduct {
  const currency = currencyCode(textField(product, "currency"), "currency");
  const membership =
    Boolean(optionalTextField(product, "subscription_duration")) ||
    booleanField(product, "is_tiered_membership");
  return {
    kind: "product",
    externalId: productPermalink(product),
    title: textField(product, "name"),
    description: optionalTextField(product, "description") ?? "",
    priceCents: minorUnits(product.price, "price"),
    currency,
    priceMode: booleanField(product, "customizable_price") ? "flexible" : "fixed",
    suggestedPriceCents: null,
    productKind: membership ? "membership" : "one_time",
    // The products API does not say; the sales CSV carries each sale's key.
    issueLicenseKeys: false,
    origin,
  };
}

export const gumroadApiProducts: PlatformFileReader = {
  platform: "gumroad",
  label: "Gumroad products (API)",
  detect: (_fileName, head) => jsonHeadMatches(head, "{", [/"products"\s*:\s*\[/]),
  read: (fileName, body) =>
    readJsonExport(fileName, body, (document, notes) => {
      const products = arrayField(document, "products");
      if (!products) throw notThisDocument(fileName, "Gumroad products list", 'it has no "products" list');
      const items = products.flatMap((product, index) =>
        elementItems(fileName, index, (origin) => {
          if (!isObject(product)) throw new RowRejected("This entry is not a product");
          if (booleanField(product, "deleted")) {
            notes.add(DELETED_PRODUCT, origin.line);
            return [];
          }
          return [readApiProduct(product, origin)];
        }),
      );
      return { items };
    }),
};

/* ---------------------------------------------------------------- API sales */

const API_MEMBERSHIP_SALE =
  "Skipped membership sales: memberships come over as members to invite, not as orders";

function readApiSale(sale: JsonObject, origin: RecordOrigin, notes: RowNotes, products: FirstSeen) {
  if (
    booleanField(sale, "chargedback") ||
    (booleanField(sale, "disputed") && !booleanField(sale, "dispute_won"))
  ) {
    throw new RowRejected(
      "This sale was disputed (a chargeback) and the dispute was not won, so it is not imported",
    );
  }
  if (booleanField(sale, "partially_refunded") && !booleanField(sale, "refunded")) {
    throw new RowRejected(
      "This sale was partly refunded and Gumroad's sales API does not say how much: import it from the sales CSV instead",
    );
  }
  const email = requiredEmail(
    optionalTextField(sale, "purchase_email") ?? optionalTextField(sale, "email") ?? "",
    "email",
  );
  const name = optionalTextField(sale, "full_name");
  const canContact = sale.can_contact;
  const customer: ImportedCustomer = {
    kind: "customer",
    email,
    name,
    marketing: canContact === true ? "subscribed" : canContact === false ? "unsubscribed" : "unknown",
    origin,
  };
  const productId = optionalTextField(sale, "product_permalink") ?? textField(sale, "product_id");
  const title = textField(sale, "product_name");
  const priceCents = minorUnits(sale.price, "price");
  const licenseKey = optionalTextField(sale, "license_key");
  const membership =
    booleanField(sale, "is_recurring_billing") || Boolean(optionalTextField(sale, "subscription_id"));
  const product: ImportedProduct = {
    kind: "product",
    externalId: productId,
    title,
    description: "",
    priceCents,
    currency: "usd",
    priceMode: "fixed",
    suggestedPriceCents: null,
    productKind: membership ? "membership" : "one_time",
    issueLicenseKeys: Boolean(licenseKey),
    origin,
  };
  const refunded = booleanField(sale, "refunded");
  const order: ImportedOrder = {
    kind: "order",
    externalId: textField(sale, "id"),
    productExternalId: productId,
    productTitle: title,
    email,
    buyerName: name,
    amountCents: priceCents,
    currency: "usd",
    discountCode: isObject(sale.offer_code) ? optionalTextField(sale.offer_code, "code") : null,
    discountCents: 0,
    status: refunded ? "refunded" : "completed",
    refundedCents: refunded ? priceCents : 0,
    createdAt: timestamp(textField(sale, "created_at"), "created_at", "refuse"),
    licenseKey,
    origin,
  };
  const items: ImportItem[] = products.first(productId) ? [product, customer] : [customer];
  if (membership) notes.add(API_MEMBERSHIP_SALE, origin.line);
  else items.push(order);
  return items;
}

export const gumroadApiSales: PlatformFileReader = {
  platform: "gumroad",
  label: "Gumroad sales (API)",
  detect: (_fileName, head) => jsonHeadMatches(head, "{", [/"sales"\s*:\s*\[/]),
  read: (fileName, body) =>
    readJsonExport(fileName, body, (document, notes) => {
      const sales = arrayField(document, "sales");
      if (!sales) throw notThisDocument(fileName, "Gumroad sales list", 'it has no "sales" list');
      const products = new FirstSeen();
      const items = sales.flatMap((sale, index) =>
        elementItems(fileName, index, (origin) => {
          if (!isObject(sale)) throw new RowRejected("This entry is not a sale");
          return readApiSale(sale, origin, notes, products);
        }),
      );
      return { items };
    }),
};

export const GUMROAD_READERS: PlatformFileReader[] = [
  gumroadSalesCsv,
  gumroadAudienceCsv,
  gumroadApiProducts,
  gumroadApiSales,
];
