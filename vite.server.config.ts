import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The production server: one ES module bundle in dist/server that plain Node runs (`node dist/server/main.js`),
// so no TypeScript compiler loads at start. Our sources (server, Stripe emulator, migrations, the web app's
// components it renders) are bundled, which also settles the extensionless imports Node's ESM loader
// refuses; node_modules stay external, loaded from node_modules as in development.
export default defineConfig({
  plugins: [react()],
  build: {
    ssr: "src/server/main.ts",
    outDir: "dist/server",
    emptyOutDir: true,
    target: "node20",
    sourcemap: true,
  },
  ssr: {
    target: "node",
    // Entries that load every module of their package though the pages use a few: date-fns's ~250 modules,
    // radix-ui's ~60 packages, lucide-react's ~1,600 icons (about 0.7 s at start). Bundled, only the few the
    // server-rendered pages use remain.
    noExternal: ["date-fns", "radix-ui", /^@radix-ui\//, "lucide-react"],
  },
});
