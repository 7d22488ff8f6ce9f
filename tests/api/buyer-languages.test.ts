import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../src/contracts/discounts";
import { unsubscribeKey, unsubscribeToken } from "../../src/server/features/audience/unsubscribe";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Buyers' pages in their language (docs/i18n.md): Accept-Language picks it, the switcher's ?lang=
// overrides it and a cookie remembers that choice. Every buyer page is translated; kept pages are kept
// per language.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // Listening: the emulator's webhooks make the orders the success and download pages show.
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  const saved = await t.request({
    method: "PUT",
    url: "/api/store-settings",
    cookie: seller.cookie,
    body: { storeName: "Atelier Nord" },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers });

describe("the buyer's language", () => {
  it("answers in the browser's language, says so in <html lang>, and varies by it", async () => {
    const german = await page("/product/doesnotexist", { "accept-language": "de-DE,de;q=0.9,en;q=0.8" });
    expect(german.statusCode).toBe(404);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toMatch(/<h1[^>]*>Produkt nicht gefunden<\/h1>/);
    expect(german.body).toContain("<title>Produkt nicht gefunden · Flatfee</title>");
    expect(german.body).toMatch(/<a [^>]*href="\/"[^>]*>Zur Startseite<\/a>/);
    expect(german.headers.vary).toContain("Accept-Language");
    expect(german.headers["set-cookie"]).toBeUndefined();

    const japanese = await page("/store/nobody-here", { "accept-language": "ja-JP" });
    expect(japanese.body).toContain('<html lang="ja">');
    expect(japanese.body).toContain("ストアが見つかりません");

    // A language we don't speak falls back to English, the spec's words.
    const italian = await page("/product/doesnotexist", { "accept-language": "it-IT,it;q=0.9" });
    expect(italian.body).toContain('<html lang="en">');
    expect(italian.body).toMatch(/<h1[^>]*>Product not found<\/h1>/);
  });

  it("takes the switcher's choice over the browser's, remembers it in a cookie, and marks it in the switcher", async () => {
    const chosen = await page("/store/nobody-here?lang=fr", { "accept-language": "de-DE" });
    expect(chosen.body).toContain('<html lang="fr">');
    expect(chosen.body).toContain("Boutique introuvable");
    const cookie = String(chosen.headers["set-cookie"]);
    expect(cookie).toMatch(/^lang=fr; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/);

    // The switcher: plain links to every other language, the current one marked.
    const switcher = chosen.body.match(/<nav aria-label="Langue">[\s\S]*?<\/nav>/)?.[0] ?? "";
    expect(switcher).toContain('<span aria-current="true" lang="fr"');
    for (const [tag, name] of [
      ["en", "English"],
      ["es", "Español"],
      ["de", "Deutsch"],
      ["pt-BR", "Português (Brasil)"],
      ["ja", "日本語"],
    ]) {
      // The page's own address with the language: a form's answer is shown at the form's address.
      expect(switcher).toContain(`href="/store/nobody-here?lang=${tag}" lang="${tag}" hrefLang="${tag}"`);
      expect(switcher).toContain(`>${name}</a>`);
    }

    const later = await page("/store/nobody-here", { "accept-language": "de-DE", cookie: "lang=fr" });
    expect(later.body).toContain("Boutique introuvable");
    // An unknown choice changes nothing and is not remembered.
    const unknown = await page("/store/nobody-here?lang=xx", { "accept-language": "es" });
    expect(unknown.body).toContain("Tienda no encontrada");
    expect(unknown.headers["set-cookie"]).toBeUndefined();
  });
});

/** Intl writes a no-break space between an amount and its currency in most languages. */
const plain = (html: string) => html.replace(/\u00a0/g, " ");
const GERMAN = { "accept-language": "de-DE,de;q=0.9,en;q=0.8" };

