import type Stripe from "stripe";
import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import {
  defaultTaxCategory,
  isEuOrUk,
  STRIPE_TAX_CODES,
  type TaxBehavior,
  type TaxCategory,
} from "../../../contracts/tax";
import type { Database } from "../../db/database";
import type { BusinessBuyerCheck } from "./business-buyer";

/** How a store's checkouts treat tax and the withdrawal waiver, from its settings. */
export interface CheckoutTaxTerms {
  /** Stripe Tax runs on the checkout: the store turned it on and Stripe said it is active. */
  collect: boolean;
  behavior: TaxBehavior;
  waiverOutsideEu: boolean;
  headOfficeCountry: string | null;
}

export async function checkoutTaxTerms(db: Database, sellerId: string): Promise<CheckoutTaxTerms> {
  const row = await db
    .selectFrom("store_tax_settings")
    .select(["collect_tax", "stripe_tax_status", "tax_behavior", "waiver_outside_eu", "head_office_country"])
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  return {
    collect: Boolean(row?.collect_tax && row.stripe_tax_status === "active"),
    behavior: row?.tax_behavior ?? "exclusive",
    waiverOutsideEu: row?.waiver_outside_eu ?? true,
    headOfficeCountry: row?.head_office_country ?? null,
  };
}

/** A product's tax category: the seller's choice, else its files' shared kind. */
export async function productTaxCategory(db: Database, productId: string): Promise<TaxCategory> {
  const product = await db
    .selectFrom("products")
    .select("tax_category")
    .where("id", "=", productId)
    .executeTakeFirst();
  if (product?.tax_category) return product.tax_category;
  const files = await db
    .selectFrom("product_files")
    .innerJoin("uploads", "uploads.id", "product_files.upload_id")
    .select("uploads.content_type")
    .where("product_files.product_id", "=", productId)
    .execute();
  return defaultTaxCategory(files.map((file) => file.content_type ?? ""));
}

/**
 * Whether Checkout asks this buyer to waive the right of withdrawal: always, unless the seller turned
 * it off for buyers outside the EU and UK and the buyer's country is known to be outside. A buyer whose
 * country is unknown is asked.
 */
export function waiverRequired(terms: CheckoutTaxTerms, buyerCountry: string | undefined): boolean {
  if (terms.waiverOutsideEu) return true;
  return !buyerCountry || isEuOrUk(buyerCountry);
}

/**
 * The waiver's wording in the buyer's language, as Checkout asks them to accept it
 * (`custom_text.terms_of_service_acceptance`) and as the checkout, then the order, store it word for
 * word: receipts and the invoice quote what the buyer saw. English is contracts/tax.ts'
 * WITHDRAWAL_WAIVER_TEXT.
 */
export const withdrawalWaiverText = (locale: Locale): string =>
  translator(locale).t("checkout.withdrawalWaiver");

/**
 * What a checkout adds to Stripe's session for tax, the waiver and a business buyer: Buy Now's and
 * Subscribe's alike. Buy Now puts `price` and `product` on its line's price_data; Subscribe on the
 * tier's Stripe price (memberships/tier-prices.ts), which the subscription's invoices are taxed by.
 */
export interface CheckoutTaxParams {
  session: Pick<
    Stripe.Checkout.SessionCreateParams,
    | "automatic_tax"
    | "billing_address_collection"
    | "consent_collection"
    | "custom_text"
    | "customer"
    | "customer_update"
  >;
  /** Added to the line's price_data and its product_data. */
  price: Pick<Stripe.Checkout.SessionCreateParams.LineItem.PriceData, "tax_behavior">;
  product: Pick<Stripe.Checkout.SessionCreateParams.LineItem.PriceData.ProductData, "tax_code">;
}

export function checkoutTaxParams(
  terms: CheckoutTaxTerms,
  category: TaxCategory,
  /** The waiver's wording when Checkout asks for it (withdrawalWaiverText), else null. */
  waiver: string | null,
  customerId: string | undefined,
): CheckoutTaxParams {
  return {
    session: {
      ...(terms.collect
        ? {
            automatic_tax: { enabled: true, liability: { type: "self" } },
            billing_address_collection: "required",
          }
        : {}),
      ...(waiver
        ? {
            consent_collection: { terms_of_service: "required" },
            custom_text: { terms_of_service_acceptance: { message: waiver } },
          }
        : {}),
      // A business buyer's customer carries their name and VAT number; Checkout fills in their address.
      ...(customerId ? { customer: customerId, customer_update: { address: "auto", name: "auto" } } : {}),
    },
    price: terms.collect ? { tax_behavior: terms.behavior } : {},
    product: terms.collect ? { tax_code: STRIPE_TAX_CODES[category] } : {},
  };
}

/**
 * A business buyer's customer on the seller's account: their name and VAT number, and reverse charge
 * when VIES knows the number and it is of another country than the seller's (a sale to a business in
 * the seller's own country carries the seller's VAT).
 */
export async function createBusinessCustomer(
  stripe: Stripe,
  accountId: string,
  buyer: BusinessBuyerCheck,
  terms: CheckoutTaxTerms,
  idempotencyKey: string,
): Promise<string> {
  const reverse =
    buyer.check?.status === "valid" &&
    buyer.vat !== undefined &&
    buyer.vat.country !== terms.headOfficeCountry;
  const customer = await stripe.customers.create(
    {
      name: buyer.businessName,
      ...(buyer.vat
        ? { tax_id_data: [{ type: "eu_vat", value: `${buyer.vat.prefix}${buyer.vat.number}` }] }
        : {}),
      tax_exempt: reverse ? "reverse" : "none",
      metadata: { business_buyer: "true" },
    },
    { stripeAccount: accountId, idempotencyKey },
  );
  return customer.id;
}
