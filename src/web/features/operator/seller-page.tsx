import { useId, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { OperatorSeller } from "../../../contracts/enforcement";
import { formatMoney } from "../../../contracts/money";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { ApiError } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { ActionItem } from "../standing/standing-list";
import { AuditLog } from "./audit-log-page";
import { type ConsoleAction, useConsoleAction, useOperatorSeller } from "./enforcement-api";
import { OperatorGate } from "./operator-gate";
import { StateBadge } from "./state-badge";

type Choice = "warn" | "restrict" | "suspend" | "reinstate" | "take-down" | "reinstate-product";

const CHOICES: Array<{ value: Choice; label: string; hint: string }> = [
  { value: "warn", label: "Warn", hint: "Nothing changes; the seller is told." },
  { value: "restrict", label: "Restrict", hint: "No new products, no new sales. Pages stay." },
  { value: "suspend", label: "Suspend", hint: 'Pages say "This store is unavailable"; no sales.' },
  { value: "take-down", label: "Take down a product", hint: "That product only." },
  { value: "reinstate", label: "Reinstate the seller", hint: "Lifts the restriction or suspension." },
  { value: "reinstate-product", label: "Reinstate a product", hint: "Lifts a product's take-down." },
];

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-1 break-words text-sm text-ink">{children}</dd>
    </div>
  );
}

/**
 * The action form, prefilled from `?report=&product=` (links from a report's page): a take-down of the
 * product, or with `&action=reinstate-product` its reinstatement (a report ready to restore).
 */
