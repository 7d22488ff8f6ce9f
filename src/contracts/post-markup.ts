/**
 * The posts' markup: a small, Markdown-like subset a creator writes in a plain text field, rendered to
 * HTML by this file alone (the server for the library and the emails, the composer for its preview).
 *
 * - A blank line starts a new paragraph; a single line break stays a line break.
 * - `## Heading` (one to three #) is a heading.
 * - Lines starting with `- ` or `* ` make a bulleted list, `1. ` (or `1) `) a numbered one.
 * - `**bold**`, `*italic*`, `[text](https://…)`; a bare http(s) address becomes a link.
 * - `\` before a character shows it as typed (`\*` is a star).
 *
 * Nothing else is markup: every other character is escaped, so HTML in a post shows as text. Links go
 * only to http(s) and mailto addresses (anything else, `javascript:` say, stays text), and carry
 * rel="noopener nofollow" and open in a new tab. The output uses only p, br, h3, ul, ol, li, strong, em
 * and a; inline styles come only from the caller (an email's look), never from the text.
 *
 * Every step is linear in the text (the delimiters' closings are searched once per level, nesting is
 * at most 3 deep): a 50,000-character post renders in milliseconds, however it is written.
 */

/** Inline styles per element, for HTML whose stylesheet cannot be counted on (an email). */
export type MarkupStyles = Partial<Record<"p" | "h3" | "ul" | "ol" | "li" | "a", string>>;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** The address a link may point to, or null: only http(s) and mailto, and only a well-formed one. */
export function safeLinkUrl(raw: string): string | null {
  const text = raw.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(text)) return null;
  try {
    const url = new URL(text);
    if (!["http:", "https:", "mailto:"].includes(url.protocol)) return null;
    return url.href;
  } catch {
    return null;
  }
}

const MAX_DEPTH = 3;
/** A link's text and address have bounded lengths, so trying one at every `[` stays cheap. */
const LINK = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/y;
/** An address ends before trailing punctuation, which belongs to the sentence ("see https://x.io."). */
const BARE_URL = /https?:\/\/[^\s<>"'()[\]]*[^\s<>"'()[\].,;:!?*]/y;
const ESCAPABLE = "\\*_[]()#-.`>!+";

type Allowed = { strong: boolean; em: boolean; links: boolean };

interface InlineContext {
  styles: MarkupStyles;
  depth: number;
}

const styleAttr = (style: string | undefined) => (style ? ` style="${escapeHtml(style)}"` : "");

function anchor(href: string, innerHtml: string, context: InlineContext): string {
  return `<a href="${escapeHtml(href)}" rel="noopener nofollow" target="_blank"${styleAttr(context.styles.a)}>${innerHtml}</a>`;
}

/**
 * The next index of `needle` at or after `from`, remembering the last answer: scanning left to right,
 * each level searches every stretch of its text once (`from` only grows).
 */
function closingFinder(text: string, needle: string) {
  let found = -2;
  return (from: number): number => {
    if (found === -1) return -1;
    if (found >= from) return found;
    found = text.indexOf(needle, from);
    return found;
  };
}

function inline(text: string, allowed: Allowed, context: InlineContext): string {
  const nextDouble = closingFinder(text, "**");
  const nextSingle = closingFinder(text, "*");
  const nextLinkMiddle = closingFinder(text, "](");
  const deeper = { ...context, depth: context.depth + 1 };
  const canNest = context.depth < MAX_DEPTH;
  let html = "";
  let plain = "";
  const flush = () => {
    html += escapeHtml(plain);
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === "\\" && i + 1 < text.length && ESCAPABLE.includes(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === "*" && text[i + 1] === "*" && allowed.strong && canNest && /\S/.test(text[i + 2] ?? "")) {
      let close = nextDouble(i + 2);
      // "***": the bold closes on the last two stars (the first closes an italic inside).
      while (close !== -1 && text[close + 2] === "*") close += 1;
      if (close > i + 2) {
        flush();
        html += `<strong>${inline(text.slice(i + 2, close), { ...allowed, strong: false }, deeper)}</strong>`;
        i = close + 2;
        continue;
      }
    }
    if (char === "*" && text[i + 1] !== "*" && allowed.em && canNest && /\S/.test(text[i + 1] ?? "")) {
      const close = nextSingle(i + 1);
      if (close > i + 1) {
        flush();
        html += `<em>${inline(text.slice(i + 1, close), { ...allowed, em: false }, deeper)}</em>`;
        i = close + 1;
        continue;
      }
    }
    const middle = char === "[" && allowed.links && canNest ? nextLinkMiddle(i + 1) : -1;
    if (middle > i && middle <= i + 501) {
      LINK.lastIndex = i;
      const match = LINK.exec(text);
      if (match) {
        flush();
        const label = inline(match[1]!, { ...allowed, links: false }, deeper);
        const href = safeLinkUrl(match[2]!);
        // A link to anywhere else (javascript:, data:) keeps its words and loses its address.
        html += href ? anchor(href, label, context) : label;
        i += match[0].length;
        continue;
      }
    }
    if ((char === "h" || char === "H") && allowed.links && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? "")) {
      BARE_URL.lastIndex = i;
      const match = BARE_URL.exec(text);
      const href = match && safeLinkUrl(match[0]);
      if (match && href) {
        flush();
        html += anchor(href, escapeHtml(match[0]), context);
        i += match[0].length;
        continue;
      }
    }
    plain += char;
    i += 1;
  }
  flush();
  return html;
}

