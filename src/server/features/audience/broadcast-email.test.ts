import { describe, expect, it } from "vitest";
import { linkifiedHtml } from "../../adapters/mail/layout";
import { broadcastEmail, messageParagraphs } from "./broadcast-email";

describe("a seller's email", () => {
  it("makes http(s) addresses links, leaving trailing punctuation and everything else as escaped text", () => {
    expect(
      linkifiedHtml(
        'See https://a.io/x?y=1&z=2. Or (http://b.io), <script>"hi"</script> javascript:alert(1)',
      ),
    ).toBe(
      'See <a href="https://a.io/x?y=1&amp;z=2" style="color:#4f46e5">https://a.io/x?y=1&amp;z=2</a>. Or (<a href="http://b.io" style="color:#4f46e5">http://b.io</a>), &lt;script&gt;&quot;hi&quot;&lt;/script&gt; javascript:alert(1)',
    );
    // An address cannot break out of its attribute.
    expect(linkifiedHtml('https://a.io/"onmouseover="x')).toBe(
      '<a href="https://a.io/" style="color:#4f46e5">https://a.io/</a>&quot;onmouseover=&quot;x',
    );
  });

  it("keeps each line a paragraph and carries one-click unsubscribe headers", () => {
    expect(messageParagraphs("One\r\n\n  Two  \n")).toEqual(["One", "Two"]);
    const email = broadcastEmail(
      { kind: "product-update", subject: "New in Pack: <3 loops>", message: "Hi", sellerName: "Loops & Co" },
      {
        to: "b@example.com",
        unsubscribeUrl: "https://app/unsubscribe/t",
        libraryUrl: "https://app/library?token=l",
      },
    );
    expect(email.headers).toEqual({
      "List-Unsubscribe": "<https://app/unsubscribe/t>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(email.html).toContain("New in Pack: &lt;3 loops&gt;");
    expect(email.html).toContain('href="https://app/library?token=l"');
    expect(email.html).toContain("Unsubscribe from Loops &amp; Co's emails");
    expect(email.text).toContain("Unsubscribe from Loops & Co's emails: https://app/unsubscribe/t");
  });
});

describe("a seller's email in the buyer's language", () => {
  const content = {
    kind: "product-update" as const,
    subject: "New in Pack: 20 loops",
    message: "Hallo!",
    sellerName: "Loops & Co",
    productTitle: "Pack",
  };
  const links = { to: "b@example.com", unsubscribeUrl: "https://app/u", libraryUrl: "https://app/l" };

  it("frames the seller's words in German: the subject's frame, the button, the unsubscribe link and note", () => {
    const email = broadcastEmail(content, { ...links, locale: "de" });
    expect(email.subject).toBe("Neu in Pack: 20 loops");
    expect(email.html).toContain('<html lang="de">');
    expect(email.text).toContain("Hallo!");
    expect(email.text).toContain("Die neuen Dateien holen: https://app/l");
    expect(email.text).toContain("E-Mails von Loops & Co abbestellen: https://app/u");
    expect(email.text).toContain("Sie erhalten diese E-Mail, weil Sie bei Loops & Co gekauft haben.");
  });

  it("keeps English as the seller previews it, and a plain message's subject as written", () => {
    expect(broadcastEmail(content, links).subject).toBe("New in Pack: 20 loops");
    const message = broadcastEmail(
      { ...content, kind: "message", subject: "New in town", productTitle: null },
      { ...links, locale: "fr" },
    );
    expect(message.subject).toBe("New in town");
    expect(message.text).toContain("Se désabonner des e-mails de Loops & Co : https://app/u");
  });
});
