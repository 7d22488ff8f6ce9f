import { describe, expect, it } from "vitest";
import {
  importStatusBadge,
  importStep,
  isImportWorking,
  moreThanListed,
  platformFilesHint,
  problemLine,
  productPrice,
  productStatusBadge,
  productTakesFiles,
  progressPercent,
  reportSummary,
} from "./store-import-labels";

describe("the import page's labels", () => {
  it("name each import state, and poll only while the server works on it", () => {
    expect(importStatusBadge("collecting")).toEqual({ label: "Adding files", tone: "neutral" });
    expect(importStatusBadge("checked").label).toBe("Ready to run");
    expect(importStatusBadge("imported")).toEqual({ label: "Imported", tone: "success" });
    expect(importStatusBadge("failed")).toEqual({ label: "Failed", tone: "danger" });
    expect(["checking", "importing"].every((status) => isImportWorking(status as "checking"))).toBe(true);
    for (const status of ["collecting", "checked", "imported", "failed"] as const)
      expect(isImportWorking(status), status).toBe(false);
  });

  it("place each state among the four steps", () => {
    expect(importStep(undefined)).toBe(0);
    expect(importStep("collecting")).toBe(1);
    expect(importStep("checking")).toBe(2);
    expect(importStep("checked")).toBe(2);
    for (const status of ["importing", "imported"] as const) expect(importStep(status)).toBe(3);
    expect(importStep("failed", false)).toBe(2);
    expect(importStep("failed", true)).toBe(3);
  });

  it("say what the run does with each product, and which ones take files", () => {
    expect(productStatusBadge({ status: "new", currency: "usd" }, "usd").label).toBe("Will be created");
    expect(productStatusBadge({ status: "needs-files", currency: "usd" }, "usd").label).toBe("Add its files");
    expect(productStatusBadge({ status: "imported", currency: "usd" }, "usd").label).toBe("Already imported");
    expect(productStatusBadge({ status: "other-currency", currency: "eur" }, "usd")).toEqual({
      label: "Priced in EUR: your store sells in USD",
      tone: "danger",
    });
    expect(productTakesFiles({ status: "needs-files" })).toBe(true);
    expect(productTakesFiles({ status: "new" })).toBe(true);
    expect(productTakesFiles({ status: "imported" })).toBe(false);
    expect(productTakesFiles({ status: "other-currency" })).toBe(false);
  });

  it("format prices in the product's currency, a free product as Free", () => {
    expect(productPrice({ priceCents: 1900, currency: "usd" })).toBe("$19.00");
    expect(productPrice({ priceCents: 1500, currency: "jpy" })).toBe("¥1,500");
    expect(productPrice({ priceCents: 0, currency: "usd" })).toBe("Free");
  });

  it("write a row problem with its line and file, and count what the list leaves out", () => {
    expect(problemLine({ file: "sales.csv", line: 12, reason: "Purchase Email is empty" })).toBe(
      "Line 12 of sales.csv: Purchase Email is empty",
    );
    expect(moreThanListed(200, 200)).toBeNull();
    expect(moreThanListed(3, 2)).toBeNull();
    expect(moreThanListed(200, 1250)).toBe("Showing the first 200 of 1,250.");
  });

  it("reach 100% only when every record is done", () => {
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
    expect(progressPercent({ done: 999, total: 1000 })).toBe(99);
    expect(progressPercent({ done: 250, total: 1000 })).toBe(25);
    expect(progressPercent({ done: 1000, total: 1000 })).toBe(100);
  });

  it("give each platform its files, and sum up the dry run", () => {
    expect(platformFilesHint("gumroad")).toContain("Dashboard → Sales → Export");
    expect(platformFilesHint("flatfee")).toBe("The archive from Settings → Export my store.");
    const summary = reportSummary({
      products: { new: 3, existing: 1 },
      orders: { new: 1200, existing: 4 },
      refundedOrders: 2,
      licenseKeys: 5,
      customers: 900,
      unsubscribed: 7,
      subscriptions: 1,
      buyers: 850,
    });
    expect(summary.slice(0, 4)).toEqual([
      { label: "New products", value: 3 },
      { label: "Products already here", value: 1 },
      { label: "New past orders", value: 1200 },
      { label: "Orders already imported", value: 4 },
    ]);
    expect(summary.at(-1)).toEqual({ label: "Buyers who would get the email", value: 850 });
  });
});
