import { defineConfig } from "vitest/config";

// Browser tests: each file boots the real server (built web app, embedded defaults in a temp
// DATA_DIR) and drives Chromium through playwright-core.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Two files at a time: each has its own server, database and browser, and a journey spends most of
    // its time waiting on pages (one run: 1,018 s of journeys took 592 s on two cores).
    fileParallelism: true,
    maxWorkers: 2,
    globalSetup: ["tests/e2e/support/global-setup.ts"],
  },
});
