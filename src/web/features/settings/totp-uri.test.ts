import { describe, expect, it } from "vitest";
import { totpSecretOf } from "./totp-uri";

describe("totpSecretOf", () => {
  it("reads the secret of an otpauth URI, grouped in fours", () => {
    const uri =
      "otpauth://totp/Flatfee:ada%40example.com?secret=JBSWY3DPEHPK3PXPAB&issuer=Flatfee&digits=6&period=30";
    expect(totpSecretOf(uri)).toBe("JBSW Y3DP EHPK 3PXP AB");
  });

  it("is empty for anything else", () => {
    expect(totpSecretOf("not a uri")).toBe("");
    expect(totpSecretOf("otpauth://totp/x?issuer=Flatfee")).toBe("");
  });
});
