/**
 * The embeddable buy button (docs/embed.md), served as /embed.js and loaded by other sites:
 *   <a href="{APP_URL}/product/{id}" data-flatfee>Buy my guide</a>
 *   <script src="{APP_URL}/embed.js" defer></script>
 * Each marked link becomes a Buy button with the live price and stock (one request for all of them);
 * pressing it opens the product (/embed/product/{id}) in a modal dialog. Without this script, or if the
 * request fails, the links stay links. Built as one small IIFE (vite.config.ts): no framework, no
 * globals but `FlatfeeEmbed`, only type imports from the contracts (so no zod), nothing else loaded
 * until a button is pressed. Checked at most 10 KB gzip by scripts/check-public-budget.ts.
 */
import type { SOURCE_FIELDS } from "../../contracts/analytics";
import type { EmbedProduct, EmbedProducts } from "../../contracts/embed";
import { EMBED_CLOSE_MESSAGE, embedPagePath } from "../../contracts/embed-frame";
import { BUTTON_CSS, OVERLAY_CSS } from "./embed-styles";

/** As EMBED_LIMITS.maxIdsPerRequest (a type import cannot carry the value). */
const IDS_PER_REQUEST = 24;
const DONE = "data-flatfee-done";
const PRODUCT_PATH = /^\/product\/([A-Za-z0-9_-]{1,64})\/?$/;

/** Our own address: where this script came from, whatever site loaded it. */
function appOrigin(): string | null {
  const current = document.currentScript as HTMLScriptElement | null;
  const script = current?.src
    ? current
    : document.querySelector<HTMLScriptElement>('script[src*="/embed.js"]');
  return script ? new URL(script.src, location.href).origin : null;
}

const origin = appOrigin();

/** One stylesheet shared by every shadow root; constructed sheets also pass a strict style-src CSP. */
const sheets = new Map<string, CSSStyleSheet | null>();
function styled(root: ShadowRoot, css: string): void {
  if (!sheets.has(css)) {
    let sheet: CSSStyleSheet | null = null;
    try {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    } catch {
      sheet = null;
    }
    sheets.set(css, sheet);
  }
  const sheet = sheets.get(css);
  if (sheet) {
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = css;
    root.append(style);
  }
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- The overlay: one per page, made on the first press ----

let overlay: { dialog: HTMLDialogElement; title: HTMLElement; body: HTMLElement } | null = null;
let frame: HTMLIFrameElement | null = null;
let opener: HTMLButtonElement | null = null;
let rootOverflow = "";

function makeOverlay() {
  const host = document.createElement("flatfee-overlay");
  const root = host.attachShadow({ mode: "open" });
  styled(root, OVERLAY_CSS);
  const dialog = element("dialog", "");
  dialog.setAttribute("aria-labelledby", "flatfee-title");
  const bar = element("div", "bar");
  const title = element("p", "title");
  title.id = "flatfee-title";
  const close = element("button", "close", "×");
  close.type = "button";
  close.setAttribute("aria-label", "Close");
  close.addEventListener("click", () => dialog.close());
  bar.append(title, close);
  const body = element("div", "body");
  dialog.append(bar, body);
  root.append(dialog);
  // A press on the backdrop (the dialog box itself, around its content) closes it too.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  // Esc (the dialog's own cancel) and the close button both end here.
  dialog.addEventListener("close", () => {
    frame?.remove();
    frame = null;
    document.documentElement.style.overflow = rootOverflow;
    opener?.focus();
  });
  document.body.append(host);
  return { dialog, title, body };
}

/** Esc pressed inside the framed page: it tells us (public-pages/enhance.ts), since the key never reaches us. */
window.addEventListener("message", (event) => {
  if (
    event.origin === origin &&
    event.data === EMBED_CLOSE_MESSAGE &&
    event.source === frame?.contentWindow
  ) {
    overlay?.dialog.close();
  }
});

/** SOURCE_FIELDS' utm names (a type import cannot carry the values, but checks their spelling). */
const UTM_FIELDS: Array<(typeof SOURCE_FIELDS)["utmSource" | "utmMedium" | "utmCampaign"]> = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
];

/**
 * The overlay's address names where the buyer is: this site's host (`ref`, for sites whose Referrer-Policy
 * sends none) and the utm fields of the creator's link, so the view and the sale count for this site.
 */
