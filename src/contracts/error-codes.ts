/**
 * Every `code` the API answers with (the body is `{ code, message, requestId?, details? }`, errors.ts).
 * One list, used by the server's AppError and by the web app when it reacts to a code: a code that is
 * not here does not compile. Better Auth's own routes add theirs (upper case, e.g. INVALID_PASSWORD).
 */
export const ERROR_CODES = [
  // Requests
  "bad_request",
  "validation_error",
  "unsupported_media_type",
  "too_deeply_nested",
  "cross_origin",
  "rate_limited",
  "not_found",
  "unauthorized",
  "two_factor_required",
  "internal",
  "unavailable",
  "web_app_not_built",
  // Accounts and the plan
  "email_not_verified",
  "subscription_required",
  "setup_required",
  "already_subscribed",
  "no_billing_account",
  // Uploads and files
  "file_required",
  "file_too_large",
  "invalid_file",
  "storage_full",
  "storage_limit_reached",
  "upload_expired",
  "upload_not_ready",
  "upload_checking",
  "upload_in_use",
  "upload_interrupted",
  "upload_missing",
  "upload_closed",
  // Products and buying
  "not_purchasable",
  "sold_out",
  "checkout_open",
  "checkout_interrupted",
  "payment_retrying",
  "quantity_below_taken",
  "amount_refused",
  "discount_refused",
  "too_many_codes",
  "code_taken",
  "not_free",
  "free_purchase",
  // Memberships
  "has_active_members",
  "not_a_member",
  "membership_ended",
  "not_a_membership",
  // Tax and business buyers
  "tax_not_active",
  "business_name_required",
  "vat_number_refused",
  "vat_check_unavailable",
  // Buyers' links and downloads
  "link_invalid",
  "link_expired",
  "download_link_used",
  "download_unavailable",
  // Refunds
  "already_refunded",
  "not_refundable",
  "refund_refused",
  // License keys
  "license_not_found",
  "license_disabled",
  "license_refunded",
  "license_suspended",
  // Disputes
  "dispute_already_submitted",
  "dispute_closed",
  "dispute_submit_failed",
  // Emails to buyers
  "no_recipients",
  "broadcast_limit",
  "product_update_limit",
  // API keys and sellers' webhooks
  "api_key_missing",
  "api_key_malformed",
  "invalid_api_key",
  "too_many_api_keys",
  "too_many_endpoints",
  "invalid_url",
  "https_required",
  "private_address",
  "event_not_chosen",
  // Stripe's webhooks
  "invalid_signature",
  // Reports (features/reports)
  "report_closed",
  "report_unchanged",
  "already_answered",
  // Invoices
  "correction_closed",
  "currency_locked",
  "currency_not_supported",
  "currency_not_settled",
  "currency_not_offered",
  // Enforcement (docs/operator.md)
  "store_unavailable",
  "product_unavailable",
  "seller_restricted",
  "good_standing",
  "already_in_force",
  "appeal_open",
  "appeal_answered",
  // Store imports (docs/store-import.md)
  "too_many_imports",
  "import_locked",
  "import_running",
  "too_many_files",
  "unreadable_file",
  "no_files",
  "not_checked",
  "invalid_upload",
  "store_moved",
  // A ZIP of products' files refused (docs/store-import.md, "Files per product")
  "not_a_zip",
  "zip_damaged",
  "zip_empty",
  "zip_no_files",
  "zip_too_many_entries",
  "zip_unsafe_path",
  "zip_encrypted",
  "zip_unsupported_entry",
  "zip_entry_too_large",
  "zip_size_mismatch",
  "zip_no_product_folders",
  "too_many_product_files",
  // Store exports (docs/export-format.md)
  "export_in_progress",
  "export_limit",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
