import { readFile } from "node:fs/promises";
import path from "node:path";

/** What the server-rendered public pages load from the built web app. */
export interface PublicPageAssets {
  /**
   * The public pages' own Tailwind stylesheet (src/web/public-pages/public-pages.css: only the classes
   * they use), inlined: it is small and would otherwise block rendering.
   */
  styles: string;
  /** Path of the pages' own small script (src/web/public-pages/enhance.ts), or null before a build. */
  scriptPath: string | null;
}

/** The manifest key of the public pages' script; scripts/check-public-budget.ts weighs it. */
export const PUBLIC_PAGE_SCRIPT_ENTRY = "public-pages/enhance.ts";
/** The manifest key of the public pages' stylesheet; the budget check weighs it too. */
export const PUBLIC_PAGE_STYLESHEET_ENTRY = "public-pages/public-pages.css";

export interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * Reads Vite's manifest (dist/web/.vite/manifest.json) once, at start: asset names are hashed. Without
 * a build (API tests), the pages render unstyled and without script, which they do not need to work.
 */
export async function loadPublicPageAssets(distDir: string): Promise<PublicPageAssets> {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(await readFile(path.join(distDir, ".vite", "manifest.json"), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { styles: "", scriptPath: null };
    throw error;
  }
  const stylesheet = manifest[PUBLIC_PAGE_STYLESHEET_ENTRY]?.file;
  const styles = stylesheet ? await readFile(path.join(distDir, stylesheet), "utf8") : "";
  const script = manifest[PUBLIC_PAGE_SCRIPT_ENTRY]?.file;
  return { styles, scriptPath: script ? `/${script}` : null };
}
