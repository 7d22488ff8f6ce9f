import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { buyerLocale, requestedLocale } from "./buyer-locale";

const request = (query: Record<string, unknown>, headers: Record<string, string> = {}, protocol = "http") =>
  ({ query, headers, protocol }) as unknown as FastifyRequest;

/** A reply that records every header set on it, in order. */
function reply() {
  const set: [string, string][] = [];
  const fake = {
    header(name: string, value: string) {
      set.push([name, value]);
      return fake;
    },
  };
  return { reply: fake as unknown as FastifyReply, set };
}

describe("a buyer's language", () => {
  it("takes ?lang=, then the cookie, then Accept-Language, then English", () => {
    const headers = { cookie: "lang=de", "accept-language": "ja" };
    expect(buyerLocale(request({ lang: "fr" }, headers), reply().reply)).toBe("fr");
    expect(buyerLocale(request({ lang: "xx" }, headers), reply().reply)).toBe("de");
    expect(buyerLocale(request({}, { "accept-language": "ja-JP,ja;q=0.9" }), reply().reply)).toBe("ja");
    expect(buyerLocale(request({}, { "accept-language": "it" }), reply().reply)).toBe("en");
    expect(buyerLocale(request({ lang: ["fr"] }), reply().reply)).toBe("en");
  });

  it("remembers a valid ?lang= for a year (Secure over https), says what it varies by, and nothing else", () => {
    const chosen = reply();
    buyerLocale(request({ lang: "pt" }), chosen.reply);
    expect(chosen.set).toEqual([
      ["set-cookie", "lang=pt-BR; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"],
      ["vary", "Accept-Language, Cookie"],
    ]);

    const secure = reply();
    buyerLocale(request({ lang: "de" }, {}, "https"), secure.reply);
    expect(secure.set[0]).toEqual([
      "set-cookie",
      "lang=de; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure",
    ]);

    const unknown = reply();
    buyerLocale(request({ lang: "xx" }, { cookie: "lang=fr" }), unknown.reply);
    expect(unknown.set).toEqual([["vary", "Accept-Language, Cookie"]]);
  });

  it("answers the same request once: asked again, the same language and no header set twice", () => {
    const asked = request({ lang: "ja" });
    const first = reply();
    expect(buyerLocale(asked, first.reply)).toBe("ja");
    const again = reply();
    expect(buyerLocale(asked, again.reply)).toBe("ja");
    expect(first.set).toHaveLength(2);
    expect(again.set).toEqual([]);
  });

  it("a buyer's action names the same language, or none when the request names none we speak", () => {
    const headers = { cookie: "lang=de", "accept-language": "ja" };
    expect(requestedLocale(request({ lang: "fr" }, headers))).toBe("fr");
    expect(requestedLocale(request({ lang: "xx" }, headers))).toBe("de");
    expect(requestedLocale(request({}, { "accept-language": "ja" }))).toBe("ja");
    expect(requestedLocale(request({}, { "accept-language": "it" }))).toBeUndefined();
  });
});
