/**
 * Renders the landing page's link-preview image (Open Graph and Twitter card, 1200x630) into
 * src/web/public/og-image.png, which the web build copies to /og-image.png. Run by hand when the
 * landing page's message changes: `npx tsx scripts/render-og-image.ts`; the PNG is committed.
 */
import path from "node:path";
import sharp from "sharp";
import { LANDING_OG_IMAGE } from "../src/server/features/storefront/link-preview";

const OUTPUT = path.resolve("src/web/public", LANDING_OG_IMAGE.path.slice(1));
const { width, height } = LANDING_OG_IMAGE;

// The brand's indigo (theme.css brand-600 to brand-800, as sRGB) and the logo's "F" mark.
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#4f46e5"/>
      <stop offset="1" stop-color="#312e81"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <g transform="translate(80 80)">
    <rect width="72" height="72" rx="18" fill="#ffffff"/>
    <path d="M22.5 20.25h29.25v7.9h-20.25v6.75h18v7.9h-18V54h-9z" fill="#4f46e5"/>
    <text x="96" y="52" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="40" font-weight="700" fill="#ffffff">Flatfee</text>
  </g>
  <text font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="700" fill="#ffffff" font-size="68" letter-spacing="-1">
    <tspan x="80" y="320">Sell unlimited digital</tspan>
    <tspan x="80" y="405">products for $10/mo</tspan>
  </text>
  <text x="80" y="510" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="32" fill="#e0e7ff">Flat $10 a month · 0% of your sales · your own Stripe</text>
</svg>`;

await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toFile(OUTPUT);
console.log(`wrote ${OUTPUT}`);
