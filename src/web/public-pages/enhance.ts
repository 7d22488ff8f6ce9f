/**
 * The only script of the server-rendered public pages (product, store). Everything on them works as
 * plain HTML; this only makes it nicer, so it stays tiny (no React, no framework): checked by
 * scripts/check-public-budget.ts. It has no words of its own: what it shows comes in the page's
 * language from the page itself (data-* attributes), so no catalogue is ever sent to a browser.
 */

import { EMBED_CLOSE_MESSAGE } from "../../contracts/embed-frame";

/**
 * Buy Now and Subscribe: busy and disabled while the server creates the checkout, so it is not pressed
 * twice, saying what `data-buy-now` says ("Redirecting to checkout...").
 */
function enhanceBuyNow(form: HTMLFormElement): void {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!button) return;
  // Its nodes, not its text: Subscribe's label has a part only screen readers read (the tier's name).
  const label = [...button.childNodes];
  form.addEventListener("submit", () => {
    // After this event, so the browser still submits the form.
    setTimeout(() => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.textContent = form.dataset.buyNow ?? "";
    });
  });
  // Coming back from Stripe with the Back button restores the page as it was left: busy.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.replaceChildren(...label);
  });
}

/** Counts one store view per page load; bots without script are not counted, failures are ignored. */
function recordStoreView(userId: string): void {
  void fetch(`/api/public/stores/${encodeURIComponent(userId)}/views`, {
    method: "POST",
    keepalive: true,
  }).catch(() => undefined);
}

/** Counts one product view with the source the server put in the page (its Referer host, utm fields). */
function recordProductView(productId: string, source: string): void {
  void fetch(`/api/public/products/${encodeURIComponent(productId)}/views`, {
    method: "POST",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(Object.fromEntries(new URLSearchParams(source))),
  }).catch(() => undefined);
}

/**
 * Copy buttons (a license key on the success and download pages): rendered hidden, since without script
 * the text itself is what the buyer selects; shown here, where copying works. Says `data-copied-label`
 * for two seconds after copying, then its own words again.
 */
function enhanceCopy(button: HTMLButtonElement): void {
  const label = button.querySelector("[data-copy-label]");
  const idle = label?.textContent ?? "";
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(button.dataset.copy ?? "").then(
      () => {
        if (!label) return;
        label.textContent = button.dataset.copiedLabel ?? idle;
        setTimeout(() => {
          label.textContent = idle;
        }, 2000);
      },
      () => undefined,
    );
  });
}

/**
 * The embed overlay's page (/embed/product/{id}) inside another site's dialog: Esc pressed in here never
 * reaches that page, so it is passed on, and the embed script closes the dialog. Nothing else is said.
 * An Esc that closes something of this page first (the resend popover) is that thing's own.
 */
function relayEscapeToEmbedder(): void {
  const somethingOpen = () => {
    try {
      return document.querySelector(":popover-open, dialog[open]") !== null;
    } catch {
      return false;
    }
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !event.defaultPrevented && !somethingOpen()) {
      window.parent.postMessage(EMBED_CLOSE_MESSAGE, "*");
    }
  });
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-buy-now]")) enhanceBuyNow(form);
if (document.body.dataset.embedFrame !== undefined && window.parent !== window) relayEscapeToEmbedder();
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) enhanceCopy(button);
/** Views are counted once the page has loaded, so the count never competes with the cover for the network. */
function afterLoad(work: () => void): void {
  if (document.readyState === "complete") work();
  else window.addEventListener("load", work, { once: true });
}

const { storeView, productView, viewSource } = document.body.dataset;
if (storeView) afterLoad(() => recordStoreView(storeView));
if (productView) afterLoad(() => recordProductView(productView, viewSource ?? ""));
