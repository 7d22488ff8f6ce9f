import { useId } from "react";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { AUTH_MESSAGES, credentialsSchema } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { authClient } from "../../lib/auth-client";
import { useAfterSignInPath } from "./after-sign-in";
import { EmailField } from "./email-field";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { PasswordInput } from "./password-input";
import { showErrorToast, showThrownError, validateForm } from "./show-toast";
import { TwoFactorCodeForm } from "./two-factor-code-form";

type Values = { email: string; password: string };

const TWO_FACTOR_STEP = "two-factor";

export function LoginForm() {
  const navigate = useNavigate();
  const afterSignIn = useAfterSignInPath();
  const id = useId();
  // In the URL, not in state: the auth page swaps in a spinner while the session re-checks after sign-in.
  const needsCode = useSearchParams()[0].get("step") === TWO_FACTOR_STEP;
  const { register, handleSubmit, setError, clearErrors, formState } = useForm<Values>({
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(credentialsSchema, values, setError);
    if (!parsed) return;
    try {
      const { data, error } = await authClient.signIn.email(parsed);
      if (error) {
        showErrorToast({
          title: AUTH_MESSAGES.signInFailed,
          description: error.message ?? "Please try again",
        });
        return;
      }
      if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) {
        navigate(`/auth?tab=login&step=${TWO_FACTOR_STEP}`, { replace: true });
        return;
      }
      navigate(afterSignIn);
    } catch (error) {
      showThrownError(error, AUTH_MESSAGES.signInFailed);
    }
  });

  if (needsCode) {
    return (
      <TwoFactorCodeForm
        onVerified={() => navigate(afterSignIn)}
        onBack={() => navigate("/auth?tab=login", { replace: true })}
      />
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <EmailField id={`${id}-email`} invalid={Boolean(formState.errors.email)} {...register("email")} />
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-3">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <ForgotPasswordDialog />
        </div>
        <PasswordInput
          id={`${id}-password`}
          autoComplete="current-password"
          aria-invalid={formState.errors.password ? true : undefined}
          {...register("password")}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Signing in..." : "Sign In"}
      </Button>
    </form>
  );
}
