/**
 * The only script of the server-rendered public pages (product, store). Everything on them works as
 * plain HTML; this only makes it nicer, so it stays tiny (no React, no framework): checked by
 * scripts/check-public-budget.ts.
 */

const BUSY_LABEL = "Redirecting to checkout...";

/** Buy Now: busy and disabled while the server creates the checkout, so it is not pressed twice. */
function enhanceBuyNow(form: HTMLFormElement): void {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!button) return;
  const label = button.textContent ?? "";
  form.addEventListener("submit", () => {
    // After this event, so the browser still submits the form.
    setTimeout(() => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.textContent = BUSY_LABEL;
    });
  });
  // Coming back from Stripe with the Back button restores the page as it was left: busy.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.textContent = label;
  });
}

/** Counts one store view per page load; bots without script are not counted, failures are ignored. */
function recordStoreView(userId: string): void {
  void fetch(`/api/public/stores/${encodeURIComponent(userId)}/views`, {
    method: "POST",
    keepalive: true,
  }).catch(() => undefined);
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-buy-now]")) enhanceBuyNow(form);
const storeView = document.body.dataset.storeView;
if (storeView) recordStoreView(storeView);
