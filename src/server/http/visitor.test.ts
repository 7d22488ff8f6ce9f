import { describe, expect, it } from "vitest";
import { checkoutVisitor, networkOf } from "./visitor";

describe("checkout visitors", () => {
  it("counts an IPv4 address, or an IPv6 /64 however it is written, as one network", () => {
    expect(networkOf("203.0.113.9")).toBe("203.0.113.9");
    expect(networkOf("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(networkOf("2001:db8:a:b::1")).toBe("2001:db8:a:b::/64");
    expect(networkOf("2001:0db8:000a:000b:ffff:1:2:3")).toBe("2001:db8:a:b::/64");
    expect(networkOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(networkOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(networkOf("::1")).toBe("0:0:0:0::/64");
  });

  it("tells browsers on one network apart, and never carries the address itself", () => {
    const firefox = checkoutVisitor("key", "2001:db8:a:b::1", "Firefox");
    const chrome = checkoutVisitor("key", "2001:db8:a:b::2", "Chrome");
    expect(chrome.networkHash).toBe(firefox.networkHash);
    expect(chrome.visitorHash).not.toBe(firefox.visitorHash);
    expect(checkoutVisitor("key", "2001:db8:a:b::99", "Firefox")).toEqual(firefox);
    expect(JSON.stringify(firefox)).not.toContain("2001");
    expect(checkoutVisitor("other key", "2001:db8:a:b::1", "Firefox")).not.toEqual(firefox);
  });
});
