import { describe, expect, it } from "vitest";
import { postExcerpt, postMarkupText, renderPostMarkup, safeLinkUrl } from "./post-markup";

const LINK_ATTRS = 'rel="noopener nofollow" target="_blank"';

/** Every tag the renderer may write, with only the attributes it may write. */
const ALLOWED_TAG =
  /^<(?:\/?(?:p|br|h3|ul|ol|li|strong|em)|\/a|a href="[^"<>]*" rel="noopener nofollow" target="_blank")>/;

function onlyAllowedTags(html: string): boolean {
  for (let i = html.indexOf("<"); i !== -1; i = html.indexOf("<", i + 1)) {
    if (!ALLOWED_TAG.test(html.slice(i))) return false;
  }
  return true;
}

describe("the posts' markup", () => {
  it("renders paragraphs, line breaks, headings, lists, bold, italic and links", () => {
    const html = renderPostMarkup(
      [
        "## This month",
        "Hello **members**, this is *new*.",
        "Second line of the paragraph.",
        "",
        "- one",
        "- two with [a link](https://example.com/a?b=1&c=2)",
        "",
        "1. first",
        "2) second",
        "",
        "Mail me: [me](mailto:me@example.com) or see https://example.com/page.",
      ].join("\n"),
    );
    expect(html).toBe(
      [
        "<h3>This month</h3>",
        "<p>Hello <strong>members</strong>, this is <em>new</em>.<br>Second line of the paragraph.</p>",
        `<ul><li>one</li><li>two with <a href="https://example.com/a?b=1&amp;c=2" ${LINK_ATTRS}>a link</a></li></ul>`,
        "<ol><li>first</li><li>second</li></ol>",
        `<p>Mail me: <a href="mailto:me@example.com" ${LINK_ATTRS}>me</a> or see <a href="https://example.com/page" ${LINK_ATTRS}>https://example.com/page</a>.</p>`,
      ].join("\n"),
    );
  });

  it("nests emphasis inside bold and links, and shows escaped characters as typed", () => {
    expect(renderPostMarkup("**bold *and italic***")).toBe(
      "<p><strong>bold <em>and italic</em></strong></p>",
    );
    expect(renderPostMarkup("[**big** news](https://x.io)")).toBe(
      `<p><a href="https://x.io/" ${LINK_ATTRS}><strong>big</strong> news</a></p>`,
    );
    expect(renderPostMarkup("2 \\* 3 \\*\\*not bold\\*\\* \\[x\\](https://x.io)")).toBe(
      '<p>2 * 3 **not bold** [x](<a href="https://x.io/" rel="noopener nofollow" target="_blank">https://x.io</a>)</p>',
    );
    // A lone star or an unclosed one is text.
    expect(renderPostMarkup("5 * 4 = 20, *unclosed")).toBe("<p>5 * 4 = 20, *unclosed</p>");
    expect(renderPostMarkup("* not a list*item")).toBe("<ul><li>not a list*item</li></ul>");
  });

  describe("escapes everything else (XSS attempts)", () => {
    const attempts = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      "[click](javascript:alert(1))",
      "[click](JaVaScRiPt:alert(1))",
      "[click](  javascript:alert(1))",
      "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
      "[click](vbscript:msgbox(1))",
      '[x](https://a.com/"onmouseover="alert(1))',
      "[x](https://a.com/'onmouseover='alert)",
      "[<img src=x onerror=alert(1)>](https://a.com)",
      "https://example.com/<script>alert(1)</script>",
      'https://example.com/"onmouseover="alert(1)',
      "**<iframe src=javascript:alert(1)>**",
      "*<svg onload=alert(1)>*",
      "## <style>body{display:none}</style>",
      "- <object data=x>",
      "&lt;script&gt; stays text &amp; entities stay escaped",
      "javascript:alert(1) and java\u0000script:alert(1)",
      "<!-- comment --> <![CDATA[ x ]]> </p></li></ul>",
      "[x](https://a.com)<script>",
      "[a](http://x.com/?q=</a><script>alert(1)</script>)",
    ];
    for (const attempt of attempts) {
      it(`${JSON.stringify(attempt)}`, () => {
        const html = renderPostMarkup(attempt);
        expect(onlyAllowedTags(html), html).toBe(true);
        expect(html).not.toMatch(/<(script|img|iframe|svg|style|object)/i);
        expect(html).not.toMatch(/href="(?!https?:|mailto:)/i);
        expect(html).not.toMatch(/<[^>]*\son\w+=/i);
      });
    }

    it("keeps the words of a link to anywhere but http(s) or mailto, without the address", () => {
      expect(renderPostMarkup("[click](javascript:alert(1))")).toBe("<p>[click](javascript:alert(1))</p>");
      expect(renderPostMarkup("[click](javascript:alert)")).toBe("<p>click</p>");
      expect(renderPostMarkup("<b>hi</b> & 'you'")).toBe("<p>&lt;b&gt;hi&lt;/b&gt; &amp; &#39;you&#39;</p>");
    });

    it("only ever writes its own tags, whatever the text (random strings of markup characters)", () => {
      const alphabet = [
        "<",
        ">",
        '"',
        "'",
        "&",
        "*",
        "**",
        "[",
        "]",
        "(",
        ")",
        "\\",
        "\n",
        "\n\n",
        "# ",
        "- ",
        "1. ",
        "https://",
        "mailto:",
        "javascript:",
        "a",
        " ",
        "=",
        "on",
        "x.io",
        "/",
        "`",
      ];
      let seed = 42;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      for (let run = 0; run < 2000; run++) {
        let text = "";
        const length = 1 + Math.floor(random() * 40);
        for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
        const html = renderPostMarkup(text);
        expect(onlyAllowedTags(html), `${JSON.stringify(text)} → ${html}`).toBe(true);
      }
    });
  });

  it("puts a caller's inline styles on its elements, escaped", () => {
    expect(renderPostMarkup("hi [x](https://x.io)", { p: "margin:0", a: 'color:"red"' })).toBe(
      `<p style="margin:0">hi <a href="https://x.io/" ${LINK_ATTRS} style="color:&quot;red&quot;">x</a></p>`,
    );
  });

  it("renders the longest post in linear time, however it is written", () => {
    const patterns = ["*a", "**a", "[a", "[a](", "](", "\\", "https://a", "- *", "*[**"];
    for (const pattern of patterns) {
      const text = pattern.repeat(Math.ceil(50_000 / pattern.length)).slice(0, 50_000);
      const started = performance.now();
      const html = renderPostMarkup(text);
      expect(performance.now() - started, pattern).toBeLessThan(500);
      expect(onlyAllowedTags(html)).toBe(true);
    }
  });

  it("allows only well-formed http(s) and mailto addresses", () => {
    expect(safeLinkUrl("https://example.com")).toBe("https://example.com/");
    expect(safeLinkUrl("mailto:a@b.co")).toBe("mailto:a@b.co");
    expect(safeLinkUrl("javascript:alert(1)")).toBeNull();
    expect(safeLinkUrl("//evil.com")).toBeNull();
    expect(safeLinkUrl("ftp://x.io")).toBeNull();
    expect(safeLinkUrl("https://")).toBeNull();
  });

  it("reads as plain text in an email's text part, and gives a short excerpt", () => {
    const source = "## News\n\nHello **all**: see [the notes](https://x.io/n) and \\*this\\*.\n- one";
    expect(postMarkupText(source)).toBe(
      "## News\n\nHello **all**: see the notes (https://x.io/n) and *this*.\n- one",
    );
    expect(postExcerpt(source)).toBe("News Hello all: see the notes (https://x.io/n) and this. one");
    expect(postExcerpt("a".repeat(300), 10)).toBe("aaaaaaaaa…");
  });
});
