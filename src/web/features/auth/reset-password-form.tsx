import { TriangleAlert } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { AUTH_MESSAGES, newPasswordSchema } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { authClient } from "../../lib/auth-client";
import { PasswordInput } from "./password-input";
import { showErrorToast, showSuccessToast, showThrownError, validateForm } from "./show-toast";

type Values = { password: string; confirmPassword: string };

const INVALID_LINK = "This reset link is invalid or has expired. Please request a new one.";

/** Set a new password; `token` comes from the emailed link (Better Auth puts it in the query string). */
export function ResetPasswordForm({ token, linkError }: { token: string | null; linkError: boolean }) {
  const navigate = useNavigate();
  const id = useId();
  const { register, handleSubmit, setError, clearErrors, formState } = useForm<Values>({
    defaultValues: { password: "", confirmPassword: "" },
  });
  const usable = token !== null && !linkError;

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(newPasswordSchema, values, setError);
    if (!parsed) return;
    if (!token || linkError) {
      showErrorToast({ title: AUTH_MESSAGES.updateFailed, description: INVALID_LINK });
      return;
    }
    try {
      const { error } = await authClient.resetPassword({ newPassword: parsed.password, token });
      if (error) {
        showErrorToast({
          title: AUTH_MESSAGES.updateFailed,
          description: error.message ?? "Please try again",
        });
        return;
      }
      showSuccessToast({ title: AUTH_MESSAGES.passwordUpdatedTitle });
      // Better Auth does not sign the user in after a reset: they log in with the new password.
      navigate("/auth?tab=login", { replace: true });
    } catch (error) {
      showThrownError(error, AUTH_MESSAGES.updateFailed);
    }
  });

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Set a new password</h1>
      <p className="mt-2 text-sm text-muted">Choose a new password for your account.</p>
      {!usable && (
        <div
          role="alert"
          className="mt-5 flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            {INVALID_LINK}{" "}
            <Link to="/auth" className="font-medium underline underline-offset-2">
              Back to sign in
            </Link>
          </p>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
        <div className="space-y-2">
          <Label htmlFor={`${id}-password`}>New Password</Label>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="new-password"
            placeholder="At least 6 characters"
            aria-invalid={formState.errors.password ? true : undefined}
            {...register("password")}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-confirm`}>Confirm Password</Label>
          <PasswordInput
            id={`${id}-confirm`}
            autoComplete="new-password"
            aria-invalid={formState.errors.confirmPassword ? true : undefined}
            {...register("confirmPassword")}
          />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? "Updating..." : "Update Password"}
        </Button>
      </form>
    </div>
  );
}
