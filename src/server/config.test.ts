import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "flatfee-config-"));

describe("config", () => {
  it("chooses the embedded defaults when nothing is set", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe("http://localhost:3000");
    expect(config.database).toEqual({ kind: "pglite", directory: path.join(dir, "db") });
    expect(config.mail.kind).toBe("mailbox");
    expect(config.payments.kind).toBe("emulator");
    expect(config.authSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps the generated local secrets across restarts", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(loadConfig({ DATA_DIR: dir }).authSecret);
  });

  it("chooses production adapters from the environment", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: "8080",
      APP_URL: "https://shop.example.com/",
      DATABASE_URL: "postgres://u:p@db:5432/app",
      SMTP_URL: "smtp://mail:587",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_a",
      STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_b",
      AUTH_SECRET: "x".repeat(40),
    });
    expect(config.appUrl).toBe("https://shop.example.com");
    expect(config.database).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/app",
      preparedStatements: true,
    });
    expect(config.mail.kind).toBe("smtp");
    expect(config.payments).toMatchObject({ kind: "stripe", secretKey: "sk_live_x" });
    expect(config.trustProxy).toBe(false);
  });

  it.each([
    ["true", true],
    ["10.0.0.0/8,127.0.0.1", "10.0.0.0/8,127.0.0.1"],
  ] as const)("reads TRUST_PROXY=%s", (value, expected) => {
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it("prepares statements on PostgreSQL unless DATABASE_PREPARED_STATEMENTS=false", () => {
    const env = { DATA_DIR: dataDir(), DATABASE_URL: "postgres://u:p@db:5432/app" };
    expect(loadConfig(env).database).toMatchObject({ preparedStatements: true });
    expect(loadConfig({ ...env, DATABASE_PREPARED_STATEMENTS: "false" }).database).toMatchObject({
      preparedStatements: false,
    });
  });

  it.each([
    [{ PORT: "not-a-port" }, "PORT"],
    [{ DATABASE_PREPARED_STATEMENTS: "no" }, "DATABASE_PREPARED_STATEMENTS"],
    [{ DATABASE_URL: "nonsense" }, "DATABASE_URL"],
    [{ STRIPE_SECRET_KEY: "sk_live_x" }, "STRIPE_WEBHOOK_SECRET"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET"],
    [
      { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "a", STRIPE_CONNECT_WEBHOOK_SECRET: "b" },
      "SMTP_URL",
    ],
  ])("stops boot on %o with a message naming %s", (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(name);
  });
});
