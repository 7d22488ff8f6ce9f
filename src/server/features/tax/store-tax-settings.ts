import type Stripe from "stripe";
import {
  type StoreTaxSettings,
  type StoreTaxSettingsInput,
  storeTaxSettingsInputSchema,
  TAX_MESSAGES,
} from "../../../contracts/tax";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { readStripeTax, recordStripeTax, type StripeTaxState } from "./stripe-tax";
import { stripeTaxLinks } from "./stripe-tax-links";

export type TaxSettingsDeps = ChangeDeps & { stripe: Stripe; stripeDashboardUrl: string };

/** The store's tax settings as saved, or the defaults before the seller saved any. */
export async function readTaxSettingsRow(db: Database, sellerId: string) {
  const row = await db
    .selectFrom("store_tax_settings")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  return {
    collectTax: row?.collect_tax ?? false,
    taxBehavior: row?.tax_behavior ?? "exclusive",
    stripeTaxStatus: row?.stripe_tax_status ?? null,
    headOfficeCountry: row?.head_office_country ?? null,
    checkedAt: row?.stripe_tax_checked_at ?? null,
    legalName: row?.legal_name ?? null,
    legalAddress: row?.legal_address ?? null,
    taxId: row?.tax_id ?? null,
    invoicePrefix: row?.invoice_prefix ?? "INV-",
    waiverOutsideEu: row?.waiver_outside_eu ?? true,
  };
}

async function connectedAccountOf(db: Database, sellerId: string): Promise<string | null> {
  const profile = await db
    .selectFrom("profiles")
    .select(["stripe_connect_account_id", "stripe_connect_onboarding_complete"])
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return profile?.stripe_connect_onboarding_complete ? profile.stripe_connect_account_id : null;
}

/**
 * The seller's tax page: the settings, and a checklist of what Stripe Tax still needs on their account
 * (asked of Stripe now, and kept), each item linking to the place in their Stripe dashboard to fix it.
 */
export async function storeTaxSettingsView(
  deps: TaxSettingsDeps,
  sellerId: string,
  now: Date,
): Promise<StoreTaxSettings> {
  const account = await connectedAccountOf(deps.db, sellerId);
  let stripeTax: StripeTaxState | undefined;
  if (account) {
    stripeTax = await readStripeTax(deps.stripe, account);
    await recordStripeTax(deps.db, sellerId, stripeTax, now);
  }
  const saved = await readTaxSettingsRow(deps.db, sellerId);
  const links = account ? stripeTaxLinks(deps.stripeDashboardUrl, account) : undefined;
  const headOffice = Boolean(stripeTax?.headOfficeCountry);
  const registered = (stripeTax?.registrations.length ?? 0) > 0;
  return {
    ...saved,
    checkedAt: saved.checkedAt?.toISOString() ?? null,
    checklist: [
      { key: "payout_account", label: "Connect your Stripe account", done: Boolean(account), fixUrl: null },
      {
        key: "head_office",
        label: "Add your head office address in Stripe Tax",
        done: headOffice && stripeTax?.status === "active",
        fixUrl: links?.settings ?? null,
      },
      {
        key: "registrations",
        label: "Add the places you're registered to collect tax",
        done: registered,
        fixUrl: links?.registrations ?? null,
      },
    ],
    registrations: stripeTax?.registrations ?? [],
  };
}

/**
 * Saves the store's tax settings. Collection can be turned on only while Stripe Tax is active on the
 * seller's account, asked of Stripe at this moment (a stale "active" must not let checkouts fail).
 * Product pages show whether prices include tax, so they are told.
 */
export async function saveStoreTaxSettings(
  deps: TaxSettingsDeps,
  sellerId: string,
  body: StoreTaxSettingsInput,
  now: Date,
): Promise<StoreTaxSettings> {
  const input = storeTaxSettingsInputSchema.parse(body);
  if (input.collectTax) {
    const account = await connectedAccountOf(deps.db, sellerId);
    if (!account) throw new AppError("tax_not_active", 409, TAX_MESSAGES.noPayoutAccount);
    const stripeTax = await readStripeTax(deps.stripe, account);
    await recordStripeTax(deps.db, sellerId, stripeTax, now);
    if (stripeTax.status !== "active") throw new AppError("tax_not_active", 409, TAX_MESSAGES.notActive);
  }
  const values = {
    ...(input.collectTax !== undefined ? { collect_tax: input.collectTax } : {}),
    ...(input.taxBehavior !== undefined ? { tax_behavior: input.taxBehavior } : {}),
    ...(input.legalName !== undefined ? { legal_name: input.legalName } : {}),
    ...(input.legalAddress !== undefined ? { legal_address: input.legalAddress } : {}),
    ...(input.taxId !== undefined ? { tax_id: input.taxId } : {}),
    ...(input.invoicePrefix !== undefined ? { invoice_prefix: input.invoicePrefix } : {}),
    ...(input.waiverOutsideEu !== undefined ? { waiver_outside_eu: input.waiverOutsideEu } : {}),
    updated_at: now,
  };
  await commitChange(deps, async (trx, announce) => {
    await trx
      .insertInto("store_tax_settings")
      .values({ seller_id: sellerId, stripe_tax_status: null, head_office_country: null, ...values })
      .onConflict((conflict) => conflict.column("seller_id").doUpdateSet(values))
      .execute();
    announce(sellerId, { type: "tax.changed" });
    announce(sellerId, { type: "public-pages.changed" });
  });
  return storeTaxSettingsView(deps, sellerId, now);
}
