import { describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  credentialsSchema,
  firstValidationToast,
  forgotPasswordSchema,
  newPasswordSchema,
  signUpErrorToast,
} from "./auth";

const toastFor = (
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  return firstValidationToast(result.error as never);
};

describe("auth validation (product rules, Validation rules)", () => {
  it("accepts a valid email and a password of 6 characters", () => {
    expect(credentialsSchema.safeParse({ email: "a@b.co", password: "123456" }).success).toBe(true);
  });

  it.each(["", "plainaddress", "a@", "@b.co", "a b@c.co"])(
    "rejects the email %j with 'Please enter a valid email'",
    (email) => {
      expect(toastFor(credentialsSchema, { email, password: "123456" })).toEqual({
        title: "Validation Error",
        description: "Please enter a valid email",
      });
    },
  );

  it("rejects a 5-character password with 'Password must be at least 6 characters'", () => {
    expect(toastFor(credentialsSchema, { email: "a@b.co", password: "12345" })).toEqual({
      title: "Validation Error",
      description: "Password must be at least 6 characters",
    });
  });

  it("shows only the first failure when both fields are wrong", () => {
    expect(toastFor(credentialsSchema, { email: "nope", password: "1" })?.description).toBe(
      AUTH_MESSAGES.invalidEmail,
    );
  });

  it("checks the email of the forgot-password form", () => {
    expect(toastFor(forgotPasswordSchema, { email: "nope" })?.description).toBe(AUTH_MESSAGES.invalidEmail);
    expect(toastFor(forgotPasswordSchema, { email: " a@b.co " })).toBeUndefined();
  });

  it("requires the new password and its confirmation to match: 'Passwords don't match'", () => {
    expect(toastFor(newPasswordSchema, { password: "abcdef", confirmPassword: "abcdeg" })).toEqual({
      title: "Passwords don't match",
      description: "Please make sure both passwords are the same.",
    });
    expect(toastFor(newPasswordSchema, { password: "abcdef", confirmPassword: "abcdef" })).toBeUndefined();
  });

  it("applies the length rule to the new password too", () => {
    expect(toastFor(newPasswordSchema, { password: "abc", confirmPassword: "abc" })?.description).toBe(
      AUTH_MESSAGES.shortPassword,
    );
  });
});

describe("sign-up error toasts (product rules, Error catalogue)", () => {
  it.each(["User already exists. Use another email.", "Email already registered"])(
    "maps %j to 'Account already exists'",
    (message) => {
      expect(signUpErrorToast(message)).toEqual({
        title: "Account already exists",
        description: "This email is already registered. Please sign in instead or use a different email.",
      });
    },
  );

  it.each(["Password is too weak", "This password has been leaked", AUTH_MESSAGES.serverCommonPassword])(
    "maps %j to 'Weak password detected'",
    (message) => {
      expect(signUpErrorToast(message).title).toBe("Weak password detected");
      expect(signUpErrorToast(message).description).toBe(
        "This password has been found in data breaches. Please choose a stronger, unique password for your security.",
      );
    },
  );

  it("shows any other server message under 'Sign up failed'", () => {
    expect(signUpErrorToast("Database is on fire")).toEqual({
      title: "Sign up failed",
      description: "Database is on fire",
    });
    expect(signUpErrorToast(undefined)).toEqual({ title: "Sign up failed", description: "Please try again" });
  });
});
