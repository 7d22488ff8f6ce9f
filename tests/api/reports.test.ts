import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_MESSAGES } from "../../src/contracts/operator";
import {
  type OperatorReport,
  REPORT_ANSWER_MESSAGES,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  type SellerReport,
} from "../../src/contracts/reports";
import { grantOperator } from "../../src/server/features/operator/operator-grants";
import { operatorSession } from "./support/operators";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let product: { id: string };
let operatorCookie: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  product = await createProduct(t, seller.cookie, { title: "The Stolen Guide" }, { cover: false });
  operatorCookie = (await operatorSession(t)).cookie;
});
afterAll(() => t.close());
afterEach(() => t.clock.reset());

let counter = 0;
const reporterEmail = (name = "reporter") => `${name}-${Date.now()}-${++counter}@example.com`;

/** The report form, posted as a browser does (no script needed). */
const postReport = (
  path: string,
  fields: Record<string, string>,
  options: { ip?: string; lang?: string } = {},
) =>
  t.request({
    method: "POST",
    url: `${path}/report${options.lang ? `?lang=${options.lang}` : ""}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    ...(options.ip ? { ip: options.ip } : {}),
  });
const reportsAbout = (productId: string) =>
  t.db.selectFrom("reports").selectAll().where("product_id", "=", productId).orderBy("created_at").execute();
const mailTo = (email: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", email).orderBy("id").execute();
const dmcaFields = (overrides: Record<string, string> = {}) => ({
  reason: "copyright",
  work: "My book “Guide to Everything”, published at https://author.example/guide",
  location: `http://localhost:3000/product/${product.id}`,
  fullName: "Ada Author",
  contact: "1 Main Street, Springfield, +1 555 0100",
  goodFaith: "on",
  accuracy: "on",
  signature: "Ada Author",
  ...overrides,
});
const operatorGet = <T>(url: string, cookie = operatorCookie) =>
  t.request({ method: "GET", url, cookie }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  });

