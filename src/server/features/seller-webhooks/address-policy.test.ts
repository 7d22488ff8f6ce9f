import { describe, expect, it } from "vitest";
import { WEBHOOK_MESSAGES } from "../../../contracts/webhooks";
import {
  checkEndpointUrl,
  isForbiddenAddress,
  type Resolver,
  resolveDeliveryTarget,
  STRICT_WEBHOOK_POLICY,
  type WebhookNetworkPolicy,
  WebhookTargetRefused,
} from "./address-policy";

describe("isForbiddenAddress", () => {
  it.each([
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "127.0.0.1",
    "127.8.9.10",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "::ffff:169.254.169.254",
    "0:0:0:0:0:ffff:c0a8:0101",
    "::127.0.0.1",
    "64:ff9b::a00:1",
    "2002:c0a8:101::1",
    "2001:db8::1",
    "[::1]",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe("checkEndpointUrl", () => {
  const local: WebhookNetworkPolicy = { requireHttps: false, allowPrivateHosts: ["localhost"] };
  const refusal = (raw: string, policy = local) => {
    try {
      checkEndpointUrl(raw, policy);
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };

  it("takes public https URLs, and http ones outside production", () => {
    expect(checkEndpointUrl("https://hooks.example.com/flatfee?x=1", STRICT_WEBHOOK_POLICY).href).toBe(
      "https://hooks.example.com/flatfee?x=1",
    );
    expect(refusal("http://hooks.example.com/flatfee")).toBe("accepted");
  });

  it("refuses http in production, other schemes, credentials and nonsense", () => {
    expect(refusal("http://hooks.example.com/", STRICT_WEBHOOK_POLICY)).toBe(WEBHOOK_MESSAGES.httpsRequired);
    expect(refusal("ftp://hooks.example.com/")).toBe(WEBHOOK_MESSAGES.urlScheme);
    expect(refusal("javascript:alert(1)")).toBe(WEBHOOK_MESSAGES.urlScheme);
    expect(refusal("https://user:pass@hooks.example.com/")).toBe(WEBHOOK_MESSAGES.urlCredentials);
    expect(refusal("hooks.example.com/flatfee")).toBe(WEBHOOK_MESSAGES.urlInvalid);
  });

  it.each([
    "https://10.0.0.1/hook",
    "https://192.168.0.10/hook",
    "https://127.0.0.1:8080/hook",
    "https://2130706433/hook",
    "https://0x7f.0.0.1/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[fe80::1]/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://localhost/hook",
    "https://api.localhost/hook",
    "https://0.0.0.0/hook",
  ])("refuses the private address in %s", (raw) => {
    expect(refusal(raw, STRICT_WEBHOOK_POLICY)).toBe(WEBHOOK_MESSAGES.privateAddress);
  });

  it("lets allow-listed hosts through, by the name in the URL only", () => {
    expect(refusal("http://localhost:4000/hook")).toBe("accepted");
    expect(refusal("http://127.0.0.1:4000/hook")).toBe(WEBHOOK_MESSAGES.privateAddress);
    expect(
      refusal("http://127.0.0.1:4000/hook", { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] }),
    ).toBe("accepted");
    expect(refusal("http://[::1]:4000/hook", { requireHttps: false, allowPrivateHosts: ["[::1]"] })).toBe(
      "accepted",
    );
  });
});

describe("resolveDeliveryTarget", () => {
  const resolvesTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  const url = (raw: string) => new URL(raw);

  it("answers the checked public addresses, which the connection then uses", async () => {
    expect(
      await resolveDeliveryTarget(
        url("https://hooks.example.com/x"),
        STRICT_WEBHOOK_POLICY,
        resolvesTo("93.184.215.14"),
      ),
    ).toEqual([{ address: "93.184.215.14", family: 4 }]);
  });

  it("refuses a name that resolves to a private address, even next to a public one", async () => {
    for (const addresses of [
      ["10.0.0.5"],
      ["93.184.215.14", "127.0.0.1"],
      ["::ffff:192.168.0.1"],
      ["fd00::1"],
    ]) {
      await expect(
        resolveDeliveryTarget(
          url("https://rebind.example.com/x"),
          STRICT_WEBHOOK_POLICY,
          resolvesTo(...addresses),
        ),
      ).rejects.toThrow(/resolves to a private address/);
    }
  });

  it("checks literal addresses without resolving, and refuses http in production", async () => {
    const never: Resolver = async () => {
      throw new Error("must not resolve");
    };
    await expect(
      resolveDeliveryTarget(url("https://10.1.1.1/x"), STRICT_WEBHOOK_POLICY, never),
    ).rejects.toBeInstanceOf(WebhookTargetRefused);
    await expect(
      resolveDeliveryTarget(url("https://8.8.8.8/x"), STRICT_WEBHOOK_POLICY, never),
    ).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
    await expect(
      resolveDeliveryTarget(url("http://hooks.example.com/x"), STRICT_WEBHOOK_POLICY, resolvesTo("8.8.8.8")),
    ).rejects.toThrow(/https/);
  });

  it("refuses localhost through the system resolver unless allow-listed", async () => {
    await expect(
      resolveDeliveryTarget(url("http://localhost:1/x"), { requireHttps: false, allowPrivateHosts: [] }),
    ).rejects.toThrow(/private address/);
    const allowed = await resolveDeliveryTarget(url("http://localhost:1/x"), {
      requireHttps: false,
      allowPrivateHosts: ["localhost"],
    });
    expect(allowed.length).toBeGreaterThan(0);
  });

  it("names a name that does not resolve", async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    await expect(
      resolveDeliveryTarget(url("https://nowhere.example/x"), STRICT_WEBHOOK_POLICY, failing),
    ).rejects.toThrow("Could not resolve nowhere.example (ENOTFOUND)");
  });
});
