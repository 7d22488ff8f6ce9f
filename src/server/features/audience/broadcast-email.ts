import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { unsubscribeHeaders } from "./unsubscribe";

export interface BroadcastContent {
  kind: "message" | "product-update";
  subject: string;
  message: string;
  sellerName: string;
}

/** A seller's message as paragraphs: each line its own (blank lines only space them). */
export const messageParagraphs = (message: string) =>
  message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

/**
 * One buyer's copy of a seller's email, in the shared layout: the seller's text (its links made
 * links, everything else escaped), a product update's way to the new files (the buyer's library), and
 * the buyer's own unsubscribe link, also as List-Unsubscribe headers so mail apps offer one-click
 * unsubscribe (RFC 8058: a POST to the same address).
 */
export function broadcastEmail(
  content: BroadcastContent,
  recipient: { to: string; unsubscribeUrl: string; libraryUrl?: string },
): OutgoingEmail {
  const paragraphs = messageParagraphs(content.message);
  return {
    to: recipient.to,
    subject: content.subject,
    headers: unsubscribeHeaders(recipient.unsubscribeUrl),
    ...renderEmail({
      preheader: paragraphs[0] ?? content.subject,
      heading: content.subject,
      paragraphs: [...paragraphs, `— ${content.sellerName}`],
      linkify: true,
      ...(content.kind === "product-update" && recipient.libraryUrl
        ? { button: { label: "Get the new files", url: recipient.libraryUrl } }
        : {}),
      links: [{ label: `Unsubscribe from ${content.sellerName}'s emails`, url: recipient.unsubscribeUrl }],
      note: `You get this email because you bought from ${content.sellerName}. Unsubscribing stops these emails only: receipts and download links still come.`,
    }),
  };
}