type Block =
  | { kind: "p"; lines: string[] }
  | { kind: "h3"; text: string }
  | { kind: "ul" | "ol"; items: string[] };

const HEADING = /^#{1,3}[ \t]+(.*)$/;
const BULLET = /^[ \t]{0,3}[-*][ \t]+(.*)$/;
const NUMBERED = /^[ \t]{0,3}\d{1,9}[.)][ \t]+(.*)$/;

/** The text's blocks: paragraphs, headings and lists, line by line. */
export function markupBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const rawLine of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trimEnd();
    if (line.trim() === "") {
      close();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      blocks.push({ kind: "h3", text: heading[1]!.trim() });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const kind = bullet ? "ul" : numbered ? "ol" : "p";
    const text = (bullet ?? numbered)?.[1] ?? line.trim();
    const open = current as Block | null;
    if (kind === "p") {
      if (open?.kind === "p") open.lines.push(text);
      else {
        close();
        current = { kind: "p", lines: [text] };
      }
    } else if (open?.kind === kind) open.items.push(text);
    else {
      close();
      current = { kind, items: [text] };
    }
  }
  close();
  return blocks;
}

const ALL: Allowed = { strong: true, em: true, links: true };

/** A post's markup as HTML (see the top of this file): everything not markup is escaped text. */
export function renderPostMarkup(source: string, styles: MarkupStyles = {}): string {
  const context: InlineContext = { styles, depth: 0 };
  return markupBlocks(source)
    .map((block) => {
      if (block.kind === "h3") return `<h3${styleAttr(styles.h3)}>${inline(block.text, ALL, context)}</h3>`;
      if (block.kind === "p") {
        const lines = block.lines.map((line) => inline(line, ALL, context));
        return `<p${styleAttr(styles.p)}>${lines.join("<br>")}</p>`;
      }
      const items = block.items.map(
        (item) => `<li${styleAttr(styles.li)}>${inline(item, ALL, context)}</li>`,
      );
      return `<${block.kind}${styleAttr(styles[block.kind])}>${items.join("")}</${block.kind}>`;
    })
    .join("\n");
}

/**
 * A post's markup as plain text (an email's text part): as written, but for links shown as
 * "text (address)" and escapes undone.
 */
export function postMarkupText(source: string): string {
  return source
    .replace(/\r\n?/g, "\n")
    .replace(/\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/g, (_, label: string, url: string) =>
      safeLinkUrl(url) ? `${label} (${url})` : label,
    )
    .replace(/\\([\\*_[\]()#\-.`>!+])/g, "$1")
    .trim();
}

/** The first words of a post, as plain text (an email's preheader). */
export function postExcerpt(source: string, max = 140): string {
  const text = postMarkupText(source)
    .replace(/^#{1,3}[ \t]+/gm, "")
    .replace(/^[ \t]{0,3}([-*]|\d{1,9}[.)])[ \t]+/gm, "")
    .replace(/\*\*?/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
