import { type FormEvent, useId, useState } from "react";
import { AUTH_MESSAGES } from "../../../contracts/auth";
import { Button } from "../../components/ui/button";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { authClient } from "../../lib/auth-client";
import { showErrorToast, showThrownError } from "./show-toast";

/** Second sign-in step when two-factor is on: a code from the app, or one of the backup codes. */
export function TwoFactorCodeForm({ onVerified, onBack }: { onVerified: () => void; onBack: () => void }) {
  const id = useId();
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [code, setCode] = useState("");
  const [verifying, setVerifying] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setVerifying(true);
    setProblem(undefined);
    try {
      const trimmed = code.trim();
      const { error } = useBackupCode
        ? await authClient.twoFactor.verifyBackupCode({ code: trimmed })
        : await authClient.twoFactor.verifyTotp({ code: trimmed });
      if (error) {
        const message = error.message ?? "Please try again";
        showErrorToast({ title: AUTH_MESSAGES.signInFailed, description: message });
        setProblem(message);
        return;
      }
      onVerified();
    } catch (error) {
      showThrownError(error, AUTH_MESSAGES.signInFailed);
    } finally {
      setVerifying(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div>
        <p className="text-base font-semibold text-ink">Two-factor authentication</p>
        <p className="mt-1 text-sm text-muted">
          {useBackupCode
            ? "Enter one of the backup codes you saved when you turned it on."
            : "Enter the 6-digit code from your authenticator app."}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-code`}>{useBackupCode ? "Backup code" : "Authentication code"}</Label>
        <Input
          id={`${id}-code`}
          autoFocus
          autoComplete="one-time-code"
          inputMode={useBackupCode ? "text" : "numeric"}
          placeholder={useBackupCode ? "xxxxx-xxxxx" : "123456"}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          className="font-mono tracking-widest"
          {...fieldErrorProps(`${id}-code-error`, problem)}
        />
        <FieldError id={`${id}-code-error`} message={problem} />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={verifying || code.trim() === ""}>
        {verifying ? "Verifying..." : "Verify"}
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <Button
          variant="link"
          size="sm"
          onClick={() => {
            setUseBackupCode(!useBackupCode);
            setCode("");
            setProblem(undefined);
          }}
        >
          {useBackupCode ? "Use the authenticator app" : "Use a backup code instead"}
        </Button>
        <Button variant="link" size="sm" onClick={onBack}>
          Back to sign in
        </Button>
      </div>
    </form>
  );
}
