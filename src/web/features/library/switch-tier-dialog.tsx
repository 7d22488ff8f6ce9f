import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Repeat } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { MEMBERSHIP_CHANGE_MESSAGES, type MembershipChangePreview } from "../../../contracts/memberships";
import type { LibraryMembership } from "../../../contracts/orders";
import { useStoreName } from "../../components/layout/creator-page-shell";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { Label } from "../../components/ui/label";
import { type RadioCardOption, RadioCards } from "../../components/ui/radio-card";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group";
import { ApiError } from "../../lib/api";
import { useI18n, useServerText } from "../../lib/i18n";
import { libraryQuery, useConfirmMembershipChange, useMembershipChangePreview } from "./library-api";
import {
  changeChoiceLine,
  changeDueLine,
  changeThenLine,
  chooseTier,
  initialChoice,
  isSameChoice,
  type MembershipChoice,
  signedPrice,
  tierPriceLine,
  yearlySavingLabel,
} from "./membership-change-format";
import { membershipCurrency, membershipPriceLabel } from "./membership-format";

/**
 * The server's words for a refusal (in the page's language where the table knows them); a failed
 * connection or a server error (already toasted) in plain words.
 */
function useProblemOf(): (error: unknown) => string {
  const { t } = useI18n();
  const serverText = useServerText();
  return (error) =>
    error instanceof ApiError && error.status < 500 ? serverText(error.message) : t("switch.failed");
}

function Problem({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
      {message}
    </p>
  );
}

/** The first step: the tiers as radio cards (the member's own marked), then monthly or yearly. */
export function ChooseStep({
  membership,
  choice,
  onChoice,
  onPreview,
  busy,
  problem,
}: {
  membership: LibraryMembership;
  choice: MembershipChoice;
  onChoice: (choice: MembershipChoice) => void;
  onPreview: () => void;
  busy: boolean;
  problem: string | null;
}) {
  const i18n = useI18n();
  const { t, money } = i18n;
  const id = useId();
  const chosen = membership.switchableTiers.find((tier) => tier.id === choice.tierId);
  const currency = membershipCurrency(membership);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    onPreview();
  };
  const intervalOptions: RadioCardOption<"month" | "year">[] =
    chosen && chosen.yearlyPriceCents !== null
      ? [
          {
            value: "month",
            label: t("membership.monthly"),
            hint: t("library.pricePer", {
              price: money(chosen.monthlyPriceCents, currency),
              interval: "month",
            }),
          },
          {
            value: "year",
            label: t("membership.yearly"),
            hint: [
              t("library.pricePer", { price: money(chosen.yearlyPriceCents, currency), interval: "year" }),
              yearlySavingLabel(chosen, i18n),
            ]
              .filter(Boolean)
              .join(" · "),
          },
        ]
      : [];
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="space-y-2">
        <p id={`${id}-tiers`} className="text-sm font-medium text-ink">
          {t("switch.tier")}
        </p>
        <RadioGroup
          value={choice.tierId}
          onValueChange={(tierId) => {
            const tier = membership.switchableTiers.find((option) => option.id === tierId);
            if (tier) onChoice(chooseTier(tier, choice.interval));
          }}
          aria-labelledby={`${id}-tiers`}
        >
          {membership.switchableTiers.map((tier) => {
            const own = tier.id === membership.tierId;
            return (
              <Label
                key={tier.id}
                htmlFor={`${id}-tier-${tier.id}`}
                className="flex min-w-0 cursor-pointer items-start gap-3 rounded-xl border border-line bg-white p-3 has-[[data-state=checked]]:border-brand-500 has-[[data-state=checked]]:bg-brand-50/50"
              >
                <RadioGroupItem
                  id={`${id}-tier-${tier.id}`}
                  value={tier.id}
                  className="mt-0.5"
                  data-switch-tier={tier.id}
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="wrap-anywhere">{tier.name}</span>
                    {own && <Badge tone="brand">{t("switch.yourTier")}</Badge>}
                  </span>
                  <span className="block text-xs font-normal text-muted tabular-nums">
                    {tierPriceLine(tier, currency, i18n)}
                  </span>
                </span>
              </Label>
            );
          })}
        </RadioGroup>
      </div>
      {intervalOptions.length > 0 && (
        <div className="space-y-2">
          <p className="text-sm font-medium text-ink" aria-hidden="true">
            {t("switch.billing")}
          </p>
          <RadioCards
            id={`${id}-interval`}
            label={t("switch.billing")}
            value={choice.interval}
            options={intervalOptions}
            onChange={(interval) => onChoice({ ...choice, interval })}
          />
        </div>
      )}
      <Problem id={`${id}-problem`} message={problem} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-muted">{t("switch.costFirst")}</p>
        <Button type="submit" disabled={busy} aria-busy={busy} className="w-full sm:w-auto">
          {busy ? t("switch.previewing") : t("switch.preview")}
        </Button>
      </div>
    </form>
  );
}

