import { type ReactNode, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { AUTH_MESSAGES, forgotPasswordSchema } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { authClient } from "../../lib/auth-client";
import { EmailField } from "./email-field";
import { showErrorToast, showSuccessToast, showThrownError, validateForm } from "./show-toast";

type Values = { email: string };

/** Where the emailed link lands; Better Auth appends the token. */
export const RESET_REDIRECT = "/auth?reset=true";

/** 'Forgot your password?' and its dialog; `trigger` replaces the link that opens it. */
export function ForgotPasswordDialog({ trigger }: { trigger?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const { register, handleSubmit, setError, clearErrors, reset, formState } = useForm<Values>({
    defaultValues: { email: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = validateForm(forgotPasswordSchema, values, setError);
    if (!parsed) return;
    try {
      const { error } = await authClient.requestPasswordReset({
        email: parsed.email,
        redirectTo: RESET_REDIRECT,
      });
      if (error) {
        const message = error.message ?? "Please try again";
        showErrorToast({ title: AUTH_MESSAGES.resetFailed, description: message });
        setError("email", { message });
        return;
      }
      showSuccessToast({ title: AUTH_MESSAGES.checkEmailTitle, description: AUTH_MESSAGES.checkEmail });
      setOpen(false);
      reset();
    } catch (error) {
      showThrownError(error, AUTH_MESSAGES.resetFailed);
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        {trigger ?? (
          <Button variant="link" size="sm" className="h-auto text-sm">
            Forgot your password?
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reset your password</DialogTitle>
          <DialogDescription>
            Enter the email you signed up with and we'll send you a link to set a new password.
          </DialogDescription>
        </DialogHeader>
        {/* The dialog is portalled, but React events still bubble to the login form around its trigger. */}
        <form
          onSubmit={(event) => {
            event.stopPropagation();
            void onSubmit(event);
          }}
          noValidate
          className="space-y-5"
        >
          <EmailField id={`${id}-email`} error={formState.errors.email?.message} {...register("email")} />
          <Button type="submit" className="w-full" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? "Sending..." : "Send Reset Link"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
