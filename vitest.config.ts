import { defineConfig } from "vitest/config";

// Unit and API tests. API tests build the app with app.inject() on an in-memory PGlite, or on
// PostgreSQL when TEST_DATABASE_URL is set (`npm run test:pg`), which also runs the *.pg.test.ts
// files: what only a real PostgreSQL server can show (several app instances on one database). The
// *.embedded.test.ts files test only the embedded database (its backups, the compiled server's default
// start), whatever TEST_DATABASE_URL says: the PostgreSQL pass leaves them out instead of repeating them.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const exclude = onPostgres
  ? ["**/node_modules/**", "**/*.embedded.test.ts"]
  : ["**/node_modules/**", "**/*.pg.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One migrated embedded database per run, which every test file's database starts from.
    globalSetup: ["tests/api/support/global-setup.ts"],
    // Vitest's default is one fewer worker than cores: one on a 2-core CI machine. API tests spend much of
    // their time waiting on the database and the Stripe emulator, so two files at a time keep both busy.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          include: [
            "src/server/**/*.test.ts",
            "tests/api/**/*.test.ts",
            "scripts/**/*.test.ts",
            "src/stripe-emulator/**/*.test.ts",
          ],
          exclude,
          // The server's test files share their worker's loaded modules (Fastify, Kysely, Stripe, Better
          // Auth...): loading them again for each of ~80 files was a third of the run. Every file builds
          // its own app, database and emulator, and none mocks a module.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          include: ["src/web/**/*.test.ts", "src/web/**/*.test.tsx", "src/contracts/**/*.test.ts"],
          exclude,
        },
      },
    ],
  },
});