function overlayAddress(link: string, productId: string): string {
  const fields = new URLSearchParams();
  if (location.hostname)
    fields.set("ref" satisfies (typeof SOURCE_FIELDS)["referrerHost"], location.hostname);
  const linkFields = new URL(link, location.href).searchParams;
  for (const name of UTM_FIELDS) {
    const value = linkFields.get(name);
    if (value) fields.set(name, value);
  }
  const query = fields.toString();
  return `${origin}${embedPagePath(productId)}${query ? `?${query}` : ""}`;
}

function openProduct(button: HTMLButtonElement, link: string, product: EmbedProduct): void {
  if (!origin) return;
  overlay ??= makeOverlay();
  const { dialog, title, body } = overlay;
  const name = product.title ?? "Product";
  title.textContent = name;
  body.replaceChildren(element("p", "loading", "Loading…"));
  frame = element("iframe", "");
  frame.title = name;
  frame.src = overlayAddress(link, product.id);
  frame.addEventListener("load", () => frame?.classList.add("ready"));
  body.append(frame);
  opener = button;
  rootOverflow = document.documentElement.style.overflow;
  document.documentElement.style.overflow = "hidden";
  dialog.showModal();
  dialog.querySelector<HTMLButtonElement>(".close")?.focus();
}

// ---- The buttons ----

/** The link's own words, unless it shows its address (a bare pasted link). */
function labelOf(link: HTMLAnchorElement, buyLabel: string): string {
  const text = (link.textContent ?? "").replace(/\s+/g, " ").trim();
  return text && !/^https?:\/\//i.test(text) ? text : buyLabel;
}

/** Every word on a button comes from the answer, in the visitor's language: this script carries none. */
function makeButton(link: HTMLAnchorElement, product: EmbedProduct, buyLabel: string): void {
  // A tag of our own: the host page's rules for spans or divs do not reach it either.
  const host = document.createElement("flatfee-buy-button");
  const root = host.attachShadow({ mode: "open" });
  styled(root, BUTTON_CSS);
  const button = element("button", "buy");
  button.type = "button";
  const row = element("span", "row");
  row.append(element("span", "label", labelOf(link, buyLabel)));
  if (product.priceLabel) row.append(element("span", "price", product.priceLabel));
  button.append(row);
  const note = product.status === "available" ? product.stockLabel : product.statusLabel;
  if (note) button.append(element("span", "stock", note));
  if (product.status === "available") {
    button.setAttribute("aria-haspopup", "dialog");
    button.addEventListener("click", () => openProduct(button, link.href, product));
  } else {
    button.disabled = true;
  }
  root.append(button);
  link.replaceWith(host);
  // Kept (not shown: nothing is slotted) for the page's own scripts that look for it.
  host.append(link);
}

async function price(links: Map<string, HTMLAnchorElement[]>, ids: string[]): Promise<void> {
  const response = await fetch(`${origin}/api/embed/products?ids=${ids.map(encodeURIComponent).join(",")}`, {
    credentials: "omit",
  });
  if (!response.ok) return;
  const { products, buyLabel } = (await response.json()) as EmbedProducts;
  for (const product of products) {
    for (const link of links.get(product.id) ?? []) makeButton(link, product, buyLabel);
  }
}

/** Turns every marked link to one of our products not yet turned into a button. */
function scan(): void {
  if (!origin) return;
  const links = new Map<string, HTMLAnchorElement[]>();
  for (const link of document.querySelectorAll<HTMLAnchorElement>(`a[data-flatfee]:not([${DONE}])`)) {
    const url = new URL(link.href, location.href);
    const id = url.origin === origin ? PRODUCT_PATH.exec(url.pathname)?.[1] : undefined;
    if (!id) continue;
    link.setAttribute(DONE, "");
    links.set(id, [...(links.get(id) ?? []), link]);
  }
  const ids = [...links.keys()];
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    // A failed request leaves its links as links: they still open the product page.
    price(links, ids.slice(start, start + IDS_PER_REQUEST)).catch(() => undefined);
  }
}

/** For pages that add links after loading: `FlatfeeEmbed.scan()`. */
(window as unknown as { FlatfeeEmbed: { scan: () => void } }).FlatfeeEmbed = { scan };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
else scan();
