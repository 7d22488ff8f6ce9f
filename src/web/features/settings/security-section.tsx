import { ShieldCheck, ShieldOff } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { authCall } from "./auth-call";
import { BackupCodes } from "./backup-codes";
import { PasswordDialog, type PasswordOutcome } from "./password-dialog";
import { type Enrolment, TwoFactorEnrolment } from "./two-factor-enrolment";

type PasswordAction = "enable" | "disable" | "codes";

const DIALOGS: Record<
  PasswordAction,
  { title: string; description: string; confirmLabel: string; busyLabel: string; failure: string }
> = {
  enable: {
    title: "Turn on two-factor authentication",
    description: "Enter your password to set up an authenticator app.",
    confirmLabel: "Continue",
    busyLabel: "Checking...",
    failure: "Couldn't turn on two-factor authentication",
  },
  disable: {
    title: "Turn off two-factor authentication",
    description: "Sign-in will no longer ask for a code. Enter your password to confirm.",
    confirmLabel: "Turn off",
    busyLabel: "Turning off...",
    failure: "Couldn't turn off two-factor authentication",
  },
  codes: {
    title: "New backup codes",
    description: "Your old backup codes stop working. Enter your password to continue.",
    confirmLabel: "Generate new codes",
    busyLabel: "Generating...",
    failure: "Couldn't generate backup codes",
  },
};

/**
 * Runs a password-confirmed action; a wrong password (or other refusal) is toasted and answered, so
 * the dialog stays and shows it under the field.
 */
async function attempt(action: PasswordAction, run: () => Promise<void>): Promise<PasswordOutcome> {
  try {
    await run();
    return { done: true };
  } catch (error) {
    // A network failure (TypeError) was already reported globally.
    if (error instanceof TypeError) return { done: false, message: null };
    const message = error instanceof Error ? error.message : null;
    toast.error(DIALOGS[action].failure, { description: message ?? undefined });
    return { done: false, message };
  }
}

/** Two-factor authentication with an authenticator app: turn on (QR code, backup codes, first code), off, new codes. */
export function SecuritySection() {
  const { data: session } = authClient.useSession();
  const enabled = Boolean(session?.user.twoFactorEnabled);
  const [dialog, setDialog] = useState<PasswordAction | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  const confirm = (password: string) => {
    if (!dialog) return Promise.resolve<PasswordOutcome>({ done: false, message: null });
    const action = dialog;
    return attempt(action, async () => {
      if (action === "enable") {
        const started = await authCall(authClient.twoFactor.enable({ password }));
        if (started.method === "totp") setEnrolment(started);
      }
      if (action === "codes") {
        setFreshCodes((await authCall(authClient.twoFactor.generateBackupCodes({ password }))).backupCodes);
      }
      if (action === "disable") {
        await authCall(authClient.twoFactor.disable({ password }));
        setFreshCodes(null);
        toast.success("Two-factor authentication is off");
      }
    });
  };

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle>Security</CardTitle>
          <Badge tone={enabled ? "success" : "neutral"}>{enabled ? "Two-factor on" : "Two-factor off"}</Badge>
        </div>
        <CardDescription>
          Two-factor authentication asks for a code from an authenticator app each time you sign in.
        </CardDescription>
      </CardHeader>
      <div className="space-y-5 p-6">
        {enrolment && !enabled ? (
          <TwoFactorEnrolment enrolment={enrolment} onDone={() => setEnrolment(null)} />
        ) : enabled ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setDialog("codes")}>
              New backup codes
            </Button>
            <Button variant="secondary" onClick={() => setDialog("disable")} className="text-red-700">
              <ShieldOff aria-hidden="true" />
              Turn off two-factor
            </Button>
          </div>
        ) : (
          <Button onClick={() => setDialog("enable")}>
            <ShieldCheck aria-hidden="true" />
            Turn on two-factor
          </Button>
        )}
        {enabled && freshCodes && <BackupCodes codes={freshCodes} />}
      </div>
      {dialog && (
        <PasswordDialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          {...DIALOGS[dialog]}
          destructive={dialog === "disable"}
          onConfirm={confirm}
        />
      )}
    </Card>
  );
}