describe("the report form", () => {
  it("is linked from every product and store page, works without script, speaks the visitor's language", async () => {
    const productPage = await t.request({ method: "GET", url: `/product/${product.id}` });
    expect(productPage.body).toContain(`href="/product/${product.id}/report"`);
    const storePage = await t.request({ method: "GET", url: `/store/${seller.userId}` });
    expect(storePage.body).toContain(`href="/store/${seller.userId}/report"`);

    const form = await t.request({ method: "GET", url: `/product/${product.id}/report` });
    expect(form.statusCode).toBe(200);
    expect(form.headers["cache-control"]).toBe("no-store");
    expect(form.body).toContain(`action="/product/${product.id}/report"`);
    expect(form.body).toContain("Report this product");
    for (const name of [
      "reason",
      "details",
      "email",
      "work",
      "location",
      "fullName",
      "contact",
      "goodFaith",
      "accuracy",
      "signature",
    ])
      expect(form.body).toContain(`name="${name}"`);
    // The DMCA notice's location is prefilled with the product's address.
    expect(form.body).toContain(`value="http://localhost:3000/product/${product.id}"`);
    expect(form.body).not.toContain("<script>");

    const german = await t.request({ method: "GET", url: `/product/${product.id}/report?lang=de` });
    expect(german.body).toContain("Dieses Produkt melden");
    expect(german.body).toContain('<html lang="de">');

    const store = await t.request({ method: "GET", url: `/store/${seller.userId}/report?lang=ja` });
    expect(store.statusCode).toBe(200);
    expect(store.body).toContain("このストアを報告");
    expect(store.body).toContain(`value="http://localhost:3000/store/${seller.userId}"`);

    expect((await t.request({ method: "GET", url: "/product/nope/report" })).statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: "/store/nope/report" })).statusCode).toBe(404);
  });

  it("refuses missing and invalid fields, each at its field, in the visitor's language, storing nothing", async () => {
    const before = (await reportsAbout(product.id)).length;
    const empty = await postReport(`/product/${product.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(REPORT_MESSAGES.reasonRequired);
    expect(empty.body).toContain(REPORT_MESSAGES.emailInvalid);
    expect(empty.body).toContain('aria-invalid="true"');

    const noDetails = await postReport(`/product/${product.id}`, { reason: "scam", email: "not-an-email" });
    expect(noDetails.statusCode).toBe(400);
    expect(noDetails.body).toContain(REPORT_MESSAGES.detailsRequired);
    expect(noDetails.body).toContain(REPORT_MESSAGES.emailInvalid);
    // What was typed comes back.
    expect(noDetails.body).toContain('value="not-an-email"');

    const tooLong = await postReport(`/product/${product.id}`, {
      reason: "other",
      details: "x".repeat(REPORT_LIMITS.detailsChars + 1),
      email: reporterEmail(),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain(REPORT_MESSAGES.detailsTooLong);

    const french = await postReport(`/product/${product.id}`, { reason: "scam" }, { lang: "fr" });
    expect(french.statusCode).toBe(400);
    expect(french.body).toContain("Dites-nous ce qui ne va pas.");
    expect(french.body).toContain("Saisissez une adresse e-mail valide.");

    expect((await reportsAbout(product.id)).length).toBe(before);
  });

  it("asks a copyright report for every element of a DMCA notice", async () => {
    const email = reporterEmail("claimant");
    const missing = await postReport(`/product/${product.id}`, { reason: "copyright", email });
    expect(missing.statusCode).toBe(400);
    for (const message of [
      REPORT_MESSAGES.workRequired,
      REPORT_MESSAGES.nameRequired,
      REPORT_MESSAGES.contactRequired,
      REPORT_MESSAGES.signatureRequired,
    ])
      expect(missing.body).toContain(message);
    // Both statements are required checkboxes.
    expect(missing.body.match(new RegExp(REPORT_MESSAGES.goodFaithRequired, "g"))?.length).toBe(2);

    const noStatements = await postReport(`/product/${product.id}`, {
      ...dmcaFields({ goodFaith: "", accuracy: "" }),
      email,
    });
    expect(noStatements.statusCode).toBe(400);
    expect(noStatements.body).toContain(REPORT_MESSAGES.accuracyRequired);
    const noLocation = await postReport(`/product/${product.id}`, {
      ...dmcaFields({ location: " " }),
      email,
    });
    expect(noLocation.body).toContain(REPORT_MESSAGES.locationRequired);
    expect(await mailTo(email)).toEqual([]);

    const sent = await postReport(`/product/${product.id}`, { ...dmcaFields(), email });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain(REPORT_MESSAGES.received);
    const [stored] = (await reportsAbout(product.id)).filter((row) => row.reporter_email === email);
    expect(stored).toMatchObject({
      reason: "copyright",
      status: "new",
      seller_id: seller.userId,
      product_title: "The Stolen Guide",
      details: "",
    });
    expect(stored?.dmca).toMatchObject({
      fullName: "Ada Author",
      goodFaith: true,
      accuracy: true,
      signature: "Ada Author",
    });
  });

  it("refuses an unknown product or store with the 404 page, storing nothing", async () => {
    const email = reporterEmail();
    const unknown = await postReport("/product/no-such-product", { reason: "scam", details: "x", email });
    expect(unknown.statusCode).toBe(404);
    const unknownStore = await postReport("/store/no-such-store", { reason: "scam", details: "x", email });
    expect(unknownStore.statusCode).toBe(404);
    expect(
      await t.db.selectFrom("reports").selectAll().where("reporter_email", "=", email).execute(),
    ).toEqual([]);
  });

  it("confirms a report on a page and by email in the reporter's language, and adds nothing for a duplicate", async () => {
    const email = reporterEmail("fr");
    const sent = await postReport(
      `/product/${product.id}`,
      { reason: "malware", details: "The PDF asks to run a program.", email: email.toUpperCase() },
      { lang: "fr" },
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain("Signalement envoyé");
    expect(sent.body).toContain(email);
    const [row] = (await reportsAbout(product.id)).filter((report) => report.reporter_email === email);
    expect(row).toMatchObject({ reason: "malware", reporter_locale: "fr", status: "new" });
    expect(sent.body).toContain(row!.id);

    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Nous avons reçu votre signalement");
    expect(mails[0]!.text).toContain("The Stolen Guide");
    expect(mails[0]!.text).toContain("Et ensuite");
    expect(mails[0]!.text).toContain(row!.id);

    // The same email, product and reason while it is open: nothing added, "already being reviewed".
    const again = await postReport(`/product/${product.id}`, {
      reason: "malware",
      details: "Again.",
      email,
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(REPORT_MESSAGES.alreadyReviewed);
    expect((await reportsAbout(product.id)).filter((report) => report.reporter_email === email)).toHaveLength(
      1,
    );
    expect(await mailTo(email)).toHaveLength(1);

    // Another reason is another report; and the store can be reported too.
    const other = await postReport(`/product/${product.id}`, {
      reason: "scam",
      details: "Not a guide.",
      email,
    });
    expect(other.body).toContain(REPORT_MESSAGES.received);
    const store = await postReport(`/store/${seller.userId}`, {
      reason: "scam",
      details: "A fake store.",
      email,
    });
    expect(store.statusCode).toBe(200);
    const storeRow = await t.db
      .selectFrom("reports")
      .selectAll()
      .where("reporter_email", "=", email)
      .where("product_id", "is", null)
      .executeTakeFirstOrThrow();
    expect(storeRow).toMatchObject({ seller_id: seller.userId, reason: "scam", product_title: null });
    expect(await mailTo(email)).toHaveLength(3);
  });

  it("is rate limited per email and per network before anything of the post is looked at", async () => {
    const email = reporterEmail("busy");
    for (let i = 0; i < REPORT_LIMITS.perEmailPerHour; i++) {
      const response = await postReport(`/product/${product.id}`, { reason: "other", email });
      expect(response.statusCode).toBe(400);
    }
    // An unknown product and no fields: the limit answers first, naming nothing.
    const limited = await postReport("/product/no-such-product", { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain(REPORT_MESSAGES.rateLimited);
    expect(limited.body).not.toContain(REPORT_MESSAGES.reasonRequired);
    expect(limited.body).not.toContain("Product not found");
    // Even a good report from that email waits.
    const good = await postReport(`/product/${product.id}`, { reason: "other", details: "x", email });
    expect(good.statusCode).toBe(429);
    expect(
      await t.db.selectFrom("reports").selectAll().where("reporter_email", "=", email).execute(),
    ).toEqual([]);
    // An hour later it may report again.
    t.clock.advance(2 * 60 * 60 * 1000);
    expect(
      (await postReport(`/product/${product.id}`, { reason: "other", details: "x", email })).statusCode,
    ).toBe(200);

    const ip = "192.0.2.77";
    for (let i = 0; i < REPORT_LIMITS.perIpPerHour; i++) {
      await postReport(`/product/${product.id}`, { reason: "other" }, { ip });
    }
    const network = await postReport(
      `/product/${product.id}`,
      { reason: "other", details: "x", email: reporterEmail() },
      { ip },
    );
    expect(network.statusCode).toBe(429);
    expect(network.body).toContain(REPORT_MESSAGES.rateLimited);
  });
});

/** A fresh report of `reason` about the product, by a new email: its id. */
async function fileReport(fields: Record<string, string> = {}, productId = product.id) {
  const email = reporterEmail();
  const response = await postReport(`/product/${productId}`, {
    reason: "scam",
    details: "It is not what it says.",
    email,
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(200);
  const row = await t.db
    .selectFrom("reports")
    .select(["id", "reporter_email"])
    .where("reporter_email", "=", email)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

describe("the operator's queue", () => {
  it("is the operator's only: a seller gets the 404 of a path that does not exist", async () => {
    const report = await fileReport();
    for (const url of ["/api/operator/reports", `/api/operator/reports/${report.id}`]) {
      expect((await t.request({ method: "GET", url, cookie: seller.cookie })).statusCode).toBe(404);
    }
    const change = await t.request({
      method: "POST",
      url: `/api/operator/reports/${report.id}/status`,
      cookie: seller.cookie,
      body: { status: "dismissed", reason: "mine" },
    });
    expect(change.statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: "/api/operator/reports" })).statusCode).toBe(401);
    // An operator without two-factor is told to turn it on.
    const noTwoFactor = await signUp(t);
    await grantOperator(t.db, noTwoFactor.email, "test", t.clock.now());
    const refused = await t.request({
      method: "GET",
      url: "/api/operator/reports",
      cookie: noTwoFactor.cookie,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(OPERATOR_MESSAGES.twoFactorRequired);
  });

  it("lists reports newest first, filtered by status, paged", async () => {
    const first = await fileReport();
    t.clock.advance(1000);
    const second = await fileReport({ reason: "illegal" });
    const page = await operatorGet<{
      reports: Array<{ id: string }>;
      counts: Record<string, number>;
      hasMore: boolean;
    }>("/api/operator/reports?status=new");
    const ids = page.reports.map((report) => report.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(page.counts.new).toBeGreaterThanOrEqual(2);
    const inReview = await operatorGet<{ reports: Array<{ id: string }> }>(
      "/api/operator/reports?status=in_review",
    );
    expect(inReview.reports.map((report) => report.id)).not.toContain(first.id);

    // More than a page: the next page holds the rest, none twice.
    for (let i = 0; i < REPORT_LIMITS.pageSize; i++) await fileReport({ reason: "other" });
    const one = await operatorGet<{ reports: Array<{ id: string }>; hasMore: boolean }>(
      "/api/operator/reports",
    );
    expect(one.reports).toHaveLength(REPORT_LIMITS.pageSize);
    expect(one.hasMore).toBe(true);
    const two = await operatorGet<{ reports: Array<{ id: string }> }>("/api/operator/reports?page=2");
    expect(two.reports.some((report) => one.reports.some((seen) => seen.id === report.id))).toBe(false);
    expect(
      (await t.request({ method: "GET", url: "/api/operator/reports?status=lost", cookie: operatorCookie }))
        .statusCode,
    ).toBe(400);
  });

  it("shows a report with its DMCA notice, the product and its checked files, the seller's history", async () => {
    const earlier = await fileReport({ reason: "other", details: "Earlier." });
    const claimant = reporterEmail("dmca");
    await postReport(`/product/${product.id}`, {
      ...dmcaFields(),
      details: "See the preface.",
      email: claimant,
    });
    const { id } = await t.db
      .selectFrom("reports")
      .select("id")
      .where("reporter_email", "=", claimant)
      .executeTakeFirstOrThrow();
    const report = await operatorGet<OperatorReport>(`/api/operator/reports/${id}`);
    expect(report).toMatchObject({
      reason: "copyright",
      status: "new",
      details: "See the preface.",
      reporterEmail: claimant,
      dmca: {
        fullName: "Ada Author",
        contact: "1 Main Street, Springfield, +1 555 0100",
        goodFaith: true,
        accuracy: true,
      },
      seller: { id: seller.userId, email: seller.email },
      product: {
        id: product.id,
        title: "The Stolen Guide",
        exists: true,
        isActive: true,
        url: `http://localhost:3000/product/${product.id}`,
      },
      answer: null,
    });
    expect(report.product?.files).toEqual([
      expect.objectContaining({
        originalName: "guide.pdf",
        contentType: "application/pdf",
        status: "attached",
      }),
    ]);
    expect(report.fileChecks).toContain("passed the upload checks");
    expect(report.sellerHistory.map((entry) => entry.id)).toContain(earlier.id);
    expect(report.sellerHistory.map((entry) => entry.id)).not.toContain(id);
    expect(
      (await t.request({ method: "GET", url: "/api/operator/reports/nope", cookie: operatorCookie }))
        .statusCode,
    ).toBe(404);
  });

  it("moves a report to in review, then dismissed or actioned with a reason, each audited with the report", async () => {
    const report = await fileReport();
    const change = (body: Record<string, unknown>, id = report.id) =>
      t.request({ method: "POST", url: `/api/operator/reports/${id}/status`, cookie: operatorCookie, body });

    const review = await change({ status: "in_review" });
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json()).toMatchObject({ status: "in_review" });
    expect((await change({ status: "in_review" })).statusCode).toBe(409);

    const noReason = await change({ status: "dismissed", reason: "  " });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(OPERATOR_MESSAGES.reasonRequired);
    expect((await change({ status: "new" })).statusCode).toBe(400);

    const dismissed = await change({ status: "dismissed", reason: "The product is what it says." });
    expect(dismissed.json()).toMatchObject({
      status: "dismissed",
      statusReason: "The product is what it says.",
    });
    const closed = await change({ status: "actioned", reason: "Changed my mind" });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(REPORT_ANSWER_MESSAGES.reportClosed);

    const other = await fileReport({ reason: "illegal" });
    expect((await change({ status: "actioned", reason: "Taken down: illegal." }, other.id)).statusCode).toBe(
      200,
    );

    const log = await operatorGet<{ entries: Array<Record<string, unknown>> }>(
      `/api/operator/audit-log?reportId=${report.id}`,
    );
    expect(log.entries).toEqual([
      expect.objectContaining({
        action: "report.dismiss",
        reason: "The product is what it says.",
        sellerId: seller.userId,
        productId: product.id,
        reportId: report.id,
      }),
      expect.objectContaining({ action: "report.in-review", reportId: report.id }),
    ]);
    const bySeller = await operatorGet<{ entries: Array<Record<string, unknown>> }>(
      `/api/operator/audit-log?sellerId=${seller.userId}`,
    );
    expect(bySeller.entries[0]).toMatchObject({ action: "report.mark-actioned", reportId: other.id });
    // The reporter may report the same again once it is decided.
    const again = await postReport(`/product/${product.id}`, {
      reason: "scam",
      details: "Still wrong.",
      email: report.email,
    });
    expect(again.body).toContain(REPORT_MESSAGES.received);
  });
});

