import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { embedScriptPlugin } from "./scripts/embed-script-build.mjs";

// The web app lives in src/web; `npm run build` writes it to dist/web, which the server serves.
// In `npm run dev` the API runs on API_PORT and Vite proxies to it.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? "3001"}`;

export default defineConfig({
  root: "src/web",
  // embedScriptPlugin: dist/web/embed.js, the buy button script other sites load (docs/embed.md).
  plugins: [react(), tailwindcss(), embedScriptPlugin()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    sourcemap: true,
    // The server reads the manifest for the hashed names of the public pages' script and stylesheet.
    manifest: true,
    rollupOptions: {
      input: {
        app: "src/web/index.html",
        "public-pages": "src/web/public-pages/enhance.ts",
        "public-pages-styles": "src/web/public-pages/public-pages.css",
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    // The public product and store pages are rendered by the server (with the last build's stylesheet).
    proxy: {
      "/api": apiTarget,
      "/dev": apiTarget,
      "/files": apiTarget,
      "/product/": apiTarget,
      "/store/": apiTarget,
      "/embed.js": apiTarget,
      "/embed/": apiTarget,
      "/store-export/": apiTarget,
    },
  },
});
