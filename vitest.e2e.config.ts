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
    fileParallelism: false,
    globalSetup: ["tests/e2e/support/global-setup.ts"],
  },
});
