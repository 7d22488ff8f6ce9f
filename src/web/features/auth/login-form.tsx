import { useId } from "react";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { AUTH_MESSAGES, credentialsSchema } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { authClient } from "../../lib/auth-client";
import { useAfterSignInPath } from "./after-sign-in";
import { EmailField } from "./email-field";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { PasswordField } from "./password-field";
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
  const { errors } = formState;

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(credentialsSchema, values, setError);
    if (!parsed) return;
    try {
      const { data, error } = await authClient.signIn.email(parsed);
      if (error) {
        const message = error.message ?? "Please try again";
        showErrorToast({ title: AUTH_MESSAGES.signInFailed, description: message });
        // Shown under the password: the server does not say which of the two was wrong, on purpose.
        setError("password", { message });
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
      <EmailField id={`${id}-email`} error={errors.email?.message} {...register("email")} />
      <PasswordField
        id={`${id}-password`}
        label="Password"
        labelAside={<ForgotPasswordDialog />}
        autoComplete="current-password"
        error={errors.password?.message}
        {...register("password")}
      />
      <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Signing in..." : "Sign In"}
      </Button>
    </form>
  );
}
