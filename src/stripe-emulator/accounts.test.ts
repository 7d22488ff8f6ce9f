import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPurchaseSession, startTestEmulator, stripeError, type TestEmulator } from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

const links = { refresh_url: "http://127.0.0.1:9/refresh", return_url: "http://127.0.0.1:9/return" };

async function onboardingLink(account: string) {
  return stripe.accountLinks.create({ account, type: "account_onboarding", ...links });
}

function submit(url: string, action: "complete" | "incomplete") {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `action=${action}`,
  });
}

describe("connected accounts", () => {
  it("creates a Standard account that cannot take charges yet", async () => {
    const account = await stripe.accounts.create({
      type: "standard",
      email: "maker@example.com",
      metadata: { seller: "s1" },
    });
    expect(account.id).toMatch(/^acct_/);
    expect(account).toMatchObject({
      object: "account",
      type: "standard",
      email: "maker@example.com",
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
      metadata: { seller: "s1" },
    });
    expect(account.requirements?.currently_due).toContain("external_account");
    expect(account.requirements?.disabled_reason).toBe("requirements.past_due");
    expect((await stripe.accounts.retrieve(account.id)).id).toBe(account.id);
    expect((await stripe.accounts.retrieveCurrent({}, { stripeAccount: account.id })).id).toBe(account.id);
    expect((await stripeError(stripe.accounts.retrieve("acct_missing"))).code).toBe("resource_missing");
  });

  it("makes single-use onboarding links that expire", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const link = await onboardingLink(account.id);
    expect(link).toMatchObject({ object: "account_link" });
    expect(link.expires_at).toBeGreaterThan(link.created);
    expect(link.url).toMatch(new RegExp(`^${emulator.running.url}/setup/s/`));

    const page = await fetch(link.url);
    expect(await page.text()).toContain("Complete onboarding");
    const reopened = await fetch(link.url, { redirect: "manual" });
    expect([reopened.status, reopened.headers.get("location")]).toEqual([303, links.refresh_url]);

    const late = await onboardingLink(account.id);
    await emulator.control("/clock/advance", { seconds: 301 });
    const expired = await fetch(late.url, { redirect: "manual" });
    expect(expired.headers.get("location")).toBe(links.refresh_url);

    const missing = await stripeError(
      stripe.accountLinks.create({ account: "acct_missing", type: "account_onboarding", ...links }),
    );
    expect([missing.statusCode, missing.param]).toEqual([400, "account"]);
  });

  it("completing onboarding enables the account and sends account.updated to Connect", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const link = await onboardingLink(account.id);
    await fetch(link.url);
    const done = await submit(link.url, "complete");
    expect([done.status, done.headers.get("location")]).toEqual([303, links.return_url]);

    const enabled = await stripe.accounts.retrieve(account.id);
    expect(enabled).toMatchObject({ charges_enabled: true, details_submitted: true, payouts_enabled: true });
    expect(enabled.requirements?.currently_due).toEqual([]);
    const events = await emulator.connect.waitFor("account.updated");
    const event = events.find((candidate) => candidate.account === account.id);
    expect(event?.data.object).toMatchObject({ id: account.id, charges_enabled: true });
    expect(event?.data.previous_attributes).toMatchObject({ charges_enabled: false });
    expect(emulator.platform.events("account.updated")).toHaveLength(0);

    const reused = await submit(link.url, "complete");
    expect(reused.headers.get("location")).toBe(links.refresh_url);
  });

  it("leaving onboarding incomplete returns without enabling anything", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const link = await onboardingLink(account.id);
    await fetch(link.url);
    const left = await submit(link.url, "incomplete");
    expect(left.headers.get("location")).toBe(links.return_url);
    expect((await stripe.accounts.retrieve(account.id)).charges_enabled).toBe(false);
  });

  it("completes onboarding through the control API", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const { body } = await emulator.control<Stripe.Account>(
      `/accounts/${account.id}/complete_onboarding`,
      {},
    );
    expect(body.charges_enabled).toBe(true);
  });
});

describe("the business name buyers see", () => {
  const merchantOnCheckout = async (account: string) => {
    const session = await createPurchaseSession(stripe, account);
    const page = await (await fetch(session.url ?? "")).text();
    return page.match(/<h1 class="merchant">.*?<\/span>(.*?)<\/h1>/)?.[1];
  };

  it("is business_profile.name, kept when created and when updated; never the account's email", async () => {
    const account = await stripe.accounts.create({
      type: "standard",
      email: "owner-sign-in@example.com",
      business_profile: { name: "Field Notes Audio" },
    });
    expect(account.business_profile?.name).toBe("Field Notes Audio");
    expect(await merchantOnCheckout(account.id)).toBe("Field Notes Audio");

    const renamed = await stripe.accounts.update(account.id, { business_profile: { name: "Night & Day" } });
    expect(renamed.business_profile?.name).toBe("Night & Day");
    expect(await merchantOnCheckout(account.id)).toBe("Night &amp; Day");

    // An empty string unsets a field on Stripe; the page then names no one rather than the owner's email.
    const unnamed = await stripe.accounts.update(account.id, { business_profile: { name: "" } });
    expect(unnamed.business_profile?.name).toBeNull();
    const page = await (await fetch((await createPurchaseSession(stripe, account.id)).url ?? "")).text();
    expect(page).not.toContain("owner-sign-in@example.com");
  });
});
