import { describe, expect, it } from "vitest";
import {
  accessibilityStore,
  BUYER_EMAIL,
  call,
  LONG_TITLE,
  PAGE_GROUP_TIMEOUT,
  showsToast,
  unbroken,
  visit,
} from "./support/accessibility-store";

/**
 * The seller's pages at desktop and phone size, filled with the longest data the limits allow, checked
 * with axe (fails on serious or critical findings) and for sideways overflow: onboarding's gates, the
 * dashboard and its pages, and the payment-failed banner. A page is checked in each state a person meets
 * it in: dialogs open, toasts shown, errors next to fields. Findings of every impact are written to
 * screenshots/accessibility-findings-seller.json, beside the screenshots. The visitor's pages and the
 * emails are accessibility-visitor.test.ts's, on a store set up the same way.
 */
const store = accessibilityStore({ findingsFile: "accessibility-findings-seller.json", checkGates: true });

describe("accessibility and layout, every seller page at 1280 and 375 px with the longest data", {
  timeout: PAGE_GROUP_TIMEOUT,
}, () => {
  it("onboarding gates: subscribe, connect", () => {
    const { report, reportFailures } = store;
    expect(report.filter((entry) => entry.page.startsWith("onboarding gate"))).toHaveLength(4);
    reportFailures();
  });

  it("seller pages: dashboard with its menus and dialogs, new product, settings", async () => {
    const { seller, products, check, reportFailures } = store;
    const sales = () => seller.getByRole("region", { name: "Customer Sales" });
    const saleActions = () =>
      sales()
        .getByRole("button", { name: `Actions for the sale to ${BUYER_EMAIL}` })
        .first();
    const openDashboard = async () => {
      await visit(seller, "/dashboard", "Dashboard");
      await sales().getByText(BUYER_EMAIL).first().waitFor();
    };
    await check(seller, "dashboard", openDashboard);
    await check(seller, "dashboard store link copied toast", async () => {
      await openDashboard();
      await seller.getByRole("button", { name: "Share My Store" }).click();
      await showsToast(seller, "Store link copied!");
    });
    await check(seller, "dashboard sale menu", async () => {
      await openDashboard();
      await saleActions().click();
      await seller.getByRole("menuitem", { name: "Refund" }).waitFor();
    });
    await check(seller, "dashboard refund dialog", async () => {
      await openDashboard();
      await saleActions().click();
      await seller.getByRole("menuitem", { name: "Refund" }).click();
      await seller.getByRole("alertdialog").waitFor();
    });
    await check(seller, "dashboard delete dialog", async () => {
      await openDashboard();
      await seller.getByRole("button", { name: `Delete ${LONG_TITLE}` }).click();
      await seller.getByRole("alertdialog").waitFor();
    });
    await check(seller, "new product", () => visit(seller, "/new", "New Product"));
    await check(seller, "new product with errors", async () => {
      await visit(seller, "/new", "New Product");
      await seller.getByRole("button", { name: "Publish Product" }).click();
      await showsToast(seller, "Missing fields");
    });
    const openSettings = async () => {
      await visit(seller, "/settings", "Store Settings");
      await seller.getByRole("button", { name: "Turn on two-factor" }).waitFor();
    };
    await check(seller, "settings", openSettings);
    await check(seller, "settings two-factor password dialog", async () => {
      await openSettings();
      await seller.getByRole("button", { name: "Turn on two-factor" }).click();
      await seller.getByRole("dialog").waitFor();
    });
    await check(seller, "library signed in as a seller", () => visit(seller, "/library", /./));

    await check(seller, "edit product", async () => {
      await visit(seller, `/dashboard/products/${products.hostile}/edit`, "Edit Product");
      await seller.waitForFunction(
        (title) => [...document.querySelectorAll("input")].some((input) => input.value === title),
        LONG_TITLE,
      );
    });
    await call(seller, "POST", "/api/discount-codes", {
      code: unbroken("FEATHERSTONEHAUGH_SPRING_", 32),
      kind: "amount",
      value: "999999.49",
      appliesTo: "chosen",
      productIds: [products.hostile, products.soldOut],
      startsAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      endsAt: new Date(Date.UTC(2036, 11, 31)).toISOString(),
      maxUses: "1000000",
    });
    const openDiscounts = async () => {
      await visit(seller, "/dashboard/discounts", "Discount codes");
      await seller.getByText("FEATHERSTONEHAUGH_SPRING_", { exact: false }).first().waitFor();
    };
    await check(seller, "discounts", openDiscounts);
    await check(seller, "discounts new code form", async () => {
      await openDiscounts();
      await seller.getByRole("button", { name: "New code" }).click();
      await seller
        .getByRole("button", { name: /Create|Save/ })
        .first()
        .waitFor();
    });
    await check(seller, "tax settings", () => visit(seller, "/dashboard/tax", "Stripe Tax on your account"));
    await check(seller, "tax report", () => visit(seller, "/dashboard/tax/report", "Tax report"));
    await check(seller, "tax guide", () => visit(seller, "/dashboard/tax/guide", "Tax guide"));
    await check(seller, "invoices", () => visit(seller, "/dashboard/invoices", "Invoices and credit notes"));
    await check(seller, "invoices custom period", async () => {
      await visit(seller, "/dashboard/invoices", "Invoices and credit notes");
      await seller.getByLabel("Period").selectOption("custom");
      await seller.getByLabel("From").waitFor();
    });
    reportFailures();
  });

  it("the dashboard's payment-failed banner", async () => {
    const { seller, emulatorUrl, check, reportFailures, emulatorControl } = store;
    const events = (await (
      await fetch(`${emulatorUrl}/_emulator/events?type=customer.subscription.created`)
    ).json()) as { data: Array<{ event: { data: { object: { id: string } } } }> };
    const subscriptionId = events.data.at(-1)?.event.data.object.id;
    await emulatorControl(`/subscriptions/${subscriptionId}/renew`, { outcome: "failed" });
    await check(seller, "dashboard grace banner", async () => {
      await visit(seller, "/dashboard", "Dashboard");
      await seller.getByRole("alert").filter({ hasText: "Your last payment failed" }).waitFor();
    });
    reportFailures();
  });
});
