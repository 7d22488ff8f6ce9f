import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_FALLBACK_NAME } from "../../src/contracts/products";
import { WITHDRAWAL_WAIVER_TEXT } from "../../src/contracts/tax";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { type CheckoutPayer, control } from "./support/emulator-control";
import { collectTax, createProduct, readySeller, upload } from "./support/sellers";
import { cookiesOf, createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// The buyer's language travels with the purchase (docs/i18n.md, "Emails" and "Checkout"): the request
// that starts a checkout names it (`?lang=` and its cookie, then Accept-Language), Stripe's Checkout
// speaks it, the order and the membership keep it, and every email the buyer gets (receipt, refund, new
// link, a creator's product update, a membership's welcome and renewals) is written in it. A request
// that names none of our languages buys in English, exactly as before.
let t: TestApp;
let taxed: Awaited<ReturnType<typeof readySeller>>;
let plain: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, buyerCountryHeader: "cf-ipcountry" });
  [taxed, plain] = [await readySeller(t), await readySeller(t)];
  // The taxed store collects German VAT and asks EU buyers to waive their right of withdrawal.
  await collectTax(t, taxed, {
    headOffice: { country: "DE" },
    registrations: [{ country: "DE", type: "oss_union" }],
  });
});
afterAll(async () => {
  await t.close();
});

let emailCounter = 0;
const newEmail = (prefix: string) => `${prefix}-${Date.now()}-${++emailCounter}@example.com`;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const GERMAN_BUYER: CheckoutPayer = {
  name: "Anna Schmidt",
  address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
};
const GERMAN_WAIVER =
  "Ich stimme zu, dass mein Download unmittelbar nach der Zahlung verfügbar ist, und nehme zur Kenntnis, dass ich dadurch mein 14-tägiges Widerrufsrecht verliere.";
/** Intl writes a no-break space inside "23,79 $": compared as a plain one. */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const dayIn = (locale: string, date: Date) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);

const emailsTo = async (to: string) =>
  (
    await t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", to).orderBy("id").execute()
  ).map((mail) => ({ ...mail, text: plainSpaces(mail.text), html: plainSpaces(mail.html) }));
const checkoutOf = (sessionId: string) =>
  t.db
    .selectFrom("checkouts")
    .selectAll()
    .where("stripe_session_id", "=", sessionId)
    .executeTakeFirstOrThrow();
const orderOf = (sessionId: string) =>
  t.db.selectFrom("orders").selectAll().where("stripe_session_id", "=", sessionId).executeTakeFirst();
const sessionOf = (sessionId: string, account: string) =>
  t.stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: account });

/** Buy Now with these headers, then pays as `payer` on Checkout; answers once the order exists. */
async function buy(
  productId: string,
  email: string,
  headers: Record<string, string>,
  payer: CheckoutPayer = {},
  url = "/api/checkout",
) {
  const response = await t.request({ method: "POST", url, body: { productId }, headers });
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = sessionIdOf(response.json().url);
  await control(t.emulator).payCheckoutAs(sessionId, { ...payer, email });
  let order: Awaited<ReturnType<typeof orderOf>>;
  await eventually(async () => {
    order = await orderOf(sessionId);
    expect(order).toBeDefined();
  });
  return { sessionId, order: order! };
}