describe("the product page in the buyer's language", () => {
  it("speaks German to a German browser: its words, its prices, <html lang> and the other languages' addresses", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Tuschestudien", price: "19.99" });
    const response = await page(`/product/${product.id}`, GERMAN);
    expect(response.statusCode).toBe(200);
    const html = plain(response.body);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("<title>Tuschestudien · 19,99 $ · Flatfee</title>");
    expect(html).toContain("Tuschestudien</h1>"); // the creator's own words stay as written
    expect(html).toMatch(/tabular-nums">19,99 \$<\/span>/);
    expect(html).toMatch(/<button [^>]*type="submit"[^>]*>Jetzt kaufen<\/button>/);
    expect(html).toContain('data-buy-now="Weiterleitung zur Kasse …"');
    for (const words of [
      "Verkauft von",
      "Haben Sie einen Rabattcode?",
      "Sofortiger Download nach der Zahlung.",
      "Sichere Kartenzahlung über Stripe.",
      "Jeder Download-Link läuft nach 24 Stunden ab.",
      "Sie können jede Datei innerhalb von 30 Tagen nach dem Kauf bis zu 3-mal herunterladen.",
      "Download-Link erneut senden",
      'alt="Titelbild von Tuschestudien"',
    ]) {
      expect(html).toContain(words);
    }
    expect(html).not.toContain("Buy Now");
    expect(html).not.toContain("$19.99");

    // hreflang: every language's address, and x-default without a choice.
    for (const locale of ["en", "es", "de", "fr", "pt-BR", "ja"]) {
      expect(html).toContain(
        `<link rel="alternate" hreflang="${locale}" href="${APP_URL}/product/${product.id}?lang=${locale}" />`,
      );
    }
    expect(html).toContain(
      `<link rel="alternate" hreflang="x-default" href="${APP_URL}/product/${product.id}" />`,
    );
    // The switcher is on, at the product's address.
    const switcher = html.match(/<nav aria-label="Sprache">[\s\S]*?<\/nav>/)?.[0] ?? "";
    expect(switcher).toContain('<span aria-current="true" lang="de"');
    expect(switcher).toContain(`href="/product/${product.id}?lang=ja"`);
    expect(response.headers.vary).toMatch(/Accept-Language, Cookie/);

    // English is still the spec's words, with the same links.
    const english = await page(`/product/${product.id}`, { "accept-language": "en-US" });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain("$19.99");
    expect(english.body).toMatch(/>Buy Now<\/button>/);
    expect(english.body).toContain("Instant download after payment.");
    expect(english.body).toContain(`hreflang="x-default" href="${APP_URL}/product/${product.id}"`);
  });

  it("keeps a page per language, each with its own ETag, and a product's change drops every language", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Kept Twice", price: "5" },
      { cover: false },
    );
    const german = await page(`/product/${product.id}`, GERMAN);
    const english = await page(`/product/${product.id}`, { "accept-language": "en" });
    expect(german.body).not.toBe(english.body);
    expect(german.headers.etag).not.toBe(english.headers.etag);
    expect(german.body).toContain("Jetzt kaufen");
    expect(english.body).toContain("Buy Now");
    // Each is kept: the same tag again, and a 304 for a browser holding its own language's tag.
    expect((await page(`/product/${product.id}`, GERMAN)).headers.etag).toBe(german.headers.etag);
    const revalidated = await page(`/product/${product.id}`, {
      ...GERMAN,
      "if-none-match": String(german.headers.etag),
    });
    expect(revalidated.statusCode).toBe(304);
    // …but not for the other language's tag.
    const otherTag = await page(`/product/${product.id}`, {
      "accept-language": "en",
      "if-none-match": String(german.headers.etag),
    });
    expect(otherTag.statusCode).toBe(200);

    // Behind the app's back nothing is announced: both languages' kept pages still show the old title.
    await t.db
      .updateTable("products")
      .set({ title: "Quietly Renamed" })
      .where("id", "=", product.id)
      .execute();
    expect((await page(`/product/${product.id}`, GERMAN)).body).toContain("Kept Twice</h1>");
    expect((await page(`/product/${product.id}`, { "accept-language": "en" })).body).toContain(
      "Kept Twice</h1>",
    );

    // The seller's edit is announced: every language's page is dropped at once.
    const edited = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { title: "Edited Everywhere" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await eventually(async () => {
      expect((await page(`/product/${product.id}`, GERMAN)).body).toContain("Edited Everywhere</h1>");
      expect((await page(`/product/${product.id}`, { "accept-language": "en" })).body).toContain(
        "Edited Everywhere</h1>",
      );
    }, 2_000);
    expect((await page(`/product/${product.id}`, GERMAN)).headers.etag).not.toBe(german.headers.etag);
  });

  it("takes ?lang=ja, remembers it, and keeps a page's ?code= in the switcher's links", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Brush Set", price: "12" },
      { cover: false },
    );
    const chosen = await page(`/product/${product.id}?lang=ja`, GERMAN);
    expect(chosen.body).toContain('<html lang="ja">');
    expect(chosen.body).toContain("今すぐ購入");
    expect(chosen.body).toContain("$12.00");
    expect(String(chosen.headers["set-cookie"])).toMatch(/^lang=ja; Path=\/; Max-Age=31536000; HttpOnly/);

    // A code that does not exist: the refusal in the page's language (the API keeps it in English).
    const coded = await page(`/product/${product.id}?code=NOPE42`, { ...GERMAN, cookie: "lang=fr" });
    expect(coded.statusCode).toBe(200);
    const html = plain(coded.body);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(
      "Ce code de réduction n&#x27;existe pas. Vérifiez l&#x27;orthographe et réessayez. Le prix normal s&#x27;applique.",
    );
    expect(html).toContain(`href="/product/${product.id}?code=NOPE42&amp;lang=de"`);
    const price = await t.request({
      method: "GET",
      url: `/api/products/${product.id}/price?code=NOPE42`,
      headers: GERMAN,
    });
    expect(price.statusCode, price.body).toBe(200);
    expect(price.json().refusal.message).toBe(DISCOUNT_REFUSAL_MESSAGES.unknown);
  });

  it("answers a form in the buyer's language: the problem at its field", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Free Sketches", price: "0" },
      { cover: false },
    );
    const answered = await t.request({
      method: "POST",
      url: `/product/${product.id}/free`,
      body: new URLSearchParams({ email: "not an email" }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        "accept-language": "fr-FR",
      },
    });
    expect(answered.statusCode).toBe(400);
    expect(answered.body).toContain('<html lang="fr">');
    expect(answered.body).toContain("Veuillez saisir une adresse e-mail valide");
    expect(answered.body).toContain("Recevoir le téléchargement par e-mail");
    // The switcher leads to the product's page, which a GET serves (not the form's address).
    expect(answered.body).toContain(`href="/product/${product.id}?lang=en"`);
  });
});

