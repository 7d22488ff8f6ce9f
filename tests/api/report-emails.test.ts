import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { translator } from "../../src/contracts/i18n/translator";
import { COUNTER_NOTICE_STATEMENTS, type OperatorReport } from "../../src/contracts/reports";
import { addBusinessDays } from "../../src/server/features/reports/business-days";
import { operatorSession } from "./support/operators";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";

/**
 * The emails of a report's life (docs/operator.md, "Emails about a report"): the seller's on a new report
 * (at most one an hour), the reporter's once it is decided (in their language), the counter-notice sent
 * on to the copyright claimant with the date from which the product may be restored, and that date on
 * the operator's report and queue.
 */
let t: TestApp;
let operatorCookie: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  operatorCookie = (await operatorSession(t)).cookie;
});
afterAll(() => t.close());
afterEach(() => t.clock.reset());

const HOUR = 60 * 60 * 1000;
let counter = 0;
const reporterEmail = (name = "reporter") => `${name}-${Date.now()}-${++counter}@example.com`;

/** The report form, posted as a browser does; each post from its own network (the form's rate limit is per network). */
const postReport = (
  path: string,
  fields: Record<string, string>,
  options: { lang?: string; acceptLanguage?: string } = {},
) =>
  t
    .request({
      method: "POST",
      url: `${path}/report${options.lang ? `?lang=${options.lang}` : ""}`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(options.acceptLanguage ? { "accept-language": options.acceptLanguage } : {}),
      },
      body: new URLSearchParams(fields).toString(),
      ip: `198.51.100.${++counter % 250}`,
    })
    .then((response) => {
      expect(response.statusCode, response.body).toBe(200);
      return response;
    });
const mailTo = (email: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", email).orderBy("id").execute();
const reportBy = (email: string) =>
  t.db.selectFrom("reports").selectAll().where("reporter_email", "=", email).executeTakeFirstOrThrow();
const dmcaFields = (productId: string) => ({
  reason: "copyright",
  work: "My photo series “Salt Flats”, published at https://claimant.example/salt",
  location: `${APP_URL}/product/${productId}`,
  fullName: "Clara Claimant",
  contact: "9 Rua Azul, Lisboa, +351 21 000 0000",
  goodFaith: "on",
  accuracy: "on",
  signature: "Clara Claimant",
});
const operatorPost = (url: string, body: Record<string, unknown>) =>
  t.request({ method: "POST", url, cookie: operatorCookie, body }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response;
  });
const operatorGet = <T>(url: string) =>
  t.request({ method: "GET", url, cookie: operatorCookie }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  });

