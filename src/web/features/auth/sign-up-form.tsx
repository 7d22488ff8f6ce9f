import { useId } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { AUTH_MESSAGES, credentialsSchema, signUpErrorToast } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { authClient } from "../../lib/auth-client";
import { useAfterSignInPath } from "./after-sign-in";
import { EmailField } from "./email-field";
import { PasswordInput } from "./password-input";
import { showErrorToast, showSuccessToast, showThrownError, validateForm } from "./show-toast";

type Values = { email: string; password: string };

export function SignUpForm() {
  const navigate = useNavigate();
  const afterSignIn = useAfterSignInPath();
  const id = useId();
  const { register, handleSubmit, setError, clearErrors, formState } = useForm<Values>({
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(credentialsSchema, values, setError);
    if (!parsed) return;
    const { email, password } = parsed;
    try {
      const { error } = await authClient.signUp.email({
        email,
        password,
        name: email.split("@")[0] ?? email,
      });
      if (error) {
        showErrorToast(signUpErrorToast(error.message));
        return;
      }
      showSuccessToast({
        title: AUTH_MESSAGES.accountCreatedTitle,
        description: AUTH_MESSAGES.accountCreated,
      });
      navigate(afterSignIn);
    } catch (error) {
      showThrownError(error, AUTH_MESSAGES.signUpFailed);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <EmailField id={`${id}-email`} invalid={Boolean(formState.errors.email)} {...register("email")} />
      <div className="space-y-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <PasswordInput
          id={`${id}-password`}
          autoComplete="new-password"
          placeholder="At least 6 characters"
          aria-invalid={formState.errors.password ? true : undefined}
          {...register("password")}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
