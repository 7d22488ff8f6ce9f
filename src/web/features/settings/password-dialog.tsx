import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { PasswordField } from "../auth/password-field";

/** The answer of a password-confirmed action: done (the dialog closes), or refused and why. */
export type PasswordOutcome = { done: true } | { done: false; message: string | null };

/** Asks for the account password before a security change; stays open (and busy) while `onConfirm` runs. */
export function PasswordDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busyLabel,
  destructive = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  busyLabel: string;
  destructive?: boolean;
  /** Done closes the dialog; a refusal's message (a wrong password...) shows under the field. */
  onConfirm: (password: string) => Promise<PasswordOutcome>;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setBusy(true);
    setProblem(undefined);
    const outcome = await onConfirm(password);
    setBusy(false);
    if (outcome.done) {
      setPassword("");
      onOpenChange(false);
    } else {
      setProblem(outcome.message ?? undefined);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-5">
          <PasswordField
            id={`${id}-password`}
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={problem}
            required
          />
          <Button
            type="submit"
            variant={destructive ? "destructive" : "primary"}
            className="w-full"
            disabled={busy || password === ""}
          >
            {busy ? busyLabel : confirmLabel}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
