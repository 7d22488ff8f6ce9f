import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "flatfee-webhook-config-"));
const production = {
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_a",
  STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_b",
  SMTP_URL: "smtp://mail:587",
};

describe("webhook configuration", () => {
  it("lets the local setup reach this machine only, over http or https", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).webhooks).toEqual({
      requireHttps: false,
      allowPrivateHosts: ["localhost", "127.0.0.1", "::1"],
    });
    expect(
      loadConfig({ DATA_DIR: dataDir(), WEBHOOK_ALLOW_PRIVATE_HOSTS: " Receiver.local , 127.0.0.1 " })
        .webhooks,
    ).toEqual({ requireHttps: false, allowPrivateHosts: ["receiver.local", "127.0.0.1"] });
  });

  it("gives a copy on the emulator served to others (a demo, a staging server) no private address", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), APP_URL: "https://demo.flatfee.example" }).webhooks).toEqual({
      requireHttps: false,
      allowPrivateHosts: [],
    });
    expect(
      loadConfig({ DATA_DIR: dataDir(), APP_URL: "http://127.0.0.1:4000" }).webhooks.allowPrivateHosts,
    ).toEqual(["localhost", "127.0.0.1", "::1"]);
  });

  it("is https only with no private address in production, where an allow-list stops boot", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ...production }).webhooks).toEqual({
      requireHttps: true,
      allowPrivateHosts: [],
    });
    const boot = () =>
      loadConfig({ DATA_DIR: dataDir(), ...production, WEBHOOK_ALLOW_PRIVATE_HOSTS: "localhost" });
    expect(boot).toThrow(ConfigError);
    expect(boot).toThrow("WEBHOOK_ALLOW_PRIVATE_HOSTS");
  });
});
