import { Ban, CalendarX, EllipsisVertical, Undo2 } from "lucide-react";
import { type ReactNode, useCallback, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { Member } from "../../../contracts/memberships";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogConfirm,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import {
  actionDoneMessage,
  amountPerPeriod,
  availableActions,
  cancelNowWarning,
  MEMBERS_COPY,
  type MemberActionKind,
  memberName,
  refundExplanation,
} from "./member-format";
import { actionFor, useMemberAction } from "./members-api";

type DialogKind = "cancel-now" | "refund";

/** What a row's menu asks of the page. */
export type MemberActionHandlers = {
  cancelAtPeriodEnd: (member: Member) => void;
  openDialog: (kind: DialogKind, member: Member) => void;
  /** The member an action is running for: their menu waits. */
  busyId: string | null;
  /** Each row's menu button, so focus returns to it when a dialog closes. */
  triggerRef: (memberId: string) => (element: HTMLButtonElement | null) => void;
};

/** The server's words for a refusal; a failure the app already reported globally gets a plain line. */
const errorText = (error: Error) =>
  error instanceof ApiError ? error.message : "The request did not go through. Try again.";

/**
 * The members page's actions: Cancel at period end at once, Cancel now and Refund last payment after
 * their dialog. The row updates from the server's answer and a toast confirms.
 */
export function useMemberActions(userId: string) {
  const { mutate, isPending, variables, error, reset } = useMemberAction(userId);
  const [dialog, setDialog] = useState<{ kind: DialogKind; member: Member; open: boolean } | null>(null);
  const triggers = useRef(new Map<string, HTMLButtonElement>());

  const run = useCallback(
    (kind: MemberActionKind, member: Member, endAccessTicked: boolean, onDone?: () => void) =>
      mutate(
        { memberId: member.id, action: actionFor(kind, member, endAccessTicked) },
        {
          onSuccess: (updated) => {
            const { title, description } = actionDoneMessage(kind, member, updated, member.currency);
            toast.success(title, { description });
            onDone?.();
          },
          onError: (failure) => {
            // In a dialog the error shows there; the menu's own action answers with a toast.
            if (!onDone && !isAlreadyReported(failure)) {
              toast.error("Cancellation failed", { description: failure.message });
            }
          },
        },
      ),
    [mutate],
  );

  const handlers: MemberActionHandlers = {
    cancelAtPeriodEnd: (member) => run("cancel-period-end", member, false),
    openDialog: (kind, member) => {
      reset();
      setDialog({ kind, member, open: true });
    },
    busyId: isPending ? (variables?.memberId ?? null) : null,
    triggerRef: (memberId) => (element) => {
      if (element) triggers.current.set(memberId, element);
      else triggers.current.delete(memberId);
    },
  };

  const close = () => setDialog((current) => (current ? { ...current, open: false } : current));
  const dialogs = dialog && (
    <MemberDialog
      key={`${dialog.kind}-${dialog.member.id}`}
      kind={dialog.kind}
      member={dialog.member}
      open={dialog.open}
      busy={isPending}
      error={dialog.open && error ? errorText(error) : null}
      onConfirm={(endAccessTicked) => run(dialog.kind, dialog.member, endAccessTicked, close)}
      onClose={close}
      returnFocus={() => triggers.current.get(dialog.member.id)?.focus()}
    />
  );
  return { handlers, dialogs };
}

/** Per member: the three actions, each offered only where it can apply. */
export function MemberActionsMenu({ member, handlers }: { member: Member; handlers: MemberActionHandlers }) {
  const can = availableActions(member);
  const busy = handlers.busyId === member.id;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          ref={handlers.triggerRef(member.id)}
          variant="ghost"
          size="sm"
          aria-label={`Actions for ${memberName(member)}`}
          aria-busy={busy || undefined}
        >
          <EllipsisVertical aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-52">
        <DropdownMenuItem
          disabled={busy || !can.cancelAtPeriodEnd}
          onSelect={() => handlers.cancelAtPeriodEnd(member)}
        >
          <CalendarX aria-hidden="true" />
          Cancel at period end
        </DropdownMenuItem>
        <DropdownMenuItem
          destructive
          disabled={busy || !can.cancelNow}
          onSelect={() => handlers.openDialog("cancel-now", member)}
        >
          <Ban aria-hidden="true" />
          Cancel now
        </DropdownMenuItem>
        <DropdownMenuItem
          destructive
          disabled={busy || !can.refundLastPayment}
          onSelect={() => handlers.openDialog("refund", member)}
        >
          <Undo2 aria-hidden="true" />
          Refund last payment
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function MemberDialog({
  kind,
  member,
  open,
  busy,
  error,
  onConfirm,
  onClose,
  returnFocus,
}: {
  kind: DialogKind;
  member: Member;
  open: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: (endAccess: boolean) => void;
  onClose: () => void;
  returnFocus: () => void;
}) {
  const [endAccess, setEndAccess] = useState(false);
  const checkboxId = useId();
  const hintId = useId();
  const refund = kind === "refund";
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          // The menu item that opened the dialog is gone: focus goes back to the row's menu button.
          event.preventDefault();
          returnFocus();
        }}
      >
        <AlertDialogTitle>{refund ? MEMBERS_COPY.refundTitle : MEMBERS_COPY.cancelNowTitle}</AlertDialogTitle>
        <AlertDialogDescription>
          {refund ? refundExplanation(member) : cancelNowWarning(member)}
        </AlertDialogDescription>
        <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm wrap-anywhere text-ink">
          {member.productTitle} · {member.tierName} · {amountPerPeriod(member, member.currency)} ·{" "}
          {member.email}
        </p>
        {refund && member.hasAccess && (
          <div className="mt-4 flex items-start gap-3 text-sm text-ink">
            <input
              id={checkboxId}
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
              checked={endAccess}
              disabled={busy}
              aria-describedby={hintId}
              onChange={(event) => setEndAccess(event.target.checked)}
            />
            <span className="min-w-0">
              <label htmlFor={checkboxId} className="block cursor-pointer font-medium">
                {MEMBERS_COPY.refundEndAccess}
              </label>
              <span id={hintId} className="block text-xs text-muted">
                {MEMBERS_COPY.refundEndAccessHint}
              </span>
            </span>
          </div>
        )}
        {error && <DialogError>{error}</DialogError>}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>
            {refund ? MEMBERS_COPY.refundKeep : MEMBERS_COPY.cancelNowKeep}
          </AlertDialogCancel>
          <AlertDialogConfirm onClick={() => onConfirm(endAccess)} disabled={busy}>
            {busy
              ? refund
                ? MEMBERS_COPY.refundBusy
                : MEMBERS_COPY.cancelNowBusy
              : refund
                ? MEMBERS_COPY.refundConfirm
                : MEMBERS_COPY.cancelNowConfirm}
          </AlertDialogConfirm>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DialogError({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {children}
    </p>
  );
}