describe("the store page in the buyer's language", () => {
  it("speaks Japanese, kept apart from the other languages", async () => {
    await createProduct(t, seller.cookie, { title: "Ink Pack", price: "19.99" }, { cover: false });
    const japanese = await page(`/store/${seller.userId}`, { "accept-language": "ja-JP,ja;q=0.9" });
    expect(japanese.statusCode).toBe(200);
    expect(japanese.body).toContain('<html lang="ja">');
    expect(japanese.body).toContain("Atelier Nord</h1>");
    expect(japanese.body).toContain("詳細を見る");
    expect(japanese.body).toContain('aria-label="Ink Packの詳細を見る"');
    expect(japanese.body).toContain('<section aria-label="商品"');
    expect(japanese.body).toContain("$19.99");
    expect(japanese.body).toContain(
      `<link rel="alternate" hreflang="ja" href="${APP_URL}/store/${seller.userId}?lang=ja" />`,
    );
    expect(japanese.body).toContain('<nav aria-label="言語">');
    const english = await page(`/store/${seller.userId}`);
    expect(english.body).toContain("View Details");
    expect(english.headers.etag).not.toBe(japanese.headers.etag);
  });
});

describe("the buyer's pages after paying, in Spanish", () => {
  it("the success and download pages: thanks, facts, download buttons and rules", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Cuadernos", price: "19.99" });
    const checkout = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "lucia@example.com");
    const spanish = { "accept-language": "es-ES,es;q=0.9" };

    let success = await page(`/success?session_id=${sessionId}`, spanish);
    await eventually(async () => {
      success = await page(`/success?session_id=${sessionId}`, spanish);
      expect(success.body).toContain("¡Gracias por tu compra!");
    });
    const html = plain(success.body);
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("<title>Pago completado · Flatfee</title>");
    for (const words of [
      "Importe pagado",
      "19,99 US$",
      "Recibo enviado a",
      "Fecha de compra",
      "Descarga tu archivo",
      "Quedan 3 de 3 descargas",
      "Cada enlace de descarga caduca en 24 horas.",
      "Enviamos a <span",
    ]) {
      expect(html).toContain(words);
    }
    // The switcher keeps the session, not the page's count of looks.
    expect(html).toContain(`href="/success?session_id=${sessionId}&amp;lang=de"`);

    const downloadPath = /<form action="(\/download\/[^"]+)" method="post">/.exec(success.body)?.[1];
    expect(downloadPath, success.body).toBeDefined();
    const download = await page(downloadPath!, spanish);
    expect(download.statusCode).toBe(200);
    const downloadHtml = plain(download.body);
    expect(downloadHtml).toContain("<title>Tu descarga · Flatfee</title>");
    expect(downloadHtml).toContain("Cada clic cuenta como una descarga.");
    expect(downloadHtml).toMatch(/<button [^>]*type="submit"[^>]*><svg[^>]*>.*?<\/svg>Descargar<\/button>/);
    expect(downloadHtml).toMatch(
      /Puedes descargar cada archivo hasta 3 veces hasta el \d{1,2} [a-z]{3,4}\.? \d{4}\./,
    );
    expect(downloadHtml).toContain(`href="${downloadPath}?lang=en"`);
  });

  it("the unsubscribe page asks in the buyer's language", async () => {
    const token = unsubscribeToken(
      unsubscribeKey("test-secret-test-secret-test-secret-0123"), // the test app's auth secret
      seller.userId,
      "pedro@example.com",
    );
    const asked = await page(`/unsubscribe/${token}`, { "accept-language": "pt-BR" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.body).toContain('<html lang="pt-BR">');
    expect(asked.body).toContain("Cancelar a inscrição nos e-mails de Atelier Nord?");
    expect(asked.body).toContain("<title>Cancelar inscrição · Flatfee</title>");
  });
});

