import { FileArchive, FileText, ReceiptText } from "lucide-react";
import { useMemo, useState } from "react";
import {
  INVOICE_KIND_LABELS,
  type InvoiceKind,
  type InvoiceSummary,
  quarterPeriod,
} from "../../../contracts/invoices";
import { formatMoney } from "../../../contracts/money";
import { LoadMoreButton } from "../../components/load-more-button";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { fieldClasses, Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { useMediaQuery } from "../../lib/use-media-query";
import { cn } from "../../lib/utils";
import { formatSaleDate } from "../sales/sale-format";
import { SellerGate } from "../seller/seller-gate";
import { exportZipUrl, useInvoices } from "./invoices-api";

type PeriodChoice = "this" | "last" | "custom";

/** A document's total in its own currency: a credit note's amounts are negative ("-$19.99"). */
const total = (invoice: Pick<InvoiceSummary, "totalCents" | "currency">) =>
  formatMoney(invoice.totalCents, invoice.currency, DASHBOARD_LOCALE);

function KindBadge({ kind }: { kind: InvoiceKind }) {
  return <Badge tone={kind === "invoice" ? "success" : "neutral"}>{INVOICE_KIND_LABELS[kind]}</Badge>;
}

function PdfLink({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <a
      href={invoice.pdfPath}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-2 hover:underline"
      aria-label={`Download ${INVOICE_KIND_LABELS[invoice.kind].toLowerCase()} ${invoice.numberText} (PDF)`}
    >
      <FileText className="size-4" aria-hidden="true" />
      PDF
    </a>
  );
}

const DocumentNumber = ({ invoice }: { invoice: InvoiceSummary }) => (
  <span className="font-medium text-ink">
    {invoice.numberText}
    {invoice.version > 1 && <span className="ml-1 text-xs font-normal text-muted">(v{invoice.version})</span>}
  </span>
);

function InvoicesTable({ invoices }: { invoices: InvoiceSummary[] }) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="w-40 py-2.5 pr-3 pl-6 font-medium">
            Number
          </th>
          <th scope="col" className="w-40 px-3 py-2.5 font-medium">
            Date
          </th>
          <th scope="col" className="px-3 py-2.5 font-medium">
            Buyer / Product
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 font-medium">
            Kind
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Total
          </th>
          <th scope="col" className="w-20 py-2.5 pr-6 pl-3 font-medium">
            <span className="sr-only">Download</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {invoices.map((invoice) => (
          <tr key={invoice.id}>
            <td className="py-3 pr-3 pl-6 tabular-nums">
              <DocumentNumber invoice={invoice} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(invoice.issuedAt)}
            </td>
            <td className="px-3 py-3">
              <p className="truncate font-medium text-ink" title={invoice.buyer}>
                {invoice.buyer}
              </p>
              <p className="truncate text-muted" title={invoice.productTitle}>
                {invoice.productTitle}
              </p>
            </td>
            <td className="px-3 py-3">
              <KindBadge kind={invoice.kind} />
            </td>
            <td className="px-3 py-3 text-right font-medium text-ink tabular-nums">{total(invoice)}</td>
            <td className="py-3 pr-6 pl-3">
              <PdfLink invoice={invoice} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function InvoiceCards({ invoices }: { invoices: InvoiceSummary[] }) {
  return (
    <ul className="divide-y divide-line border-t border-line">
      {invoices.map((invoice) => (
        <li key={invoice.id} className="space-y-1 px-4 py-3 text-sm">
          <div className="flex items-baseline justify-between gap-3">
            <DocumentNumber invoice={invoice} />
            <p className="shrink-0 font-semibold text-ink tabular-nums">{total(invoice)}</p>
          </div>
          <p className="truncate text-ink" title={invoice.buyer}>
            {invoice.buyer}
          </p>
          <p className="truncate text-muted" title={invoice.productTitle}>
            {invoice.productTitle}
          </p>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <span className="tabular-nums">{formatSaleDate(invoice.issuedAt)}</span>
            <KindBadge kind={invoice.kind} />
            <PdfLink invoice={invoice} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function Invoices({ userId }: { userId: string }) {
  const [choice, setChoice] = useState<PeriodChoice>("this");
  const [custom, setCustom] = useState(() => quarterPeriod(new Date()));
  const [kind, setKind] = useState<InvoiceKind | "">("");
  const period = useMemo(
    () => (choice === "custom" ? custom : quarterPeriod(new Date(), choice === "this" ? 0 : -1)),
    [choice, custom],
  );
  const customValid = !period.from || !period.to || period.from <= period.to;
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = useInvoices(
    userId,
    customValid ? { ...period, kind } : { from: period.from, to: period.from, kind },
  );
  const wide = useMediaQuery("(min-width: 640px)");
  const invoices = data?.pages.flatMap((page) => page.invoices) ?? [];
  const List = wide ? InvoicesTable : InvoiceCards;
  const select = cn(fieldClasses, "h-10");

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-ink">Invoices</h1>
          <p className="mt-1 text-sm text-muted">
            Every paid order's invoice and every refund's credit note, numbered without gaps. Buyers get
            theirs from their receipt.
          </p>
        </div>
        <Button asChild variant="secondary" className={cn(!customValid && "pointer-events-none opacity-50")}>
          <a href={exportZipUrl(period)} download aria-disabled={!customValid || undefined}>
            <FileArchive aria-hidden="true" />
            Download ZIP
          </a>
        </Button>
      </div>

      <Card role="region" aria-label="Invoice list">
        <CardHeader className="gap-4 pb-4">
          <div className="space-y-1.5">
            <CardTitle>Invoices and credit notes</CardTitle>
            <CardDescription>
              {period.from} to {period.to}, newest first. The ZIP has one PDF per document of the period.
            </CardDescription>
          </div>
          <div className="grid gap-3 sm:grid-cols-4">
            <div className="space-y-1.5">
              <Label htmlFor="invoice-period">Period</Label>
              <select
                id="invoice-period"
                className={select}
                value={choice}
                onChange={(event) => setChoice(event.target.value as PeriodChoice)}
              >
                <option value="this">This quarter</option>
                <option value="last">Last quarter</option>
                <option value="custom">Custom</option>
              </select>
            </div>
            {choice === "custom" && (
              <>
                <div className="space-y-1.5">
                  <Label htmlFor="invoice-from">From</Label>
                  <Input
                    id="invoice-from"
                    type="date"
                    value={custom.from}
                    onChange={(event) => setCustom({ ...custom, from: event.target.value })}
                  />
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor="invoice-to">To</Label>
                  <Input
                    id="invoice-to"
                    type="date"
                    value={custom.to}
                    aria-invalid={!customValid || undefined}
                    aria-describedby={customValid ? undefined : "invoice-to-problem"}
                    onChange={(event) => setCustom({ ...custom, to: event.target.value })}
                  />
                  {!customValid && (
                    <p id="invoice-to-problem" role="alert" className="text-sm text-red-600">
                      The end must not be before the start.
                    </p>
                  )}
                </div>
              </>
            )}
            <div className="space-y-1.5">
              <Label htmlFor="invoice-kind">Kind</Label>
              <select
                id="invoice-kind"
                className={select}
                value={kind}
                onChange={(event) => setKind(event.target.value as InvoiceKind | "")}
              >
                <option value="">All documents</option>
                <option value="invoice">Invoices</option>
                <option value="credit_note">Credit notes</option>
              </select>
            </div>
          </div>
        </CardHeader>
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading invoices" />
          </div>
        ) : error && invoices.length === 0 ? (
          <RetryNotice
            className="m-6"
            message="Invoices could not be loaded."
            onRetry={() => void refetch()}
          />
        ) : invoices.length === 0 ? (
          <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-12 text-center">
            <ReceiptText aria-hidden="true" className="size-8 text-muted" />
            <p className="font-medium text-ink">No invoices in this period.</p>
          </div>
        ) : (
          <>
            <List invoices={invoices} />
            {hasNextPage && (
              <LoadMoreButton onLoadMore={() => void fetchNextPage()} loading={isFetchingNextPage} />
            )}
          </>
        )}
      </Card>
    </div>
  );
}

/** /dashboard/invoices: the seller's invoices and credit notes, behind the same gates as the dashboard. */
export function InvoicesPage() {
  return <SellerGate>{({ user }) => <Invoices userId={user.id} />}</SellerGate>;
}
