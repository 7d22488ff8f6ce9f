import type { Migration } from "kysely";
import * as m0001 from "./0001_accounts_mail_limits";
import * as m0002 from "./0002_billing_payouts";
import * as m0003 from "./0003_uploads";
import * as m0004 from "./0004_products_store_views";
import * as m0005 from "./0005_checkouts_orders_downloads";
import * as m0006 from "./0006_uploads_hardening";
import * as m0007 from "./0007_checkout_holds_reconciliation";
import * as m0008 from "./0008_cover_variants";
import * as m0011 from "./0011_discount_codes";
import * as m0012 from "./0012_flexible_prices";
import * as m0013 from "./0013_product_files";
import * as m0014 from "./0014_license_keys";
import * as m0015 from "./0015_pdf_stamps";
import * as m0016 from "./0016_analytics";
import * as m0017 from "./0017_audience";
import * as m0018 from "./0018_api_keys";
import * as m0019 from "./0019_seller_webhooks";
import * as m0020 from "./0020_customer_search";
import * as m0021 from "./0021_code_holds_per_browser";
import * as m0022 from "./0022_jobs";
import * as m0023 from "./0023_memberships";
import * as m0024 from "./0024_membership_posts";
import * as m0025 from "./0025_tax";
import * as m0026 from "./0026_invoices";
import * as m0027 from "./0027_tax_report_index";
import * as m0028 from "./0028_tax_rollup";
import * as m0029 from "./0029_membership_tax";
import * as m0030 from "./0030_buyer_locale";
import * as m0031 from "./0031_currencies";
import * as m0032 from "./0032_operators";
import * as m0033 from "./0033_disputes";
import * as m0034 from "./0034_checkout_recovery";
import * as m0035 from "./0035_enforcement";
import * as m0037 from "./0037_reports";
import * as m0038 from "./0038_tax_report_settlement";
import * as m0039 from "./0039_store_exports";
import * as m0040 from "./0040_store_imports";
import * as m0041 from "./0041_store_moved";
import * as m0042 from "./0042_dispute_activity";
import * as m0043 from "./0043_imported_license_keys";
import * as m0044 from "./0044_report_emails";
import * as m0045 from "./0045_tier_currency_prices";

// Every migration, in order. Append new ones; never edit one that has landed.
export const migrations: Record<string, Migration> = {
  "0001_accounts_mail_limits": m0001,
  "0002_billing_payouts": m0002,
  "0003_uploads": m0003,
  "0004_products_store_views": m0004,
  "0005_checkouts_orders_downloads": m0005,
  "0006_uploads_hardening": m0006,
  "0007_checkout_holds_reconciliation": m0007,
  "0008_cover_variants": m0008,
  "0011_discount_codes": m0011,
  "0012_flexible_prices": m0012,
  "0013_product_files": m0013,
  "0014_license_keys": m0014,
  "0015_pdf_stamps": m0015,
  "0016_analytics": m0016,
  "0017_audience": m0017,
  "0018_api_keys": m0018,
  "0019_seller_webhooks": m0019,
  "0020_customer_search": m0020,
  "0021_code_holds_per_browser": m0021,
  "0022_jobs": m0022,
  "0023_memberships": m0023,
  "0024_membership_posts": m0024,
  "0025_tax": m0025,
  "0026_invoices": m0026,
  "0027_tax_report_index": m0027,
  "0028_tax_rollup": m0028,
  "0029_membership_tax": m0029,
  "0030_buyer_locale": m0030,
  "0031_currencies": m0031,
  "0032_operators": m0032,
  "0033_disputes": m0033,
  "0034_checkout_recovery": m0034,
  "0035_enforcement": m0035,
  "0037_reports": m0037,
  "0038_tax_report_settlement": m0038,
  "0039_store_exports": m0039,
  "0040_store_imports": m0040,
  "0041_store_moved": m0041,
  "0042_dispute_activity": m0042,
  "0043_imported_license_keys": m0043,
  "0044_report_emails": m0044,
  "0045_tier_currency_prices": m0045,
};
