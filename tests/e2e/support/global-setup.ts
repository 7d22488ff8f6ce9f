import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { makeTestDatabaseTemplate } from "../../support/database-template";
import { E2E_WEB_DIST } from "./server";

// Browser tests run against the web app built exactly as `npm start` builds it, into a folder of
// their own so a concurrent `npm start` or dev build never swaps files under them. Every journey's server
// starts its embedded database from one migrated template made here.
export default async function setup() {
  mkdirSync("screenshots", { recursive: true });
  const removeTemplate = await makeTestDatabaseTemplate(".vitest-tmp");
  if (process.env.E2E_SKIP_BUILD !== "1") {
    execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", E2E_WEB_DIST, "--emptyOutDir"], {
      stdio: "inherit",
    });
  }
  return removeTemplate;
}
