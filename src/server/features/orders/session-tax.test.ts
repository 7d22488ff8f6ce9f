import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { invoiceTaxRateId, orderTaxOfInvoice } from "./session-tax";

// A membership period's order, from its paid invoice: the same columns a one-time sale's session fills.

const DE_RATE = {
  id: "txr_de",
  percentage: 19,
  country: "DE",
  state: null,
  jurisdiction: "DE",
  tax_type: "vat",
  inclusive: false,
} as unknown as Stripe.TaxRate;

function invoice(fields: {
  taxes: Array<{ amount: number; reason: string; rate?: string; behavior?: "exclusive" | "inclusive" }>;
  amountPaid: number;
  enabled?: boolean;
  address?: Partial<Stripe.Address>;
  taxIds?: string[];
}): Stripe.Invoice {
  return {
    id: "in_1",
    automatic_tax: { enabled: fields.enabled ?? true },
    amount_paid: fields.amountPaid,
    customer_name: "Anna Schmidt",
    customer_address: fields.address
      ? {
          line1: null,
          line2: null,
          city: null,
          state: null,
          postal_code: null,
          country: null,
          ...fields.address,
        }
      : null,
    customer_tax_ids: (fields.taxIds ?? []).map((value) => ({ type: "eu_vat", value })),
    total_taxes: fields.taxes.map((tax) => ({
      amount: tax.amount,
      tax_behavior: tax.behavior ?? "exclusive",
      taxability_reason: tax.reason,
      taxable_amount: 1000,
      type: "tax_rate_details",
      tax_rate_details: { tax_rate: tax.rate ?? "txr_de" },
    })),
  } as unknown as Stripe.Invoice;
}

describe("orderTaxOfInvoice", () => {
  it("records Stripe's tax, its rate and place, and the buyer's address", () => {
    const paid = invoice({
      taxes: [{ amount: 190, reason: "standard_rated" }],
      amountPaid: 1190,
      address: { country: "DE", city: "Berlin" },
    });
    expect(invoiceTaxRateId(paid)).toBe("txr_de");
    expect(orderTaxOfInvoice(paid, DE_RATE, undefined, undefined)).toMatchObject({
      tax_cents: 190,
      tax_behavior: "exclusive",
      tax_rate: "19",
      tax_type: "vat",
      tax_jurisdiction: "DE",
      taxability_reason: "standard_rated",
      buyer_name: "Anna Schmidt",
      buyer_country: "DE",
      buyer_state: null,
      reverse_charge: false,
      withdrawal_waiver: null,
    });
  });

  it("describes a proration by the entry that took an amount, and never records tax below 0 or above what was paid", () => {
    const upgrade = invoice({
      taxes: [
        { amount: 0, reason: "not_collecting", rate: "txr_none" },
        { amount: 95, reason: "standard_rated" },
      ],
      amountPaid: 595,
    });
    expect(invoiceTaxRateId(upgrade)).toBe("txr_de");
    expect(orderTaxOfInvoice(upgrade, DE_RATE, undefined, undefined).tax_cents).toBe(95);
    // A downgrade's credit: negative tax, nothing paid.
    const credit = invoice({ taxes: [{ amount: -57, reason: "standard_rated" }], amountPaid: 0 });
    expect(orderTaxOfInvoice(credit, DE_RATE, undefined, undefined).tax_cents).toBe(0);
    // The customer's balance paid most of it.
    const balance = invoice({ taxes: [{ amount: 190, reason: "standard_rated" }], amountPaid: 100 });
    expect(orderTaxOfInvoice(balance, DE_RATE, undefined, undefined).tax_cents).toBe(100);
  });

  it("reverse charge: the business buyer recorded before Checkout, with its check, comes first", () => {
    const paid = invoice({
      taxes: [{ amount: 0, reason: "reverse_charge" }],
      amountPaid: 1000,
      address: { country: "FR" },
      taxIds: ["FR40303265045"],
    });
    const check = {
      status: "valid",
      service: "local",
      checkedAt: "2026-01-01T00:00:00.000Z",
      name: null,
      reference: null,
    };
    const columns = orderTaxOfInvoice(
      paid,
      DE_RATE,
      {
        buyer_business_name: "Atelier SARL",
        buyer_tax_id: "FR40303265045",
        buyer_tax_id_check: check as never,
      },
      { text: "I agree", at: new Date("2026-01-01T00:00:00Z") },
    );
    expect(columns).toMatchObject({
      tax_cents: 0,
      reverse_charge: true,
      buyer_business_name: "Atelier SARL",
      buyer_tax_id: "FR40303265045",
      buyer_country: "FR",
      withdrawal_waiver: "I agree",
    });
    expect(JSON.parse(String(columns.buyer_tax_id_check))).toMatchObject({ status: "valid" });
    // Without a recorded buyer, the invoice's tax ID.
    expect(orderTaxOfInvoice(paid, DE_RATE, undefined, undefined).buyer_tax_id).toBe("FR40303265045");
  });

  it("records nothing of tax when Stripe Tax did not run", () => {
    const untaxed = invoice({ taxes: [], amountPaid: 700, enabled: false });
    expect(invoiceTaxRateId(untaxed)).toBeUndefined();
    expect(orderTaxOfInvoice(untaxed, undefined, undefined, undefined)).toMatchObject({
      tax_cents: 0,
      tax_behavior: null,
      tax_rate: null,
      taxability_reason: null,
      buyer_country: null,
      reverse_charge: false,
    });
  });
});
