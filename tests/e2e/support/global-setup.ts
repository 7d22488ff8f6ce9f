import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { E2E_WEB_DIST } from "./server";

// Browser tests run against the web app built exactly as `npm start` builds it, into a folder of
// their own so a concurrent `npm start` or dev build never swaps files under them.
export default function setup() {
  mkdirSync("screenshots", { recursive: true });
  if (process.env.E2E_SKIP_BUILD !== "1") {
    execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", E2E_WEB_DIST, "--emptyOutDir"], {
      stdio: "inherit",
    });
  }
}
