import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A built web app as Vite writes it, reduced to what the server-rendered pages read: the manifest naming
 * the public pages' stylesheet and script, and the app's index.html. Remove the folder after the tests.
 */
export async function fakeWebDist(): Promise<string> {
  const webDir = await mkdtemp(path.join(tmpdir(), "flatfee-web-"));
  await mkdir(path.join(webDir, ".vite"));
  await mkdir(path.join(webDir, "assets"));
  await writeFile(path.join(webDir, "assets", "public-pages-styles-abc123.css"), ".text-ink{color:#0f172a}");
  await writeFile(path.join(webDir, "assets", "public-pages-def456.js"), "console.log(1)");
  await writeFile(
    path.join(webDir, ".vite", "manifest.json"),
    JSON.stringify({
      "index.html": { file: "assets/app-x.js", css: ["assets/app-abc123.css"], isEntry: true },
      "public-pages/enhance.ts": { file: "assets/public-pages-def456.js", isEntry: true },
      "public-pages/public-pages.css": { file: "assets/public-pages-styles-abc123.css", isEntry: true },
    }),
  );
  await writeFile(path.join(webDir, "index.html"), '<!doctype html><div id="root"></div>');
  return webDir;
}