/** Every page of a paged list (earlier tests filed more reports than a page holds, some at a moved clock). */
async function allPages<T>(get: (page: number) => Promise<{ reports: T[]; hasMore: boolean }>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= 20; page++) {
    const answer = await get(page);
    all.push(...answer.reports);
    if (!answer.hasMore) break;
  }
  return all;
}

describe("the seller's side", () => {
  it("shows a seller the reports about their store only, never the reporter's email but a copyright claimant's", async () => {
    const plain = await fileReport({ reason: "scam", details: "A scam." });
    const claimant = reporterEmail("claim");
    await postReport(`/product/${product.id}`, { ...dmcaFields(), email: claimant });
    const list = await t.request({ method: "GET", url: "/api/seller/reports", cookie: seller.cookie });
    expect(list.statusCode).toBe(200);
    const reports = await allPages<SellerReport>((page) =>
      t
        .request({ method: "GET", url: `/api/seller/reports?page=${page}`, cookie: seller.cookie })
        .then((r) => r.json()),
    );
    const shownPlain = reports.find((report) => report.id === plain.id);
    expect(shownPlain).toMatchObject({
      reason: "scam",
      details: "A scam.",
      productTitle: "The Stolen Guide",
      claim: null,
      canAnswer: true,
    });
    expect(list.body).not.toContain(plain.email);
    const copyright = reports.find((report) => report.claim?.claimantEmail === claimant);
    expect(copyright?.claim).toMatchObject({ claimantName: "Ada Author", signature: "Ada Author" });
    // The claimant's postal address and phone stay with the operator.
    expect(list.body).not.toContain("1 Main Street");

    const other = await signUp(t);
    const theirs = await t.request({ method: "GET", url: "/api/seller/reports", cookie: other.cookie });
    expect((theirs.json() as { reports: unknown[] }).reports).toEqual([]);
    expect(
      (await t.request({ method: "GET", url: `/api/seller/reports/${plain.id}`, cookie: other.cookie }))
        .statusCode,
    ).toBe(404);
    const answer = await t.request({
      method: "POST",
      url: `/api/seller/reports/${plain.id}/answer`,
      cookie: other.cookie,
      body: { message: "Not mine" },
    });
    expect(answer.statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: "/api/seller/reports" })).statusCode).toBe(401);
  });

  it("lets the seller answer once, with a counter-notice to a copyright report, which the operator sees and the log keeps", async () => {
    const claimant = reporterEmail("counter");
    await postReport(`/product/${product.id}`, { ...dmcaFields(), email: claimant });
    const { id } = await t.db
      .selectFrom("reports")
      .select("id")
      .where("reporter_email", "=", claimant)
      .executeTakeFirstOrThrow();
    const answer = (body: Record<string, unknown>) =>
      t.request({ method: "POST", url: `/api/seller/reports/${id}/answer`, cookie: seller.cookie, body });

    expect((await answer({ message: " " })).json().message).toBe(REPORT_ANSWER_MESSAGES.answerRequired);
    const incomplete = await answer({
      message: "I wrote this guide myself.",
      counterNotice: {
        fullName: "Sam Seller",
        address: "2 High St",
        phone: "+1 555 0199",
        mistake: true,
        signature: "Sam Seller",
      },
    });
    expect(incomplete.statusCode).toBe(400);
    const counterNotice = {
      fullName: "Sam Seller",
      address: "2 High Street, Shelbyville",
      phone: "+1 555 0199",
      mistake: true,
      jurisdiction: true,
      signature: "Sam Seller",
    };
    const answered = await answer({ message: "I wrote this guide myself in 2019.", counterNotice });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      answer: { message: "I wrote this guide myself in 2019.", counterNotice },
      canAnswer: false,
    });
    const twice = await answer({ message: "And again." });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(REPORT_ANSWER_MESSAGES.alreadyAnswered);

    const seen = await operatorGet<OperatorReport>(`/api/operator/reports/${id}`);
    expect(seen.answer).toMatchObject({ message: "I wrote this guide myself in 2019.", counterNotice });
    const queue = await allPages<{ id: string; answered: boolean }>((page) =>
      operatorGet(`/api/operator/reports?status=new&page=${page}`),
    );
    expect(queue.find((report) => report.id === id)?.answered).toBe(true);
    const log = await operatorGet<{ entries: Array<Record<string, unknown>> }>(
      `/api/operator/audit-log?reportId=${id}`,
    );
    expect(log.entries[0]).toMatchObject({
      action: "report.counter-notice",
      actorEmail: seller.email,
      reportId: id,
      sellerId: seller.userId,
    });

    // A plain answer to another reason; a dismissed report takes no answer.
    const plain = await fileReport();
    const plainAnswer = await t.request({
      method: "POST",
      url: `/api/seller/reports/${plain.id}/answer`,
      cookie: seller.cookie,
      body: { message: "It is exactly as described.", counterNotice },
    });
    expect(plainAnswer.json()).toMatchObject({
      answer: { message: "It is exactly as described.", counterNotice: null },
    });
    const dismissed = await fileReport({ reason: "other", details: "meh" });
    await t.request({
      method: "POST",
      url: `/api/operator/reports/${dismissed.id}/status`,
      cookie: operatorCookie,
      body: { status: "dismissed", reason: "Nothing wrong." },
    });
    const late = await t.request({
      method: "POST",
      url: `/api/seller/reports/${dismissed.id}/answer`,
      cookie: seller.cookie,
      body: { message: "Thanks" },
    });
    expect(late.statusCode).toBe(409);
  });
});