describe("a purchase in the buyer's language", () => {
  it("opens Checkout in German for Accept-Language de-DE, keeps German on the order, and writes its emails in German", async () => {
    const product = await createProduct(t, taxed.cookie, { issueLicenseKeys: true }, { cover: false });
    const email = newEmail("de");
    const german = { "accept-language": "de-DE,de;q=0.9,en;q=0.8", "cf-ipcountry": "DE" };
    const response = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id },
      headers: german,
    });
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = sessionIdOf(response.json().url);

    // Checkout speaks German, and asks for the waiver in German: the wording kept is what the buyer saw.
    const session = await sessionOf(sessionId, taxed.account);
    expect(session.locale).toBe("de");
    expect(session.custom_text.terms_of_service_acceptance?.message).toBe(GERMAN_WAIVER);
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('<html lang="de">');
    expect(page).toMatch(/id="pay"[^>]*>Bezahlen /);
    expect(await checkoutOf(sessionId)).toMatchObject({
      buyer_locale: "de",
      withdrawal_waiver: GERMAN_WAIVER,
    });

    await control(t.emulator).payCheckoutAs(sessionId, { ...GERMAN_BUYER, email });
    let order: Awaited<ReturnType<typeof orderOf>>;
    await eventually(async () => {
      order = await orderOf(sessionId);
      expect(order).toBeDefined();
    });
    expect(order!).toMatchObject({
      buyer_locale: "de",
      amount_cents: 2379,
      tax_cents: 380,
      withdrawal_waiver: GERMAN_WAIVER,
    });

    const [receipt, ...others] = await emailsTo(email);
    expect(others).toEqual([]);
    expect(receipt!.subject).toBe("Ihre Quittung: The Guide");
    expect(receipt!.html).toContain('<html lang="de">');
    const day = dayIn("de", order!.created_at);
    expect(day).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    const key = await t.db
      .selectFrom("license_keys")
      .select("key")
      .where("order_id", "=", order!.id)
      .executeTakeFirstOrThrow();
    const lines = receipt!.text.split("\n").filter((line) => line !== "");
    expect(lines.slice(0, 8)).toEqual([
      "Vielen Dank für Ihren Kauf!",
      `The Guide von ${await storeName(taxed.userId)}`,
      `Gezahlter Betrag: 23,79 $ am ${day}. Bestellung ${order!.id}.`,
      "Steuer: 3,80 $ (MwSt. 19 % (DE)), im gezahlten Betrag enthalten.",
      `Jeder Download-Link läuft nach 24 Stunden ab. Sie können jede Datei bis zum ${dayIn("de", order!.download_window_ends_at)} bis zu 3-mal herunterladen. In Ihrer Bibliothek finden Sie immer einen neuen Link.`,
      `Ihr Lizenzschlüssel: ${key.key}`,
      "Bewahren Sie ihn auf: Die gekaufte Software fragt danach.",
      `Vor der Zahlung haben Sie zugestimmt: „${GERMAN_WAIVER}“`,
    ]);
    expect(receipt!.text).toMatch(/^Ihre Datei herunterladen: http:\/\/localhost:3000\/download\//m);
    expect(receipt!.text).toMatch(
      /^Alle Ihre Käufe \(Ihre Bibliothek\): http:\/\/localhost:3000\/library\?token=/m,
    );
    expect(receipt!.text).toMatch(/^Ihre Rechnung \(PDF\): /m);
    expect(receipt!.text).toContain("Die Zahlung wurde von Stripe abgewickelt.");
    expect(receipt!.text).toContain("Flatfee: Digitale Produkte verkaufen für pauschal 10 $ im Monat.");
    expect(receipt!.html).toContain(
      "Oder kopieren Sie diesen Link in Ihren Browser: http://localhost:3000/download/",
    );
    expect(receipt!.text).not.toContain("Thanks");

    // A new link asked without naming a language speaks the order's; one asked in French, French.
    const resend = (headers: Record<string, string>) =>
      t.request({
        method: "POST",
        url: "/api/download-links/resend",
        body: { productId: product.id, email },
        headers,
      });
    expect((await resend({})).statusCode).toBe(200);
    expect((await resend({ "accept-language": "fr-FR" })).statusCode).toBe(200);
    const links = (await emailsTo(email)).slice(1);
    expect(links.map((mail) => mail.subject)).toEqual([
      "Ihr Download-Link: The Guide",
      "Votre lien de téléchargement : The Guide",
    ]);
    expect(links[0]!.text).toContain(
      "Noch 3 von 3 Downloads übrig. Jeder Download-Link läuft nach 24 Stunden ab.",
    );
    expect(links[1]!.html).toContain('<html lang="fr">');

    // The creator's product update: its frame in German, the creator's words as written.
    const update = await t.request({
      method: "POST",
      url: "/api/broadcasts",
      cookie: taxed.cookie,
      body: { kind: "product-update", productId: product.id, subject: "Chapter 9", message: "Enjoy." },
    });
    expect(update.statusCode, update.body).toBe(201);
    await t.app.jobs.runDue();
    await eventually(async () => {
      const mail = (await emailsTo(email)).find((candidate) => candidate.subject.startsWith("Neu in"));
      expect(mail?.subject).toBe("Neu in The Guide: Chapter 9");
      expect(mail!.html).toContain('<html lang="de">');
      expect(mail!.text).toContain("Enjoy.");
      expect(mail!.text).toMatch(/^Die neuen Dateien holen: http:\/\/localhost:3000\/library\?token=/m);
      expect(mail!.text).toMatch(/^E-Mails von .+ abbestellen: http:\/\/localhost:3000\/unsubscribe\//m);
    });

    // The creator's refund, in German too.
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order!.id}/refund`,
      cookie: taxed.cookie,
    });
    expect(refund.statusCode, refund.body).toBeLessThan(300);
    const refunded = (await emailsTo(email)).at(-1)!;
    expect(refunded.subject).toBe("Erstattung veranlasst: The Guide");
    expect(refunded.text).toContain("Der Creator hat Ihren Kauf von The Guide (23,79 $) erstattet.");
  });

  it("takes the switcher's choice (its cookie, or ?lang=) over Accept-Language", async () => {
    const product = await createProduct(t, plain.cookie, {}, { cover: false });
    // The switcher's ?lang=fr on any buyer page is remembered in the lang cookie...
    const chosen = await t.request({ method: "GET", url: "/store/nobody-here?lang=fr" });
    const cookie = cookiesOf(chosen);
    expect(cookie).toBe("lang=fr");
    const email = newEmail("fr");
    const { sessionId, order } = await buy(product.id, email, { "accept-language": "de-DE", cookie });
    expect((await sessionOf(sessionId, plain.account)).locale).toBe("fr");
    expect(order.buyer_locale).toBe("fr");
    const [receipt] = await emailsTo(email);
    expect(receipt!.subject).toBe("Votre reçu : The Guide");
    expect(receipt!.html).toContain('<html lang="fr">');
    expect(receipt!.text).toContain(
      `Montant payé : 19,99 $US le ${dayIn("fr", order.created_at)}. Commande ${order.id}.`,
    );

    // ...and ?lang= on the request itself is the choice of all.
    const spanish = newEmail("es");
    const bought = await buy(
      product.id,
      spanish,
      { "accept-language": "de-DE", cookie },
      {},
      "/api/checkout?lang=es",
    );
    expect((await sessionOf(bought.sessionId, plain.account)).locale).toBe("es");
    expect((await emailsTo(spanish))[0]!.subject).toBe("Tu recibo: The Guide");
  });

  it("claims a free product in the claimer's language", async () => {
    const product = await createProduct(
      t,
      plain.cookie,
      { price: "0", title: "Free Zine" },
      { cover: false },
    );
    const email = newEmail("pt");
    const claimed = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: product.id, email },
      headers: { "accept-language": "pt-PT,pt;q=0.9" },
    });
    expect(claimed.statusCode, claimed.body).toBe(202);
    const order = await t.db
      .selectFrom("orders")
      .select("buyer_locale")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect(order.buyer_locale).toBe("pt-BR");
    const [receipt] = await emailsTo(email);
    expect(receipt!.subject).toBe("Seu recibo: Free Zine");
    expect(receipt!.html).toContain('<html lang="pt-BR">');
    // A free order never went through Stripe.
    expect(receipt!.text).toContain("Seu e-mail foi compartilhado com");
    expect(receipt!.text).not.toContain("Stripe");
  });

  it("stays English, word for word, when the request names none of our languages", async () => {
    const product = await createProduct(t, taxed.cookie, {}, { cover: false });
    for (const headers of [{}, { "accept-language": "it-IT,it;q=0.9" }] as Record<string, string>[]) {
      const email = newEmail("en");
      const { sessionId, order } = await buy(
        product.id,
        email,
        { ...headers, "cf-ipcountry": "DE" },
        GERMAN_BUYER,
      );
      // Stripe's Checkout picks from the browser (it speaks Italian, we don't); the order is English.
      const session = await sessionOf(sessionId, taxed.account);
      expect(session.locale).toBe("auto");
      expect(session.custom_text.terms_of_service_acceptance?.message).toBe(WITHDRAWAL_WAIVER_TEXT);
      expect(order.buyer_locale).toBe("en");
      const [receipt] = await emailsTo(email);
      expect(receipt!.subject).toBe("Your receipt: The Guide");
      expect(receipt!.html).toContain('<html lang="en">');
      expect(receipt!.text).toContain(
        `Amount paid: $23.79 on ${dayIn("en", order.created_at)}. Order ${order.id}.`,
      );
      expect(receipt!.text).toContain("Tax: $3.80 (VAT 19% (DE)), included in the amount paid.");
      expect(receipt!.text).toContain(`Before paying you agreed: “${WITHDRAWAL_WAIVER_TEXT}”`);
      expect(receipt!.text).toMatch(/^Download your file: /m);
      expect(
        receipt!.text.endsWith("Flatfee: sell digital products for a flat $10/month. We take 0% of sales."),
      ).toBe(true);
    }
  });
});

describe("a membership in the member's language", () => {
  it("welcomes a Japanese member in Japanese and sends every renewal's receipt in Japanese", async () => {
    const files = [
      { uploadId: await upload(t, plain.cookie, "product-file", "lesson.pdf", minimalPdf(405)) },
    ];
    const created = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: plain.cookie,
      body: { kind: "membership", title: "The Club", files, tiers: [{ name: "Fan", monthlyPrice: "5" }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json() as { id: string; tiers: { id: string }[] };
    const email = newEmail("ja");
    const response = await t.request({
      method: "POST",
      url: "/api/checkout/subscribe",
      body: { productId: product.id, tierId: product.tiers[0]!.id, interval: "month" },
      headers: { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = sessionIdOf(response.json().url);
    expect((await sessionOf(sessionId, plain.account)).locale).toBe("ja");
    await control(t.emulator).payCheckoutAs(sessionId, { email });

    const membershipOf = () =>
      t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();
    const ordersOf = (membershipId: string) =>
      t.db
        .selectFrom("orders")
        .selectAll()
        .where("membership_id", "=", membershipId)
        .orderBy("created_at")
        .execute();
    await eventually(async () => expect((await membershipOf())?.status).toBe("active"));
    const membership = (await membershipOf())!;
    expect(membership.buyer_locale).toBe("ja");
    await eventually(async () => expect(await emailsTo(email)).toHaveLength(2));
    const [welcome, firstReceipt] = await emailsTo(email);
    expect(welcome!.subject).toBe("The Clubへようこそ");
    expect(welcome!.html).toContain('<html lang="ja">');
    expect(welcome!.text).toContain(
      `月額$5.00。${dayIn("ja", membership.current_period_end)}に自動更新され、解約するまで継続します。`,
    );
    expect(dayIn("ja", membership.current_period_end)).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    expect(firstReceipt!.subject).toBe("領収書：The Club");

    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    let orders: Awaited<ReturnType<typeof ordersOf>> = [];
    await eventually(async () => {
      orders = await ordersOf(membership.id);
      expect(orders).toHaveLength(2);
    });
    expect(orders.map((order) => order.buyer_locale)).toEqual(["ja", "ja"]);
    await eventually(async () => expect(await emailsTo(email)).toHaveLength(3));
    const renewal = (await emailsTo(email))[2]!;
    const renewed = orders[1]!;
    expect(renewal.subject).toBe("領収書：The Club");
    expect(renewal.html).toContain('<html lang="ja">');
    expect(renewal.text).toContain(
      `お支払い額：$5.00（${dayIn("ja", renewed.period_start!)}〜${dayIn("ja", renewed.period_end!)}分）。注文番号 ${renewed.id}。`,
    );
    expect(renewal.text).toMatch(/^請求書（PDF）：http:\/\/localhost:3000\//m);
    expect(renewal.text).toContain("Flatfee：月額10ドルの定額でデジタル商品を販売。");
  });
});

async function storeName(sellerId: string) {
  const profile = await t.db
    .selectFrom("profiles")
    .select("store_name")
    .where("id", "=", sellerId)
    .executeTakeFirstOrThrow();
  return profile.store_name ?? STORE_FALLBACK_NAME;
}
