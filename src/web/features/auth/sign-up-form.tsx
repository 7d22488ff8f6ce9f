import { useId } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { AUTH_MESSAGES, credentialsSchema, signUpErrorToast } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { FieldError } from "../../components/ui/field-error";
import { authClient } from "../../lib/auth-client";
import { useAfterSignInPath } from "./after-sign-in";
import { EmailField } from "./email-field";
import { PasswordField } from "./password-field";
import { showErrorToast, showSuccessToast, showThrownError, validateForm } from "./show-toast";

type Values = { email: string; password: string };

/** Which field a refused sign-up is about: a taken email, a breached password, or neither. */
function fieldOfSignUpError(title: string): "email" | "password" | "root.server" {
  if (title === AUTH_MESSAGES.accountExistsTitle) return "email";
  if (title === AUTH_MESSAGES.weakPasswordTitle) return "password";
  return "root.server";
}

export function SignUpForm() {
  const navigate = useNavigate();
  const afterSignIn = useAfterSignInPath();
  const id = useId();
  const { register, handleSubmit, setError, clearErrors, formState } = useForm<Values>({
    defaultValues: { email: "", password: "" },
  });
  const { errors } = formState;

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
        const toast = signUpErrorToast(error.message);
        showErrorToast(toast);
        setError(fieldOfSignUpError(toast.title), { message: toast.description ?? toast.title });
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
      <EmailField id={`${id}-email`} error={errors.email?.message} {...register("email")} />
      <PasswordField
        id={`${id}-password`}
        label="Password"
        autoComplete="new-password"
        placeholder="At least 6 characters"
        error={errors.password?.message}
        {...register("password")}
      />
      <FieldError id={`${id}-form-error`} message={errors.root?.server?.message} />
      <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
