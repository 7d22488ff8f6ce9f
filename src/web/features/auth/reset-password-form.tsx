import { TriangleAlert } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { AUTH_MESSAGES, newPasswordSchema } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { FieldError } from "../../components/ui/field-error";
import { authClient } from "../../lib/auth-client";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { PasswordField } from "./password-field";
import { showErrorToast, showSuccessToast, showThrownError, validateForm } from "./show-toast";

type Values = { password: string; confirmPassword: string };

export const INVALID_RESET_LINK = "This reset link is invalid or has expired. Please request a new one.";

function RequestNewLink() {
  return (
    <ForgotPasswordDialog
      trigger={
        <Button size="lg" className="w-full">
          Request a new link
        </Button>
      }
    />
  );
}

/**
 * Set a new password; `token` comes from the emailed link (Better Auth puts it in the query string).
 * Without a usable link the form is disabled and the way forward is to request a new one.
 */
export function ResetPasswordForm({ token, linkError }: { token: string | null; linkError: boolean }) {
  const navigate = useNavigate();
  const id = useId();
  const { register, handleSubmit, setError, clearErrors, formState } = useForm<Values>({
    defaultValues: { password: "", confirmPassword: "" },
  });
  const { errors } = formState;
  const usable = token !== null && !linkError;

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(newPasswordSchema, values, setError);
    if (!parsed || !token) return;
    try {
      const { error } = await authClient.resetPassword({ newPassword: parsed.password, token });
      if (error) {
        const message = error.message ?? "Please try again";
        showErrorToast({ title: AUTH_MESSAGES.updateFailed, description: message });
        setError("root.server", { message });
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
            {INVALID_RESET_LINK}{" "}
            <Link to="/auth" className="font-medium underline underline-offset-2">
              Back to sign in
            </Link>
          </p>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
        {/* A disabled fieldset disables every field in it: there is nothing to reset without a link. */}
        <fieldset disabled={!usable} className="min-w-0 space-y-5">
          <PasswordField
            id={`${id}-password`}
            label="New Password"
            autoComplete="new-password"
            placeholder="At least 6 characters"
            error={errors.password?.message}
            {...register("password")}
          />
          <PasswordField
            id={`${id}-confirm`}
            label="Confirm Password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register("confirmPassword")}
          />
        </fieldset>
        <FieldError id={`${id}-form-error`} message={errors.root?.server?.message} />
        {usable ? (
          <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? "Updating..." : "Update Password"}
          </Button>
        ) : (
          <RequestNewLink />
        )}
        {usable && errors.root?.server && (
          <p className="text-center text-sm text-muted">
            Link expired?{" "}
            <ForgotPasswordDialog
              trigger={
                <Button variant="link" size="sm" className="h-auto text-sm">
                  Request a new one
                </Button>
              }
            />
          </p>
        )}
      </form>
    </div>
  );
}
