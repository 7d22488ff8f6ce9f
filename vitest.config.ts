import { defineConfig } from "vitest/config";

// Unit and API tests. API tests build the app with app.inject() on an in-memory PGlite,
// or on PostgreSQL when TEST_DATABASE_URL is set (see scripts/test-postgres.ts).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "tests/api/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