function ActionForm({ seller }: { seller: OperatorSeller }) {
  const id = useId();
  const [params] = useSearchParams();
  const prefilledProduct = params.get("product") ?? "";
  const [choice, setChoice] = useState<Choice>(
    !prefilledProduct
      ? "warn"
      : params.get("action") === "reinstate-product"
        ? "reinstate-product"
        : "take-down",
  );
  const [productId, setProductId] = useState(prefilledProduct);
  const [reason, setReason] = useState("");
  const [reportId, setReportId] = useState(params.get("report") ?? "");
  const [revokeDownloads, setRevokeDownloads] = useState(false);
  const [problem, setProblem] = useState<string>();
  const action = useConsoleAction();
  const forProduct = choice === "take-down" || choice === "reinstate-product";
  const products = seller.products.filter((product) =>
    choice === "take-down" ? !product.takenDown : choice === "reinstate-product" ? product.takenDown : true,
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setProblem("Say why: every operator action records its reason.");
    if (forProduct && !productId) return setProblem("Choose the product.");
    setProblem(undefined);
    const common = { reason, ...(reportId.trim() ? { reportId: reportId.trim() } : {}) };
    const request: ConsoleAction = forProduct
      ? { kind: choice === "take-down" ? "take-down" : "reinstate-product", productId, body: common }
      : {
          kind: "seller",
          sellerId: seller.id,
          body: { action: choice as "warn", ...common, ...(choice === "suspend" ? { revokeDownloads } : {}) },
        };
    action.mutate(request, {
      onSuccess: () => {
        toast.success("Done. The seller has been emailed.");
        setReason("");
        setProductId("");
      },
      onError: (error) => setProblem(error instanceof ApiError ? error.message : "Couldn't take the action."),
    });
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Take an action">
      <fieldset>
        <legend className="text-sm font-medium text-ink">Action</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {CHOICES.map((option) => (
            <label
              key={option.value}
              className="flex cursor-pointer gap-2 rounded-lg border border-line p-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="action"
                value={option.value}
                checked={choice === option.value}
                onChange={() => setChoice(option.value)}
                className="mt-0.5 accent-brand-600"
              />
              <span>
                <span className="block font-medium text-ink">{option.label}</span>
                <span className="block text-xs text-muted">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {forProduct && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-product`}>Product</Label>
          <select
            id={`${id}-product`}
            value={productId}
            onChange={(event) => setProductId(event.target.value)}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-ink"
          >
            <option value="">Choose a product</option>
            {products.map((product) => (
              <option key={product.id} value={product.id}>
                {product.title}
              </option>
            ))}
            {productId && !products.some((product) => product.id === productId) && (
              <option value={productId}>
                {seller.products.find((product) => product.id === productId)?.title ?? productId}
              </option>
            )}
          </select>
        </div>
      )}
      {choice === "suspend" && (
        <label className="flex items-start gap-2 text-sm text-ink">
          <input
            type="checkbox"
            checked={revokeDownloads}
            onChange={(event) => setRevokeDownloads(event.target.checked)}
            className="mt-0.5 accent-red-600"
          />
          <span>
            Revoke downloads
            <span className="block text-xs text-muted">
              Buyers keep their downloads unless this is ticked.
            </span>
          </span>
        </label>
      )}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-reason`}>Reason (the seller reads it)</Label>
        <Textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={3}
          maxLength={2000}
          {...fieldErrorProps(`${id}-problem`, problem)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-report`}>Report id (optional)</Label>
        <Input
          id={`${id}-report`}
          value={reportId}
          onChange={(event) => setReportId(event.target.value)}
          maxLength={100}
        />
      </div>
      <FieldError id={`${id}-problem`} message={problem} />
      <Button
        type="submit"
        variant={
          choice === "suspend" || choice === "take-down" || choice === "restrict" ? "destructive" : "primary"
        }
        disabled={action.isPending}
      >
        {CHOICES.find((option) => option.value === choice)?.label}
      </Button>
    </form>
  );
}

function SellerDetail({ sellerId }: { sellerId: string }) {
  const seller = useOperatorSeller(sellerId);
  if (seller.isPending) return <Spinner label="Loading the seller" />;
  if (seller.isError)
    return <RetryNotice message="Couldn't load this seller." onRetry={() => void seller.refetch()} />;
  const data = seller.data;
  const { standing } = data;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-words text-2xl font-bold tracking-tight text-ink">
          {data.storeName ?? "No store name"}
        </h1>
        <StateBadge state={standing.state} />
      </div>
      <p className="mt-1 break-all text-sm text-muted">
        {data.email} · <span className="font-mono text-xs">{data.id}</span>
      </p>

      <Card className="mt-6">
        <CardContent className="pt-6">
          <dl className="grid gap-4 sm:grid-cols-3">
            <Fact label="Plan">
              {data.plan.standing}
              {data.plan.status ? ` (${data.plan.status})` : ""}
              {data.plan.cancelAtPeriodEnd ? " · cancels at period end" : ""}
            </Fact>
            <Fact label="Stripe Connect">
              {data.connect.accountId
                ? data.connect.onboardingComplete
                  ? "Onboarded"
                  : "Onboarding incomplete"
                : "Not connected"}
            </Fact>
            <Fact label="Sales">
              {data.sales.count} completed
              {data.sales.volume.map((amount) => (
                <span key={amount.currency} className="block tabular-nums">
                  {formatMoney(amount.amountCents, amount.currency)}
                </span>
              ))}
            </Fact>
            <Fact label="Storage used">{formatBytes(data.storageBytes)}</Fact>
            <Fact label="Store currency">{data.storeCurrency.toUpperCase()}</Fact>
            <Fact label="Reports">{data.reportsCount}</Fact>
          </dl>
        </CardContent>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Actions</CardTitle>
            <CardDescription>
              Each is audited and emailed to the seller with its reason and how to appeal.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ActionForm seller={data} />
          </CardContent>
        </Card>
        <Card className="overflow-hidden">
          <CardHeader className="pb-4">
            <CardTitle>Products</CardTitle>
            <CardDescription>{data.products.length} shown, newest first.</CardDescription>
          </CardHeader>
          {data.products.length === 0 ? (
            <p className="px-6 pb-6 text-sm text-muted">No products.</p>
          ) : (
            <ul className="divide-y divide-line border-t border-line" aria-label="Products">
              {data.products.map((product) => (
                <li key={product.id} className="flex flex-wrap items-center gap-2 px-6 py-3 text-sm">
                  <a
                    href={`/product/${product.id}`}
                    className="min-w-0 flex-1 break-words font-medium text-ink hover:underline"
                  >
                    {product.title}
                  </a>
                  {product.takenDown && <Badge tone="danger">Taken down</Badge>}
                  {!product.isActive && <Badge>Unpublished</Badge>}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Card className="mt-6 overflow-hidden">
        <CardHeader className="pb-4">
          <CardTitle>Standing</CardTitle>
          <CardDescription>
            What is in force and what happened before, with the seller's appeals.
          </CardDescription>
        </CardHeader>
        {standing.inForce.length + standing.past.length === 0 ? (
          <p className="px-6 pb-6 text-sm text-muted">Good standing: nothing on record.</p>
        ) : (
          <ul className="divide-y divide-line border-t border-line" aria-label="Standing history">
            {[...standing.inForce, ...standing.past].map((action) => (
              <ActionItem key={action.id} action={action} />
            ))}
          </ul>
        )}
      </Card>

      <Card className="mt-6 overflow-hidden">
        <CardHeader className="pb-4">
          <CardTitle>Audit log</CardTitle>
          <CardDescription>Everything recorded about this seller, newest first.</CardDescription>
        </CardHeader>
        <div className="border-t border-line">
          <AuditLog sellerId={data.id} />
        </div>
      </Card>
    </>
  );
}

/** /operator/sellers/:sellerId: one seller, their standing and the actions. */
export function SellerPage() {
  const { sellerId = "" } = useParams();
  return (
    <OperatorGate>
      <p className="mb-2 text-sm">
        <Link to="/operator/sellers" className="text-brand-700 underline-offset-4 hover:underline">
          Sellers
        </Link>
      </p>
      <SellerDetail sellerId={sellerId} />
    </OperatorGate>
  );
}