describe("the seller's email about a new report", () => {
  it("says what was reported, why and when, links to the report, never names the reporter, and sends at most one an hour", async () => {
    const seller = await readySeller(t);
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Harbour Lights Presets" },
      { cover: false },
    );

    const first = reporterEmail("rita");
    await postReport(`/product/${product.id}`, {
      reason: "scam",
      details: "Signed: Rita Reporter. The presets are someone else's free pack.",
      email: first,
    });
    const report = await reportBy(first);
    expect(report.seller_notified_at?.getTime()).toBe(report.created_at.getTime());
    expect(report.seller_notice_skipped).toBe(false);
    let mails = await mailTo(seller.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe("New report about “Harbour Lights Presets”");
    expect(mail!.text).toContain("A visitor reported your product “Harbour Lights Presets”");
    expect(mail!.text).toContain("Reason: Scam or misleading.");
    expect(mail!.text).toContain(
      translator("en").date(report.created_at, { dateStyle: "long", timeZone: "UTC" }),
    );
    expect(mail!.text).toContain(`${APP_URL}/dashboard/reports/${report.id}`);
    expect(mail!.html).toContain(`href="${APP_URL}/dashboard/reports/${report.id}"`);
    expect(mail!.text).toContain("Who reported it stays private.");
    // Neither the reporter's address nor their words (where they may have signed).
    for (const body of [mail!.text, mail!.html, mail!.subject]) {
      expect(body).not.toContain(first);
      expect(body).not.toContain("Rita");
    }
    expect(mail!.text).not.toContain("counter-notice");

    // A duplicate (same email, product and reason while open) sends nothing to anyone.
    await postReport(`/product/${product.id}`, { reason: "scam", details: "Again.", email: first });
    expect(await mailTo(seller.email)).toHaveLength(1);

    // A campaign: more reports within the hour are stored, and their emails are skipped.
    t.clock.advance(30 * 60 * 1000);
    const second = reporterEmail("second");
    await postReport(`/store/${seller.userId}`, { reason: "other", details: "Same again.", email: second });
    t.clock.advance(29 * 60 * 1000);
    const third = reporterEmail("third");
    await postReport(`/product/${product.id}`, { reason: "illegal", details: "Also this.", email: third });
    expect(await mailTo(seller.email)).toHaveLength(1);
    for (const email of [second, third]) {
      expect(await reportBy(email)).toMatchObject({ seller_notified_at: null, seller_notice_skipped: true });
    }
    // The reporters still get their confirmations.
    expect(await mailTo(second)).toHaveLength(1);

    // Past the hour since the last email, the next report emails the seller again: the store this time.
    t.clock.advance(2 * 60 * 1000);
    const fourth = reporterEmail("fourth");
    await postReport(`/store/${seller.userId}`, { reason: "scam", details: "A fake store.", email: fourth });
    mails = await mailTo(seller.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe("New report about your store");
    expect(mails[1]!.text).toContain("A visitor reported your store on");
    expect(mails[1]!.text).not.toContain(fourth);
    expect((await reportBy(fourth)).seller_notified_at).not.toBeNull();

    // A copyright notice: the seller is told a notice was filed and a counter-notice is their answer.
    t.clock.advance(HOUR + 1000);
    const claimant = reporterEmail("claimant");
    await postReport(`/product/${product.id}`, { ...dmcaFields(product.id), email: claimant });
    mails = await mailTo(seller.email);
    expect(mails).toHaveLength(3);
    expect(mails[2]!.text).toContain("Reason: Copyright.");
    expect(mails[2]!.text).toContain("This is a copyright notice (DMCA)");
    expect(mails[2]!.text).toContain("you may answer with a counter-notice");
    expect(mails[2]!.text).toContain(`${APP_URL}/dashboard/reports/${(await reportBy(claimant)).id}`);
  });
});

describe("the reporter's email once the report is decided", () => {
  it("is sent when the report is actioned or dismissed (not in review), in the reporter's language, with the reason as written", async () => {
    const seller = await readySeller(t);
    const product = await createProduct(t, seller.cookie, { title: "Moon Atlas" }, { cover: false });

    const german = reporterEmail("de");
    await postReport(
      `/product/${product.id}`,
      { reason: "illegal", details: "Verbotene Inhalte.", email: german },
      { lang: "de" },
    );
    const actioned = await reportBy(german);
    expect(actioned.reporter_locale).toBe("de");
    expect(await mailTo(german)).toHaveLength(1);
    await operatorPost(`/api/operator/reports/${actioned.id}/status`, { status: "in_review" });
    expect(await mailTo(german)).toHaveLength(1);

    await operatorPost(`/api/operator/reports/${actioned.id}/status`, {
      status: "actioned",
      reason: "The atlas copies a banned map; product taken down.",
    });
    const germanMails = await mailTo(german);
    expect(germanMails).toHaveLength(2);
    const decided = germanMails[1]!;
    expect(decided.subject).toBe("Wir haben Ihre Meldung geprüft");
    expect(decided.html).toContain('<html lang="de">');
    expect(decided.text).toContain("Wir haben auf Ihre Meldung hin gehandelt");
    expect(decided.text).toContain("Wir haben Ihre Meldung zu „Moon Atlas“ (Illegale Inhalte)");
    expect(decided.text).toContain("Es verstößt gegen unsere Regeln, und wir haben Maßnahmen ergriffen.");
    expect(decided.text).toContain(
      "Begründung unseres Prüfers: The atlas copies a banned map; product taken down.",
    );
    expect(decided.text).toContain(actioned.id);

    // Accept-Language chooses the language too; a dismissal says no violation was found.
    const french = reporterEmail("fr");
    await postReport(
      `/store/${seller.userId}`,
      { reason: "scam", details: "Arnaque.", email: french },
      { acceptLanguage: "fr-FR,fr;q=0.9" },
    );
    const dismissed = await reportBy(french);
    expect(dismissed.reporter_locale).toBe("fr");
    await operatorPost(`/api/operator/reports/${dismissed.id}/status`, {
      status: "dismissed",
      reason: "Orders are delivered; no sign of a scam.",
    });
    const frenchMails = await mailTo(french);
    expect(frenchMails).toHaveLength(2);
    expect(frenchMails[1]!.subject).toBe("Nous avons examiné votre signalement");
    expect(frenchMails[1]!.text).toContain("Nous n’avons constaté aucune infraction");
    expect(frenchMails[1]!.text).toContain("concernant la boutique");
    expect(frenchMails[1]!.text).toContain("Orders are delivered; no sign of a scam.");
    expect(frenchMails[1]!.text).not.toContain("Nous avons agi");

    // A decided report can't be decided again, and sends nothing more.
    const again = await t.request({
      method: "POST",
      url: `/api/operator/reports/${dismissed.id}/status`,
      cookie: operatorCookie,
      body: { status: "actioned", reason: "Second thoughts" },
    });
    expect(again.statusCode).toBe(409);
    expect(await mailTo(french)).toHaveLength(2);
  });
});

describe("a counter-notice", () => {
  it("is forwarded to the claimant with the seller's statements and the restore date, and the operator sees when the product may be restored", async () => {
    const seller = await readySeller(t);
    const product = await createProduct(t, seller.cookie, { title: "Salt Flats Prints" }, { cover: false });
    const claimant = reporterEmail("clara");
    await postReport(
      `/product/${product.id}`,
      { ...dmcaFields(product.id), email: claimant },
      { lang: "es" },
    );
    const report = await reportBy(claimant);
    await operatorPost(`/api/operator/products/${product.id}/take-down`, {
      reason: "DMCA notice",
      reportId: report.id,
    });

    const counterNotice = {
      fullName: "Sam Seller",
      address: "2 High Street, Shelbyville",
      phone: "+1 555 0199",
      mistake: true,
      jurisdiction: true,
      signature: "Sam Seller",
    };
    const answered = await t.request({
      method: "POST",
      url: `/api/seller/reports/${report.id}/answer`,
      cookie: seller.cookie,
      body: { message: "I shot these photos myself in 2020; the raw files are dated.", counterNotice },
    });
    expect(answered.statusCode, answered.body).toBe(200);

    const stored = await reportBy(claimant);
    expect(stored.counter_notice_forwarded_at).toEqual(stored.answered_at);
    const restoreAfter = addBusinessDays(stored.answered_at!, 10);
    expect(stored.restore_after).toEqual(restoreAfter);

    const mails = await mailTo(claimant);
    expect(mails).toHaveLength(2);
    const copy = mails[1]!;
    // Our words in the claimant's language, the seller's as written.
    expect(copy.subject).toBe("Un contraaviso a tu aviso de derechos de autor");
    expect(copy.html).toContain('<html lang="es">');
    for (const part of [
      "«Salt Flats Prints»",
      "Nombre: Sam Seller",
      "Dirección postal: 2 High Street, Shelbyville",
      "Teléfono: +1 555 0199",
      "Su declaración: I shot these photos myself in 2020; the raw files are dated.",
      COUNTER_NOTICE_STATEMENTS.mistake,
      COUNTER_NOTICE_STATEMENTS.jurisdiction,
      "Firma: Sam Seller",
      `a partir del ${translator("es").date(restoreAfter, { dateStyle: "long", timeZone: "UTC" })}`,
      "demanda judicial",
      "responde a este email",
      report.id,
    ])
      expect(copy.text).toContain(part);
    // The claimant's own address stays with us: it is not in the copy either.
    expect(copy.text).not.toContain("Rua Azul");

    // The operator's report: forwarded when, restorable from when; not ready yet.
    const seen = await operatorGet<OperatorReport>(`/api/operator/reports/${report.id}`);
    expect(seen.counterNoticeForwarded).toEqual({
      forwardedAt: stored.answered_at!.toISOString(),
      restoreAfter: restoreAfter.toISOString(),
      productTakenDown: true,
      readyToRestore: false,
    });
    const readyIds = async () =>
      (
        await operatorGet<{
          reports: Array<{ id: string; readyToRestore: boolean }>;
          readyToRestore: number;
        }>("/api/operator/reports?restore=ready")
      ).reports.map((entry) => entry.id);
    expect(await readyIds()).not.toContain(report.id);

    // Once the date has passed with the product still taken down: a reminder in the queue, nothing restored.
    t.clock.advance(restoreAfter.getTime() - Date.now() + HOUR);
    expect(await readyIds()).toContain(report.id);
    const queue = await operatorGet<{
      reports: Array<{ id: string; readyToRestore: boolean }>;
      readyToRestore: number;
    }>("/api/operator/reports");
    expect(queue.readyToRestore).toBeGreaterThanOrEqual(1);
    expect(queue.reports.find((entry) => entry.id === report.id)?.readyToRestore).toBe(true);
    expect(
      (await operatorGet<OperatorReport>(`/api/operator/reports/${report.id}`)).counterNoticeForwarded,
    ).toMatchObject({ productTakenDown: true, readyToRestore: true });
    const takeDown = await t.db
      .selectFrom("enforcement_actions")
      .select("lifted_at")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect(takeDown.lifted_at).toBeNull();
    expect((await t.request({ method: "GET", url: `/product/${product.id}` })).statusCode).toBe(403);

    // The operator reinstates it: no longer waiting.
    await operatorPost(`/api/operator/products/${product.id}/reinstate`, {
      reason: "No court action within 10 business days",
      reportId: report.id,
    });
    expect(await readyIds()).not.toContain(report.id);
    expect(
      (await operatorGet<OperatorReport>(`/api/operator/reports/${report.id}`)).counterNoticeForwarded,
    ).toMatchObject({ productTakenDown: false, readyToRestore: false });
  });

  it("of a product never taken down is forwarded too, and nothing waits to be restored", async () => {
    const seller = await readySeller(t);
    const product = await createProduct(t, seller.cookie, { title: "Quiet Loops" }, { cover: false });
    const claimant = reporterEmail("claim-en");
    await postReport(`/product/${product.id}`, { ...dmcaFields(product.id), email: claimant });
    const report = await reportBy(claimant);
    const answered = await t.request({
      method: "POST",
      url: `/api/seller/reports/${report.id}/answer`,
      cookie: seller.cookie,
      body: {
        message: "These loops are mine.",
        counterNotice: {
          fullName: "Lou Loop",
          address: "5 Side Road",
          phone: "+44 20 0000 0000",
          mistake: true,
          jurisdiction: true,
          signature: "Lou Loop",
        },
      },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const mails = await mailTo(claimant);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "We received your report",
      "A counter-notice to your copyright notice",
    ]);
    expect(mails[1]!.text).toContain("Their statement: These loops are mine.");
    expect(mails[1]!.text).toContain("reply to this email");

    t.clock.advance(20 * 24 * HOUR);
    expect(
      (await operatorGet<OperatorReport>(`/api/operator/reports/${report.id}`)).counterNoticeForwarded,
    ).toMatchObject({ productTakenDown: false, readyToRestore: false });

    // A plain answer to a copyright report (no counter-notice) forwards nothing.
    const other = reporterEmail("claim-plain");
    await postReport(`/product/${product.id}`, { ...dmcaFields(product.id), email: other });
    const plain = await reportBy(other);
    await t.request({
      method: "POST",
      url: `/api/seller/reports/${plain.id}/answer`,
      cookie: seller.cookie,
      body: { message: "Happy to talk." },
    });
    expect(await mailTo(other)).toHaveLength(1);
    expect(await reportBy(other)).toMatchObject({ counter_notice_forwarded_at: null, restore_after: null });
  });
});
