import QRCode from "qrcode";
import { type FormEvent, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../components/ui/button";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { authClient } from "../../lib/auth-client";
import { authCall } from "./auth-call";
import { BackupCodes } from "./backup-codes";
import { totpSecretOf } from "./totp-uri";

export type Enrolment = { totpURI: string; backupCodes: string[] };

function useQrCode(text: string): string | null {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(text, { margin: 1, width: 192 }).then(
      (url) => current && setDataUrl(url),
      () => current && setDataUrl(null),
    );
    return () => {
      current = false;
    };
  }, [text]);
  return dataUrl;
}

/** Scan the QR code (or type the secret), keep the backup codes, then confirm with a first code. */
export function TwoFactorEnrolment({ enrolment, onDone }: { enrolment: Enrolment; onDone: () => void }) {
  const id = useId();
  const qrCode = useQrCode(enrolment.totpURI);
  const [code, setCode] = useState("");
  const [verifying, setVerifying] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setVerifying(true);
    setProblem(undefined);
    try {
      await authCall(authClient.twoFactor.verifyTotp({ code: code.trim() }));
      toast.success("Two-factor authentication is on", {
        description: "Sign-in now asks for a code from your app.",
      });
      onDone();
    } catch (error) {
      if (!(error instanceof TypeError)) {
        const message = error instanceof Error ? error.message : undefined;
        toast.error("Verification failed", { description: message });
        setProblem(message ?? "Please try again");
      }
    } finally {
      setVerifying(false);
    }
  };

  return (
    <div className="space-y-5">
      <ol className="space-y-5 text-sm text-ink">
        <li className="space-y-3">
          <p>1. Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy...).</p>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
            {qrCode ? (
              <img
                src={qrCode}
                alt="QR code to add Flatfee to your authenticator app"
                className="size-48 rounded-lg ring-1 ring-line"
              />
            ) : (
              <div className="size-48 animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />
            )}
            <div className="min-w-0 space-y-1">
              <p className="text-xs text-muted">Can't scan it? Enter this key instead:</p>
              <p data-testid="totp-secret" className="font-mono text-sm break-all text-ink">
                {totpSecretOf(enrolment.totpURI)}
              </p>
            </div>
          </div>
        </li>
        <li className="space-y-3">
          <p>2. Save your backup codes.</p>
          <BackupCodes codes={enrolment.backupCodes} />
        </li>
      </ol>
      <form onSubmit={verify} className="space-y-2">
        <Label htmlFor={`${id}-code`}>3. Enter the 6-digit code from the app</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={`${id}-code`}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            className="font-mono tracking-widest sm:max-w-40"
            {...fieldErrorProps(`${id}-code-error`, problem)}
          />
          <Button type="submit" disabled={verifying || code.trim().length !== 6}>
            {verifying ? "Verifying..." : "Verify and turn on"}
          </Button>
        </div>
        <FieldError id={`${id}-code-error`} message={problem} />
      </form>
    </div>
  );
}
