import { describe, expect, it } from "vitest";
import { translator } from "./i18n/translator";
import { checkReportForm, REPORT_MESSAGE_KEYS, REPORT_MESSAGES, type ReportMessage } from "./reports";

describe("the report form's words", () => {
  it("say in English's catalogue exactly what the contract says", () => {
    const { t } = translator("en");
    for (const [name, key] of Object.entries(REPORT_MESSAGE_KEYS)) {
      expect(t(key), name).toBe(REPORT_MESSAGES[name as ReportMessage]);
    }
  });
});

describe("checkReportForm", () => {
  it("names every field's problem at once, and a copyright report's every missing element", () => {
    expect(checkReportForm({})).toEqual({
      ok: false,
      problems: { reason: "reasonRequired", details: "detailsRequired", email: "emailInvalid" },
    });
    expect(checkReportForm({ reason: "copyright", email: "a@b.co" })).toEqual({
      ok: false,
      problems: {
        work: "workRequired",
        location: "locationRequired",
        fullName: "nameRequired",
        contact: "contactRequired",
        signature: "signatureRequired",
        goodFaith: "goodFaithRequired",
        accuracy: "accuracyRequired",
      },
    });
    expect(checkReportForm({ reason: "spam", details: "x", email: "a@b.co" })).toMatchObject({
      ok: false,
      problems: { reason: "reasonRequired" },
    });
  });

  it("keeps a good report, its email lowercased, and a copyright notice's statements as true", () => {
    expect(checkReportForm({ reason: "scam", details: " Fake ", email: "Ada@Example.COM" })).toEqual({
      ok: true,
      report: { reason: "scam", details: "Fake", email: "ada@example.com", dmca: null },
    });
    const copyright = checkReportForm({
      reason: "copyright",
      email: "a@b.co",
      work: "My song",
      location: "https://x.test/product/1",
      fullName: "Ada",
      contact: "Street 1, 555",
      goodFaith: "on",
      accuracy: "on",
      signature: "Ada",
    });
    expect(copyright).toMatchObject({
      ok: true,
      report: { details: "", dmca: { work: "My song", goodFaith: true, accuracy: true, signature: "Ada" } },
    });
  });
});
