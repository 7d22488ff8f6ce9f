import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/test-app";

// Buyers' pages in their language (docs/i18n.md): Accept-Language picks it, the switcher's ?lang=
// overrides it and a cookie remembers that choice. The not-found pages are the first translated.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
      expect(switcher).toContain(`href="?lang=${tag}" lang="${tag}" hrefLang="${tag}"`);
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