describe("the library's language", () => {
  it("is negotiated by the library's API like every buyer page's, and a ?lang= is remembered", async () => {
    const free = await createProduct(
      t,
      seller.cookie,
      { title: "Carnet de croquis", price: "0" },
      { cover: false },
    );
    const email = `library-${Date.now()}@example.com`;
    const claimed = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: free.id, email },
    });
    expect(claimed.statusCode, claimed.body).toBe(202);
    const mails = () =>
      t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", email).execute();
    await eventually(async () => expect(await mails()).toHaveLength(1));
    const [receipt] = await mails();
    const token = new URL(/\/library\?token=[^\s)"]+/.exec(receipt!.text)![0], APP_URL).searchParams.get(
      "token",
    )!;
    const library = (query = "", headers: Record<string, string> = {}) =>
      page(`/api/library?token=${encodeURIComponent(token)}${query}`, headers);

    // Nothing said: English, the library as it always was.
    const plain = await library();
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).toMatchObject({ email, locale: "en" });
    expect(plain.headers.vary).toContain("Accept-Language");

    // The browser's language.
    const german = await library("", { "accept-language": "de-DE,de;q=0.9,en;q=0.8" });
    expect(german.json().locale).toBe("de");
    expect(german.headers["set-cookie"]).toBeUndefined();

    // The switcher's choice wins, and the server remembers it as for the pages it renders.
    const chosen = await library("&lang=ja", { "accept-language": "de-DE" });
    expect(chosen.json().locale).toBe("ja");
    const cookie = String(chosen.headers["set-cookie"]);
    expect(cookie).toMatch(/^lang=ja; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/);

    // The remembered choice wins over Accept-Language; a language we don't speak is ignored.
    const remembered = await library("", { "accept-language": "de-DE", cookie: "lang=ja" });
    expect(remembered.json().locale).toBe("ja");
    expect((await library("&lang=xx", { "accept-language": "fr-FR" })).json().locale).toBe("fr");

    // A signed-in buyer's library (/api/library/me) answers its language too, or refuses in English.
    const signedOut = await page("/api/library/me?lang=es");
    expect(signedOut.statusCode).toBe(401);
    expect(String(signedOut.headers["set-cookie"])).toMatch(/^lang=es;/);
  });
});
