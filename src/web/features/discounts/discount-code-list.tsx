import { format } from "date-fns";
import { Link2, Pause, Pencil, Play, Trash2 } from "lucide-react";
import { toast } from "sonner";
import {
  DISCOUNT_MESSAGES,
  type DiscountCode,
  type DiscountCodeStatus,
  offerUrl,
} from "../../../contracts/discounts";
import { formatMoney } from "../../../contracts/money";
import type { SellerProduct } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { isAlreadyReported } from "../../lib/already-reported";
import { copyToClipboard } from "../../lib/clipboard";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { type MoneyFormatter, useMoney } from "../../lib/store-currency";
import { usePauseDiscountCode } from "./discounts-api";

const STATUS: Record<
  DiscountCodeStatus,
  { label: string; tone: "success" | "neutral" | "brand" | "warning" }
> = {
  active: { label: "Active", tone: "success" },
  paused: { label: "Paused", tone: "neutral" },
  scheduled: { label: "Scheduled", tone: "brand" },
  expired: { label: "Expired", tone: "neutral" },
  used_up: { label: "Used up", tone: "warning" },
};

const day = (iso: string) => format(new Date(iso), "MMM d, yyyy");

/** "From Jun 1, 2026 to Jun 30, 2026", as the seller chose the days (the end day is included). */
/** "20% off", "$5.00 off" (an amount off is an amount of the store currency). */
/** "25% off", or "€5.00 off" in the amount's own currency (the store's when the code was made). */
export const describeCode = (
  code: Pick<DiscountCode, "kind" | "value"> & { currency?: string | null },
  money: MoneyFormatter,
): string =>
  code.kind === "percent"
    ? `${code.value}% off`
    : `${code.currency ? formatMoney(code.value, code.currency, DASHBOARD_LOCALE) : money(code.value)} off`;

function datesOf(code: DiscountCode): string | null {
  const lastDay = code.endsAt ? day(new Date(new Date(code.endsAt).getTime() - 1).toISOString()) : null;
  if (code.startsAt && lastDay) return `${day(code.startsAt)} to ${lastDay}`;
  if (code.startsAt) return `From ${day(code.startsAt)}`;
  if (lastDay) return `Until ${lastDay}`;
  return null;
}

function scopeOf(code: DiscountCode, products: SellerProduct[]): string {
  if (code.allProducts) return "All products";
  if (code.productIds.length === 1) {
    return products.find((product) => product.id === code.productIds[0])?.title ?? "1 product";
  }
  return `${code.productIds.length} products`;
}

/** Offer links of a code: one per product it applies to (the seller's products it can name). */
function OfferLinks({ code, products }: { code: DiscountCode; products: SellerProduct[] }) {
  const applies = code.allProducts
    ? products
    : products.filter((product) => code.productIds.includes(product.id));
  const copy = (product: SellerProduct) =>
    void copyToClipboard(
      offerUrl(window.location.origin, product.id, code.code),
      DISCOUNT_MESSAGES.offerLinkCopied,
      product.title,
    );
  const only = applies.length === 1 ? applies[0] : undefined;
  if (applies.length === 0) return null;
  if (only) {
    return (
      <Button
        variant="secondary"
        size="sm"
        onClick={() => copy(only)}
        aria-label={`Copy offer link of ${code.code}`}
      >
        <Link2 aria-hidden="true" />
        Copy offer link
      </Button>
    );
  }
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Copy an offer link of ${code.code}`}>
          <Link2 aria-hidden="true" />
          Copy offer link
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="max-h-72 max-w-[calc(100vw-2rem)] overflow-y-auto">
        {applies.map((product) => (
          <DropdownMenuItem key={product.id} onSelect={() => copy(product)}>
            <span className="truncate">{product.title}</span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function CodeRow({
  userId,
  code,
  products,
  onEdit,
  onDelete,
}: {
  userId: string;
  code: DiscountCode;
  products: SellerProduct[];
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { mutate: setPaused, isPending } = usePauseDiscountCode(userId);
  const money = useMoney();
  const status = STATUS[code.status];
  const dates = datesOf(code);
  const togglePause = () =>
    setPaused(
      { id: code.id, paused: !code.paused },
      {
        onSuccess: () =>
          code.paused
            ? toast.success(DISCOUNT_MESSAGES.resumedTitle, { description: code.code })
            : toast.success(DISCOUNT_MESSAGES.pausedTitle, { description: DISCOUNT_MESSAGES.paused }),
        onError: (error) => {
          if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
        },
      },
    );
  return (
    <li className="space-y-3 px-4 py-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="font-mono text-base font-semibold break-all text-ink">{code.code}</h3>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <p className="text-sm text-muted">
        <span className="font-medium text-ink">{describeCode(code, money)}</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {scopeOf(code, products)}
        {dates && (
          <>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {dates}
          </>
        )}
      </p>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-muted">Uses</dt>
          <dd className="font-medium text-ink tabular-nums">
            {code.maxUses === null ? code.uses : `${code.uses} of ${code.maxUses}`}
            {code.usesHeld > 0 && (
              <span className="font-normal text-muted"> ({code.usesHeld} in checkout now)</span>
            )}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted">Revenue</dt>
          <dd className="font-medium text-ink tabular-nums">{money(code.revenueCents)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        <OfferLinks code={code} products={products} />
        <Button variant="secondary" size="sm" onClick={togglePause} disabled={isPending}>
          {code.paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
          {code.paused ? "Resume" : "Pause"}
          <span className="sr-only"> {code.code}</span>
        </Button>
        <Button variant="secondary" size="sm" onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
          <span className="sr-only"> {code.code}</span>
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={onDelete}
          className="text-red-600 hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 aria-hidden="true" />
          Delete
          <span className="sr-only"> {code.code}</span>
        </Button>
      </div>
    </li>
  );
}

/** The seller's codes with their uses and revenue, and what can be done with each. */
export function DiscountCodeList({
  userId,
  codes,
  products,
  onEdit,
  onDelete,
}: {
  userId: string;
  codes: DiscountCode[];
  products: SellerProduct[];
  onEdit: (code: DiscountCode) => void;
  onDelete: (code: DiscountCode) => void;
}) {
  return (
    <ul className="divide-y divide-line" aria-label="Your discount codes">
      {codes.map((code) => (
        <CodeRow
          key={code.id}
          userId={userId}
          code={code}
          products={products}
          onEdit={() => onEdit(code)}
          onDelete={() => onDelete(code)}
        />
      ))}
    </ul>
  );
}
