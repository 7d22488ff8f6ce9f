import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

// Browser tests run against the built web app, exactly as `npm start` serves it.
export default function setup() {
  mkdirSync("screenshots", { recursive: true });
  if (process.env.E2E_SKIP_BUILD !== "1") {
    execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  }
}
