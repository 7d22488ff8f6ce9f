import { formatMoney } from "../../contracts/money.js";

/** HTML-escapes text for element content and attribute values. */
function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Template tag that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += renderValue(value) + (strings[index + 1] ?? "");
  });
  return new Html(out);
}

function renderValue(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** An amount in its currency's minor unit as the pages show it ("$15.00", "¥1,500"), never through a float. */
export function formatAmount(amount: number, currency: string): string {
  return formatMoney(amount, currency, "en-US");
}

export function formatDate(unixSeconds: number): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(unixSeconds * 1000),
  );
}

const STYLES = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1f36;background:#f6f8fa;-webkit-font-smoothing:antialiased}
.test-banner{background:#ffde92;color:#5f3a00;text-align:center;font-size:13px;font-weight:600;padding:6px 12px;letter-spacing:.01em}
.test-banner p{margin:0}
.page{max-width:960px;margin:0 auto;padding:32px 20px 48px}
.narrow{max-width:520px}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:48px;align-items:start}
@media (max-width:760px){.columns{grid-template-columns:1fr;gap:24px}.page{padding:20px 16px 40px}}
.merchant{font-size:15px;font-weight:600;color:#3c4257;margin:0 0 16px;display:flex;align-items:center;gap:8px}
.merchant .logo{width:28px;height:28px;border-radius:50%;background:#635bff;color:#fff;display:inline-flex;align-items:center;justify-content:center;font-size:13px}
.total{font-size:34px;font-weight:700;margin:0 0 4px;letter-spacing:-.02em}
.muted{color:#596171}
.small{font-size:13px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(50,50,93,.12),0 1px 1px rgba(0,0,0,.04);padding:24px}
.items{list-style:none;margin:20px 0 0;padding:0}
.items li{display:flex;justify-content:space-between;gap:16px;padding:12px 0;border-top:1px solid #e3e8ee}
.items li:last-child{font-weight:600}
a{color:#4b44d6}
h1{font-size:22px;margin:0 0 8px;letter-spacing:-.01em}
h2{font-size:17px;margin:0 0 12px}
label{display:block;font-size:13px;font-weight:600;color:#3c4257;margin:16px 0 6px}
input[type=text],input[type=email],select{width:100%;font:inherit;padding:10px 12px;border:1px solid #cfd7df;border-radius:8px;background:#fff;color:#1a1f36;outline:none;transition:border-color .15s,box-shadow .15s}
input:focus{border-color:#635bff;box-shadow:0 0 0 3px rgba(99,91,255,.2)}
.card-group input{border-radius:0}
.card-group>input{border-radius:8px 8px 0 0}
.card-group .row{display:grid;grid-template-columns:1fr 1fr}
.card-group .row input{margin-top:-1px}
.card-group .row input:first-child{border-radius:0 0 0 8px}
.card-group .row input:last-child{border-radius:0 0 8px 0;margin-left:-1px;width:calc(100% + 1px)}
.button{display:inline-flex;align-items:center;justify-content:center;width:100%;margin-top:20px;padding:12px 16px;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;background:#635bff;color:#fff}
.button:hover{background:#5046e4}
.button.secondary{background:#fff;color:#3c4257;box-shadow:inset 0 0 0 1px #cfd7df}
.button.secondary:hover{background:#f6f8fa}
.button.danger{background:#fff;color:#c0123c;box-shadow:inset 0 0 0 1px #f2b8c6}
.button.danger:hover{background:#fff5f7}
.actions{display:grid;gap:10px;margin-top:8px}
.actions .button{margin-top:0}
.error{background:#fff5f7;color:#c0123c;border:1px solid #f2b8c6;border-radius:8px;padding:10px 12px;margin-top:16px;font-size:14px}
.notice{background:#eefbf3;color:#0e6245;border:1px solid #b4e6cb;border-radius:8px;padding:10px 12px;margin-bottom:16px;font-size:14px}
.hint{margin-top:14px;font-size:13px;color:#596171}
.hint code{background:#eef0f5;color:#3c4257;border-radius:4px;padding:1px 5px;font-size:12px}
.back{display:inline-block;margin-bottom:20px;color:#4b44d6;text-decoration:none;font-weight:600;font-size:14px}
.back:hover{text-decoration:underline}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:2px 8px;border-radius:999px;background:#d7f7c2;color:#05690d}
.badge.warn{background:#fcedb9;color:#a82c00}
.badge.off{background:#e3e8ee;color:#4f566b}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:6px 16px;margin:16px 0}
dt{color:#596171}
dd{margin:0;text-align:right;font-weight:500;overflow-wrap:anywhere}
.stack{display:grid;gap:16px}
select{appearance:none;background:#fff url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12' height='8'%3E%3Cpath d='M1 1l5 5 5-5' stroke='%23596171' fill='none' stroke-width='1.5'/%3E%3C/svg%3E") no-repeat right 12px center;padding-right:32px}
select:focus{border-color:#635bff;box-shadow:0 0 0 3px rgba(99,91,255,.2)}
[hidden]{display:none!important}
fieldset.group{border:0;margin:16px 0 0;padding:0;min-width:0}
fieldset.group legend{font-size:15px;font-weight:600;color:#1a1f36;padding:0;margin:8px 0 0}
.row2{display:grid;grid-template-columns:1fr 1fr;gap:12px}
@media (max-width:360px){.row2{grid-template-columns:1fr}}
.check{display:flex;align-items:flex-start;gap:10px;margin-top:16px}
.check input{width:18px;height:18px;margin:2px 0 0;flex:none;accent-color:#635bff}
.check label{margin:0;font-weight:500;font-size:14px;color:#1a1f36}
.field-error{color:#c0123c;font-size:13px;margin:6px 0 0}
[aria-invalid=true]{border-color:#c0123c!important}
table.list{width:100%;border-collapse:collapse;font-size:14px}
table.list th,table.list td{text-align:left;padding:8px 6px;border-top:1px solid #e3e8ee;vertical-align:top}
table.list th{color:#596171;font-weight:600;border-top:0}
.scroll{overflow-x:auto}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.button.small-button{width:auto;margin-top:0;padding:6px 12px;font-size:13px}
h3{font-size:15px;margin:24px 0 0}
.center{text-align:center}
`;

/** Every hosted page: the test-mode banner, then the page's content, in `lang` (a Checkout's locale). */
export function layout(title: string, body: Html, lang = "en"): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Test mode</title>
<style>${new Html(STYLES)}</style>
</head>
<body>
<header class="test-banner"><p role="note">Test mode — local Stripe emulator</p></header>
${body}
</body>
</html>`.value;
}

/** A page that only says something (expired session, finished payment, …). */
export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    html`<main class="page narrow"><div class="card center">
<h1>${title}</h1>
<p class="muted">${message}</p>
${link ? html`<a class="button" href="${link.href}">${link.label}</a>` : ""}
</div></main>`,
  );
}
