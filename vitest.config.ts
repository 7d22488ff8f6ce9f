import { defineConfig } from "vitest/config";

// Unit and API tests. API tests build the app with app.inject() on an in-memory PGlite, or on
// PostgreSQL when TEST_DATABASE_URL is set (`npm run test:pg`), which also runs the *.pg.test.ts
// files: what only a real PostgreSQL server can show (several app instances on one database).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "tests/api/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: onPostgres ? ["**/node_modules/**"] : ["**/node_modules/**", "**/*.pg.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One migrated embedded database per run, which every test file's database starts from.
    globalSetup: ["tests/api/support/global-setup.ts"],
    // Vitest's default is one fewer worker than cores: one on a 2-core CI machine. API tests spend much of
    // their time waiting on the database and the Stripe emulator, so two files at a time keep both busy.
    maxWorkers: 2,
  },
});
