import { describe, expect, it } from "vitest";
import { postEmail } from "./post-email";

describe("a post's email", () => {
  const content = {
    title: "Lesson 4",
    body: "**Hallo** everyone",
    productTitle: "The Club",
    sellerName: "Ana",
    attachmentNames: ["notes.pdf", "drill.mp3"],
  };
  const links = { to: "m@example.com", unsubscribeUrl: "https://app/u", libraryUrl: "https://app/l" };

  it("frames the creator's post in the member's language, the post itself as written", () => {
    const german = postEmail(content, { ...links, locale: "de" });
    expect(german.subject).toBe("The Club: Lesson 4");
    expect(german.html).toContain('<html lang="de">');
    expect(german.html).toContain("<strong>Hallo</strong> everyone");
    expect(german.text).toContain(
      "2 Dateien angehängt: notes.pdf, drill.mp3. Laden Sie sie in Ihrer Bibliothek herunter.",
    );
    expect(german.text).toContain("In Ihrer Bibliothek öffnen: https://app/l");
    expect(german.text).toContain("E-Mails von Ana abbestellen: https://app/u");
  });

  it("says it in English as the spec does", () => {
    const english = postEmail({ ...content, attachmentNames: ["notes.pdf"] }, { ...links, locale: "en" });
    expect(english.html).toContain('<html lang="en">');
    expect(english.text).toContain("1 file attached: notes.pdf. Download it from your library.");
    expect(english.text).toContain("Open in your library: https://app/l");
    expect(english.text).toContain(
      'Ana posted this for members of The Club. To stop post emails only, turn off "Email me new posts" in your library.',
    );
  });
});
