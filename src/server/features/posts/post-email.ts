import { translator } from "../../../contracts/i18n/translator";
import { escapeHtml, postExcerpt, postMarkupText, renderPostMarkup } from "../../../contracts/post-markup";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { type BuyerLinks, unsubscribeHeaders } from "../audience";

export interface PostEmailContent {
  title: string;
  /** The post's markup, as written. */
  body: string;
  productTitle: string;
  sellerName: string;
  attachmentNames: string[];
}

/** An email's look for the posts' markup: inline styles, since mail apps drop stylesheets. */
const EMAIL_STYLES = {
  p: "margin:0 0 16px",
  h3: "margin:24px 0 8px;font-size:17px;line-height:24px;color:#0f172a",
  ul: "margin:0 0 16px;padding-left:24px",
  ol: "margin:0 0 16px;padding-left:24px",
  li: "margin:0 0 4px",
  a: "color:#4f46e5",
};

export const postEmailSubject = (productTitle: string, title: string) => `${productTitle}: ${title}`;

/**
 * One member's copy of a post: the post (its markup rendered and escaped by contracts/post-markup.ts),
 * the way to it in their library (and its files, which are downloaded there), and the seller's
 * unsubscribe link, also as List-Unsubscribe headers (one click), as every email a seller sends buyers.
 * The frame speaks the member's language (`links.locale`); the creator's post is as they wrote it.
 */
export function postEmail(content: PostEmailContent, links: BuyerLinks): OutgoingEmail {
  const { t } = translator(links.locale);
  const seller = content.sellerName;
  const files =
    content.attachmentNames.length > 0
      ? [
          t("email.post.files", {
            count: content.attachmentNames.length,
            names: content.attachmentNames.join(", "),
          }),
        ]
      : [];
  return {
    to: links.to,
    subject: postEmailSubject(content.productTitle, content.title),
    headers: unsubscribeHeaders(links.unsubscribeUrl),
    ...renderEmail({
      locale: links.locale,
      preheader: postExcerpt(content.body) || content.title,
      heading: content.title,
      paragraphs: [],
      richBody: {
        html: `${renderPostMarkup(content.body, EMAIL_STYLES)}${files.map((line) => `<p style="margin:0 0 16px;color:#64748b">${escapeHtml(line)}</p>`).join("")}`,
        text: [postMarkupText(content.body), ...files].join("\n\n"),
      },
      button: { label: t("email.post.open"), url: links.libraryUrl },
      links: [{ label: t("email.common.unsubscribe", { seller }), url: links.unsubscribeUrl }],
      note: t("email.post.note", { seller, product: content.productTitle }),
    }),
  };
}
