/**
 * Builds src/web/embed/embed.ts into the standalone `embed.js` other sites load (docs/embed.md): one
 * minified IIFE, since it runs as a classic script among the host page's own and must declare no
 * globals. The web build (vite.config.ts) writes it to dist/web/embed.js through `embedScriptPlugin`;
 * tests that need the script without building the whole web app call `buildEmbedScript`. Plain
 * JavaScript (types in embed-script-build.d.mts), as vite.config.ts loads it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const ENTRY = fileURLToPath(new URL("../src/web/embed/embed.ts", import.meta.url));
export const EMBED_SCRIPT_FILE_NAME = "embed.js";

export async function buildEmbedScript() {
  const result = await build({
    configFile: false,
    root: path.dirname(ENTRY),
    logLevel: "silent",
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      minify: true,
      sourcemap: false,
      // Every browser with <dialog> and adoptedStyleSheets.
      target: "es2020",
      lib: {
        entry: ENTRY,
        formats: ["iife"],
        name: "FlatfeeEmbedBundle",
        fileName: () => EMBED_SCRIPT_FILE_NAME,
      },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === "chunk");
  if (chunk?.type !== "chunk") throw new Error("the embed script build produced no chunk");
  return chunk.code;
}

/** Adds embed.js (not fingerprinted: its address is pasted on other sites) to the web build. */
export function embedScriptPlugin() {
  return {
    name: "flatfee-embed-script",
    apply: "build",
    async generateBundle() {
      this.emitFile({ type: "asset", fileName: EMBED_SCRIPT_FILE_NAME, source: await buildEmbedScript() });
    },
  };
}