/** The second step: what Stripe will charge now (or the credit left), its lines, then the new price. */
export function PreviewStep({
  preview,
  currency,
  onBack,
  onConfirm,
  busy,
  problem,
}: {
  preview: MembershipChangePreview;
  /** The membership's currency (membershipCurrency), which Stripe's amounts are in. */
  currency: string;
  onBack: () => void;
  onConfirm: () => void;
  busy: boolean;
  problem: string | null;
}) {
  const i18n = useI18n();
  const { t, money } = i18n;
  const id = useId();
  const summary = useRef<HTMLElement>(null);
  // The step replaced the button that had the focus: a screen reader hears the summary next.
  useEffect(() => summary.current?.focus(), []);
  const charged = preview.creditCents === 0 && preview.amountDueCents > 0;
  return (
    <div className="space-y-5">
      <section
        ref={summary}
        tabIndex={-1}
        aria-labelledby={`${id}-choice ${id}-due`}
        className="space-y-3 rounded-xl border border-line bg-slate-50 p-4 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        data-testid="change-preview"
      >
        <p id={`${id}-choice`} className="text-sm font-medium wrap-anywhere text-muted">
          {changeChoiceLine(preview, i18n)}
        </p>
        <p id={`${id}-due`} className="text-base font-semibold text-ink">
          {changeDueLine(preview, currency, i18n)}
        </p>
        {preview.lines.length > 0 && (
          <ul className="space-y-1.5 border-t border-line pt-3 text-sm" aria-label={t("switch.lines")}>
            {preview.lines.map((line, index) => (
              <li
                // Stripe's lines have no id of their own; their order is the invoice's.
                // biome-ignore lint/suspicious/noArrayIndexKey: the lines never reorder
                key={index}
                className="flex items-start justify-between gap-3"
              >
                <span className="min-w-0 wrap-anywhere text-muted">{line.description}</span>
                <span className="shrink-0 text-ink tabular-nums">
                  {signedPrice(line.amountCents, currency, i18n)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p id={`${id}-then`} className="border-t border-line pt-3 text-sm font-medium text-ink">
          {changeThenLine(preview, currency, i18n)}
        </p>
      </section>
      {charged && <p className="text-xs text-muted">{t("switch.chargedToCard")}</p>}
      <Problem id={`${id}-problem`} message={problem} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="secondary" onClick={onBack} disabled={busy} className="w-full sm:w-auto">
          <ArrowLeft aria-hidden="true" />
          {t("switch.back")}
        </Button>
        <Button onClick={onConfirm} disabled={busy} aria-busy={busy} className="w-full sm:w-auto">
          {busy
            ? t("switch.switching")
            : charged
              ? t("switch.confirmAndPay", { amount: money(preview.amountDueCents, currency) })
              : t("switch.confirm")}
        </Button>
      </div>
    </div>
  );
}

/** The dialog's steps: choose, preview (nothing charged), confirm; then the library reloads. */
function SwitchTierFlow({
  membership,
  token,
  onBusyChange,
  onDone,
}: {
  membership: LibraryMembership;
  token: string;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const serverText = useServerText();
  const problemOf = useProblemOf();
  const storeName = useStoreName();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(() => initialChoice(membership));
  const [preview, setPreview] = useState<MembershipChangePreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const previewing = useMembershipChangePreview();
  const confirming = useConfirmMembershipChange();
  const request = { membershipId: membership.id, token, ...choice };

  const choose = (next: MembershipChoice) => {
    setChoice(next);
    setProblem(null);
  };
  const showPreview = () => {
    if (isSameChoice(membership, choice)) {
      setProblem(serverText(MEMBERSHIP_CHANGE_MESSAGES.sameChoice));
      return;
    }
    setProblem(null);
    previewing.mutate(request, {
      onSuccess: setPreview,
      onError: (error) => setProblem(problemOf(error)),
    });
  };
  const back = () => {
    setPreview(null);
    setProblem(null);
    // Back to the choice the member made: its radio gets the focus again.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-switch-tier="${CSS.escape(choice.tierId)}"]`)?.focus(),
    );
  };
  const confirm = () => {
    if (!preview) return;
    setProblem(null);
    onBusyChange(true);
    confirming.mutate(
      { ...request, prorationDate: preview.prorationDate },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: libraryQuery(token).queryKey });
          onBusyChange(false);
          toast.success(serverText(MEMBERSHIP_CHANGE_MESSAGES.changed), {
            description: t("switch.changedTo", {
              choice: changeChoiceLine(preview, i18n),
              price: membershipPriceLabel(preview, membershipCurrency(membership), i18n),
            }),
          });
          onDone();
        },
        onError: (error) => {
          onBusyChange(false);
          setProblem(problemOf(error));
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>{t("switch.title")}</DialogTitle>
        <DialogDescription className="wrap-anywhere">
          {preview
            ? t("switch.checkFirst")
            : t("switch.intro", {
                product: membership.productTitle,
                seller: storeName(membership.sellerName),
              })}
        </DialogDescription>
      </DialogHeader>
      {preview ? (
        <PreviewStep
          preview={preview}
          currency={membershipCurrency(membership)}
          onBack={back}
          onConfirm={confirm}
          busy={confirming.isPending}
          problem={problem}
        />
      ) : (
        <ChooseStep
          membership={membership}
          choice={choice}
          onChoice={choose}
          onPreview={showPreview}
          busy={previewing.isPending}
          problem={problem}
        />
      )}
    </>
  );
}

/**
 * Switch tier: a member on a live membership picks another tier or billing interval, sees what Stripe
 * charges now (or the credit left), and confirms. The library link authorizes it.
 */
export function SwitchTierDialog({ membership, token }: { membership: LibraryMembership; token: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !busy) && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="secondary" className="w-full sm:w-auto">
          <Repeat aria-hidden="true" />
          {t("switch.title")}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <SwitchTierFlow
          membership={membership}
          token={token}
          onBusyChange={setBusy}
          onDone={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
