import { readFile } from "node:fs/promises";
import path from "node:path";
import { strongEtag } from "../../http/etag";

/** The built embed script (dist/web/embed.js, written by the web build: vite.config.ts) and its tag. */
export interface EmbedScript {
  code: string;
  etag: string;
}

/** The file the web build writes; scripts/check-public-budget.ts weighs it. */
export const EMBED_SCRIPT_FILE = "embed.js";

/**
 * Read once at start, like the public pages' stylesheet. Null before a build (API tests that do not
 * build it): `/embed.js` then says the app is not built.
 */
export async function loadEmbedScript(distDir: string): Promise<EmbedScript | null> {
  let code: string;
  try {
    code = await readFile(path.join(distDir, EMBED_SCRIPT_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return { code, etag: strongEtag(code) };
}
