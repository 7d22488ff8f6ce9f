import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 6;

export const AUTH_MESSAGES = {
  invalidEmail: "Please enter a valid email",
  shortPassword: "Password must be at least 6 characters",
  passwordsDontMatchTitle: "Passwords don't match",
  passwordsDontMatch: "Please make sure both passwords are the same.",
  validationErrorTitle: "Validation Error",
  accountExistsTitle: "Account already exists",
  accountExists: "This email is already registered. Please sign in instead or use a different email.",
  weakPasswordTitle: "Weak password detected",
  weakPassword:
    "This password has been found in data breaches. Please choose a stronger, unique password for your security.",
  signUpFailed: "Sign up failed",
  signInFailed: "Sign in failed",
  resetFailed: "Password reset failed",
  updateFailed: "Password update failed",
  accountCreatedTitle: "Account created!",
  accountCreated: "Welcome to the product",
  checkEmailTitle: "Check your email",
  checkEmail: "We've sent you a password reset link.",
  passwordUpdatedTitle: "Password updated!",
  notAuthenticated: "User not authenticated",
  /** What the server says when a password is on the common/breached list; the client maps it to weakPassword. */
  serverCommonPassword: "This password is too common and has appeared in data breaches",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
} as const;

export const emailSchema = z.string().trim().email(AUTH_MESSAGES.invalidEmail);
export const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.shortPassword);

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema });
export const forgotPasswordSchema = z.object({ email: emailSchema });
export const newPasswordSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ["confirmPassword"],
  });

export type Toast = { title: string; description?: string };

/** The first validation failure, as the toast the spec asks for ('Validation Error' + message). */
export function firstValidationToast(error: z.ZodError): Toast {
  const issue = error.issues[0];
  if (issue?.message === AUTH_MESSAGES.passwordsDontMatch) {
    return { title: AUTH_MESSAGES.passwordsDontMatchTitle, description: AUTH_MESSAGES.passwordsDontMatch };
  }
  return { title: AUTH_MESSAGES.validationErrorTitle, description: issue?.message ?? "Invalid input" };
}

/** product rules, Error catalogue: which toast a failed sign-up shows, from the server's message. */
export function signUpErrorToast(serverMessage: string | undefined): Toast {
  const message = serverMessage ?? "";
  if (/already registered|already exists/i.test(message)) {
    return { title: AUTH_MESSAGES.accountExistsTitle, description: AUTH_MESSAGES.accountExists };
  }
  if (/password/i.test(message) && /weak|leaked|common|breach/i.test(message)) {
    return { title: AUTH_MESSAGES.weakPasswordTitle, description: AUTH_MESSAGES.weakPassword };
  }
  return { title: AUTH_MESSAGES.signUpFailed, description: message || "Please try again" };
}
