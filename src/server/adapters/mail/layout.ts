import { DEFAULT_LOCALE, type Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";

/** One look for every email we send: a card with a heading, paragraphs, an optional button, a footer. */
export interface EmailContent {
  /**
   * The reader's language (docs/i18n.md, "Emails"): `<html lang>` and the layout's own words. The
   * caller writes the rest in it; sellers' emails (accounts, billing) are English, the default.
   */
  locale?: Locale;
  preheader: string;
  heading: string;
  paragraphs: string[];
  button?: { label: string; url: string };
  /** Further links, each on its own line (never a URL inside a sentence, where a period would stick to it). */
  links?: Array<{ label: string; url: string }>;
  /** Shown under the button, e.g. the link spelled out or how long it is valid. */
  note?: string;
  /** http(s) addresses in the paragraphs become links (a seller's own message); the rest stays escaped text. */
  linkify?: boolean;
  /**
   * A block of formatted text after the paragraphs: HTML made by our own escaping renderer (a post's
   * markup, contracts/post-markup.ts), never text a person typed, and its plain-text version.
   */
  richBody?: { html: string; text: string };
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** An address ends before trailing punctuation, which belongs to the sentence ("see https://x.io."). */
const URL_PATTERN = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'*]/g;

/** Escaped text whose http(s) addresses are links. */
export function linkifiedHtml(text: string): string {
  let html = "";
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    html += `${escapeHtml(text.slice(last, match.index))}<a href="${escapeHtml(url)}" style="color:#4f46e5">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

export function renderEmail(content: EmailContent): { html: string; text: string } {
  const { t, locale } = translator(content.locale ?? DEFAULT_LOCALE);
  const footer = t("email.layout.footer");
  const paragraphs = content.paragraphs
    .map(
      (p) =>
        `<p style="margin:0 0 16px;font-size:15px;line-height:24px;color:#334155;overflow-wrap:anywhere;word-break:break-word">${content.linkify ? linkifiedHtml(p) : escapeHtml(p)}</p>`,
    )
    .join("");
  const richBody = content.richBody
    ? `<div style="margin:0 0 16px;font-size:15px;line-height:24px;color:#334155;overflow-wrap:anywhere;word-break:break-word">${content.richBody.html}</div>`
    : "";
  const button = content.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.button.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:12px 22px;border-radius:8px">${escapeHtml(content.button.label)}</a></p>
       <p style="margin:0 0 16px;font-size:12px;line-height:18px;color:#64748b;word-break:break-all">${escapeHtml(t("email.layout.pasteLink", { url: content.button.url }))}</p>`
    : "";
  const links = (content.links ?? [])
    .map(
      (link) =>
        `<p style="margin:0 0 12px;font-size:14px;line-height:22px"><a href="${escapeHtml(link.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(link.label)}</a></p>`,
    )
    .join("");
  const note = content.note
    ? `<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#64748b">${escapeHtml(content.note)}</p>`
    : "";
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<span style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
<tr><td style="padding:0 8px 16px;font-weight:700;font-size:18px;color:#0f172a">Flatfee</td></tr>
<tr><td style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:32px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:#0f172a;overflow-wrap:anywhere;word-break:break-word">${escapeHtml(content.heading)}</h1>
${paragraphs}${richBody}${button}${links}${note}
</td></tr>
<tr><td style="padding:16px 8px;font-size:12px;line-height:18px;color:#475569">${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.richBody ? [content.richBody.text, ""] : []),
    ...(content.button ? [t("email.layout.textLink", content.button), ""] : []),
    ...(content.links ?? []).flatMap((link) => [t("email.layout.textLink", link), ""]),
    ...(content.note ? [content.note, ""] : []),
    footer,
  ].join("\n");
  return { html, text };
}
