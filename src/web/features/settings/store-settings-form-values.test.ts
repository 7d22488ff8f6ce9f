import { describe, expect, it } from "vitest";
import { STORE_SETTINGS_MESSAGES, storeSettingsInputSchema } from "../../../contracts/store-settings";
import {
  formValuesOf,
  STORE_TEXT_LIMITS,
  storeSettingsProblem,
  toStoreSettingsInput,
} from "./store-settings-form-values";

const values = { storeName: "Ada's Prints", storeTagline: "", storeDescription: "" };

describe("store settings form", () => {
  it("starts from the saved settings, empty for null", () => {
    expect(
      formValuesOf({ storeName: "A", storeTagline: null, storeDescription: null, profilePictureUrl: null }),
    ).toEqual({ storeName: "A", storeTagline: "", storeDescription: "" });
  });

  it("gives the contract's message for each field over its limit, counting trimmed text", () => {
    expect(storeSettingsProblem(values)).toBeUndefined();
    expect(storeSettingsProblem({ ...values, storeName: "x".repeat(101) })).toEqual({
      field: "storeName",
      message: STORE_SETTINGS_MESSAGES.nameTooLong,
    });
    expect(storeSettingsProblem({ ...values, storeTagline: "x".repeat(201) })?.message).toBe(
      STORE_SETTINGS_MESSAGES.taglineTooLong,
    );
    expect(storeSettingsProblem({ ...values, storeDescription: "x".repeat(1001) })?.message).toBe(
      STORE_SETTINGS_MESSAGES.descriptionTooLong,
    );
    expect(storeSettingsProblem({ ...values, storeName: ` ${"x".repeat(100)} ` })).toBeUndefined();
  });

  it("has the same limits as the contract", () => {
    for (const [field, max] of Object.entries(STORE_TEXT_LIMITS)) {
      expect(storeSettingsInputSchema.safeParse({ [field]: "x".repeat(max) }).success).toBe(true);
      expect(storeSettingsInputSchema.safeParse({ [field]: "x".repeat(max + 1) }).success).toBe(false);
    }
  });

  it("keeps, removes or replaces the picture", () => {
    expect(toStoreSettingsInput(values, { kind: "keep" })).not.toHaveProperty("profilePictureUploadId");
    expect(toStoreSettingsInput(values, { kind: "remove" }).profilePictureUploadId).toBeNull();
    expect(toStoreSettingsInput(values, { kind: "replace", uploadId: "u1" }).profilePictureUploadId).toBe(
      "u1",
    );
  });
});
