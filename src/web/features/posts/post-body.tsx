import { cn } from "../../lib/utils";

/** The posts' look: the few elements their markup makes (contracts/post-markup.ts), styled here. */
const POST_BODY =
  "space-y-3 text-sm leading-6 text-ink wrap-anywhere [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_h3]:pt-1 [&_h3]:text-sm [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-5 [&_strong]:font-semibold [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5";

/**
 * A post's HTML: always made by renderPostMarkup (the server's for the library, the same function for
 * the composer's preview), which escapes every character of the text that is not its own markup and
 * writes only p, br, h3, lists, strong, em and http(s)/mailto links.
 */
export function PostBody({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={cn(POST_BODY, className)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by renderPostMarkup (contracts/post-markup.ts), tested against XSS.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
