import { describe, expect, it } from "vitest";
import { BILLING_MESSAGES } from "../../../contracts/seller";
import { ApiError } from "../../lib/api";
import { redirectFailureToast } from "./stripe-redirect";

describe("redirectFailureToast", () => {
  const refused = new ApiError(409, "already_subscribed", "Your subscription is already active.");

  it("uses the spec's titles with the server's reason for a 4xx", () => {
    expect(redirectFailureToast("checkout", refused)).toEqual({
      title: BILLING_MESSAGES.subscribeFailed,
      description: "Your subscription is already active.",
    });
    expect(redirectFailureToast("portal", refused)).toEqual({
      title: BILLING_MESSAGES.portalFailed,
      description: "Your subscription is already active.",
    });
    expect(redirectFailureToast("onboarding", refused)).toEqual({
      title: "Error",
      description: BILLING_MESSAGES.connectFailed,
    });
  });

  it("stays quiet for failures already toasted globally", () => {
    expect(redirectFailureToast("checkout", new ApiError(502, "INTERNAL", "Bad gateway"))).toBeNull();
    expect(redirectFailureToast("portal", new TypeError("Failed to fetch"))).toBeNull();
  });

  it("still tells the user when the answer was unusable", () => {
    expect(redirectFailureToast("checkout", new Error("Unexpected response"))).toEqual({
      title: BILLING_MESSAGES.subscribeFailed,
    });
  });
});
