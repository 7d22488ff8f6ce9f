import type { ArchiveRecord, ArchiveRecordKind } from "../../../contracts/store-archive";
import { readProductDays, readSourceDays, readStoreViewDays } from "./readers/analytics";
import { readCustomers } from "./readers/customers";
import { readDiscountCodes } from "./readers/discount-codes";
import { readInvoices } from "./readers/invoices";
import type { Reader } from "./readers/keyset";
import { readLicenseKeys } from "./readers/license-keys";
import { readMemberships } from "./readers/memberships";
import { readOrders } from "./readers/orders";
import { readPosts } from "./readers/posts";
import { readProducts } from "./readers/products";
import { readWebhooks } from "./readers/webhooks";

/**
 * The one way to read a store, kind by kind: the archive's NDJSON files and the seller API's export
 * endpoints both page through these (each filters by the seller on every query).
 */
export const RECORD_READERS: { [K in ArchiveRecordKind]: Reader<ArchiveRecord<K>> } = {
  products: readProducts,
  "discount-codes": readDiscountCodes,
  customers: readCustomers,
  orders: readOrders,
  "license-keys": readLicenseKeys,
  memberships: readMemberships,
  posts: readPosts,
  invoices: readInvoices,
  webhooks: readWebhooks,
  "analytics-product-days": readProductDays,
  "analytics-source-days": readSourceDays,
  "analytics-store-view-days": readStoreViewDays,
};
