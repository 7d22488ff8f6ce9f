import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPurchaseSession, startTestEmulator, type TestEmulator } from "./test-support.js";

// `consent_collection[promotions]=auto`: the hosted page's promotions box, saved as the buyer fills the
// page in, and what an expired or paid session then shows (`consent`, `customer_details.email`).
let emulator: TestEmulator;
let stripe: Stripe;
let seller: Stripe.Account;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard", email: "seller@example.com" });
});
afterAll(() => emulator.close());

const withPromotions = () =>
  createPurchaseSession(stripe, seller.id, {
    customer_email: undefined,
    consent_collection: { promotions: "auto" },
  });
const retrieve = (id: string) => stripe.checkout.sessions.retrieve(id, {}, { stripeAccount: seller.id });
const saveConsent = (id: string, email: string, promotions: boolean) =>
  emulator.control<Stripe.Checkout.Session>(`/checkout/sessions/${id}/consent`, { email, promotions });
const pageForm = (id: string, fields: Record<string, string>) =>
  fetch(`${emulator.running.url}/c/pay/${id}/consent`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

describe("promotions consent on Checkout", () => {
  it("keeps consent_collection as given and shows nothing of the buyer while the session is open", async () => {
    const session = await withPromotions();
    expect(session.consent_collection).toEqual({
      payment_method_reuse_agreement: null,
      promotions: "auto",
      terms_of_service: null,
    });
    expect(session.consent).toBeNull();
    await saveConsent(session.id, "ana@example.com", true);
    const open = await retrieve(session.id);
    expect(open.consent).toBeNull();
    expect(open.customer_details).toBeNull();
  });

  it("the hosted page shows the box, unticked, and its script saves the email and the box", async () => {
    const session = await withPromotions();
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('<input type="checkbox" id="promotions" name="promotions">');
    expect(page).toContain("Keep me updated with news and offers from");
    expect(page).toContain(`/c/pay/${session.id}/consent`);
    expect((await pageForm(session.id, { email: "page@example.com", promotions: "on" })).status).toBe(204);
    expect((await pageForm(session.id, { email: "not an email", promotions: "on" })).status).toBe(400);
    await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id });
    const expired = await retrieve(session.id);
    expect(expired.customer_details?.email).toBe("page@example.com");
  });

  it("a page without consent_collection[promotions] has no box and saves nothing", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    const page = await (await fetch(session.url!)).text();
    expect(page).not.toContain('id="promotions"');
    expect((await pageForm(session.id, { email: "x@example.com", promotions: "on" })).status).toBe(400);
    expect((await saveConsent(session.id, "x@example.com", true)).status).toBe(400);
  });

  it("an expired session of a buyer who opted in has consent.promotions opt_in and their email", async () => {
    const session = await withPromotions();
    await saveConsent(session.id, "ana@example.com", true);
    await emulator.control(`/checkout/sessions/${session.id}/expire`, {});
    const expired = await retrieve(session.id);
    expect(expired.status).toBe("expired");
    expect(expired.consent).toEqual({ promotions: "opt_in", terms_of_service: null });
    expect(expired.customer_details).toEqual({
      address: null,
      business_name: null,
      email: "ana@example.com",
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
    });
    // The event carries the same object.
    const deadline = Date.now() + 5000;
    let event: Stripe.Event | undefined;
    while (!event && Date.now() < deadline) {
      event = emulator.connect
        .events("checkout.session.expired")
        .find((each) => (each.data.object as Stripe.Checkout.Session).id === session.id);
      if (!event) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(event).toBeDefined();
    expect((event?.data.object as Stripe.Checkout.Session | undefined)?.consent?.promotions).toBe("opt_in");
  });

  it("one who left the box unticked is opt_out and their email is not shown; one who typed nothing has no consent", async () => {
    const declined = await withPromotions();
    await saveConsent(declined.id, "bo@example.com", true);
    await saveConsent(declined.id, "bo@example.com", false);
    await stripe.checkout.sessions.expire(declined.id, {}, { stripeAccount: seller.id });
    const expired = await retrieve(declined.id);
    expect(expired.consent).toEqual({ promotions: "opt_out", terms_of_service: null });
    expect(expired.customer_details).toBeNull();

    const silent = await withPromotions();
    await stripe.checkout.sessions.expire(silent.id, {}, { stripeAccount: seller.id });
    const nothing = await retrieve(silent.id);
    expect(nothing.consent).toBeNull();
    expect(nothing.customer_details).toBeNull();
  });

  it("expires by the clock with the consent saved; a closed session saves nothing more", async () => {
    const session = await withPromotions();
    await saveConsent(session.id, "cy@example.com", true);
    await emulator.control("/clock/advance", { seconds: 25 * 60 * 60 });
    const expired = await retrieve(session.id);
    expect(expired.status).toBe("expired");
    expect(expired.customer_details?.email).toBe("cy@example.com");
    expect((await saveConsent(session.id, "late@example.com", true)).status).toBe(400);
  });

  it("paying records the box: opt_in or opt_out, beside the terms when they were required", async () => {
    const ticked = await withPromotions();
    const paid = await emulator.control<Stripe.Checkout.Session>(`/checkout/sessions/${ticked.id}/complete`, {
      email: "dee@example.com",
      promotions: true,
    });
    expect(paid.body.consent).toEqual({ promotions: "opt_in", terms_of_service: null });

    const both = await createPurchaseSession(stripe, seller.id, {
      consent_collection: { promotions: "auto", terms_of_service: "required" },
    });
    const paidBoth = await emulator.control<Stripe.Checkout.Session>(
      `/checkout/sessions/${both.id}/complete`,
      {
        terms_of_service: true,
      },
    );
    expect(paidBoth.body.consent).toEqual({ promotions: "opt_out", terms_of_service: "accepted" });
  });
});
