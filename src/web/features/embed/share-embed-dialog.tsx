import { Code2, Copy, ExternalLink } from "lucide-react";
import { useId } from "react";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { Button, type ButtonProps } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Textarea } from "../../components/ui/textarea";
import { copyToClipboard } from "../../lib/clipboard";
import { productUrl } from "../products/products-api";

export const EMBED_SNIPPET_COPIED = "Embed code copied!";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** What the seller pastes on their own site (docs/embed.md): a plain link, made a Buy button by the script. */
export function embedSnippet(origin: string, product: { id: string; title: string }): string {
  return `<a href="${productUrl(origin, product.id)}" data-flatfee>Buy ${escapeHtml(product.title)}</a>
<script src="${origin}/embed.js" defer></script>`;
}

/**
 * The button exactly as a site shows it: the snippet itself in a frame of its own (same origin, so our
 * policy lets the script run and ask for the live price). A picture of it, not a control: pressing it
 * here would open the overlay inside this small frame, so the frame is inert.
 */
function LivePreview({ snippet, title }: { snippet: string; title: string }) {
  const document = `<!doctype html><html lang="en"><body style="margin:0;padding:16px;font-family:system-ui,sans-serif">${snippet}</body></html>`;
  return (
    <div inert className="overflow-hidden rounded-xl border border-dashed border-slate-300 bg-slate-50">
      <iframe title={`Preview of the Buy button for ${title}`} srcDoc={document} className="h-24 w-full" />
    </div>
  );
}

/**
 * "Share / Embed" for one product: its link, the snippet that puts a Buy button on any website (with a
 * copy button), and a live preview of that button. `trigger` is how the page opens it.
 */
export function ShareEmbedDialog({
  product,
  triggerLabel = "Share / Embed",
  iconOnly = false,
  ...buttonProps
}: {
  product: { id: string; title: string };
  triggerLabel?: string;
  iconOnly?: boolean;
} & Pick<ButtonProps, "variant" | "size" | "className">) {
  const id = useId();
  const origin = window.location.origin;
  const url = productUrl(origin, product.id);
  const snippet = embedSnippet(origin, product);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button
          variant="secondary"
          {...buttonProps}
          {...(iconOnly ? { "aria-label": `Share or embed ${product.title}` } : {})}
        >
          <Code2 aria-hidden="true" />
          {!iconOnly && triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Share / Embed</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            Sell “{product.title}” from your own website, newsletter or link page.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-6">
          <div className="space-y-2">
            <Label htmlFor={`${id}-link`} className="block">
              Product link
            </Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-link`}
                readOnly
                value={url}
                onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 font-mono text-xs sm:text-sm"
              />
              <Button
                variant="secondary"
                aria-label="Copy the product link"
                onClick={() => void copyToClipboard(url, PRODUCT_MESSAGES.linkCopied)}
              >
                <Copy aria-hidden="true" />
              </Button>
            </div>
          </div>

          <div className="space-y-2">
            <Label htmlFor={`${id}-snippet`} className="block">
              Buy button for your website
            </Label>
            <p id={`${id}-snippet-hint`} className="text-sm text-muted">
              Paste this where the button should appear. It shows the live price and stock and opens checkout
              over your page; without the script it is still a working link.
            </p>
            <Textarea
              id={`${id}-snippet`}
              aria-describedby={`${id}-snippet-hint`}
              readOnly
              rows={4}
              value={snippet}
              onFocus={(event) => event.currentTarget.select()}
              className="resize-none font-mono text-xs wrap-anywhere"
            />
            <Button onClick={() => void copyToClipboard(snippet, EMBED_SNIPPET_COPIED)}>
              <Copy aria-hidden="true" />
              Copy embed code
            </Button>
          </div>

          <div className="space-y-2">
            <p className="text-sm font-medium text-ink">Preview</p>
            <LivePreview snippet={snippet} title={product.title} />
            <a
              href={`/embed/product/${product.id}`}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-700 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Open what buyers see when they press it
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only"> (new tab)</span>
            </a>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
