/**
 * Shared by the embed script and the framed product page's script, so no import here: both stay
 * free of zod and anything else.
 */

/** The path of the one page that may be framed by other sites. */
export const embedPagePath = (productId: string) => `/embed/product/${encodeURIComponent(productId)}`;

/** What the framed page posts to its parent when the buyer presses Escape inside it. */
export const EMBED_CLOSE_MESSAGE = "flatfee:close";
