import { Plus, TicketPercent } from "lucide-react";
import { useState } from "react";
import { DISCOUNT_MESSAGES, type DiscountCode } from "../../../contracts/discounts";
import { BackLink } from "../../components/back-link";
import { DeleteConfirmDialog } from "../../components/delete-confirm-dialog";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { SellerGate } from "../seller/seller-gate";
import { DiscountCodeForm } from "./discount-code-form";
import { DiscountCodeList } from "./discount-code-list";
import { useCodeProducts, useDeleteDiscountCode, useDiscountCodes } from "./discounts-api";

/** The form is closed, open for a new code, or open on the code being edited. */
type FormState = { open: false } | { open: true; editing: DiscountCode | null };

function DeleteCodeDialog({
  userId,
  code,
  onClose,
}: {
  userId: string;
  code: DiscountCode | null;
  onClose: () => void;
}) {
  return (
    <DeleteConfirmDialog
      target={code}
      mutation={useDeleteDiscountCode(userId)}
      title={`${DISCOUNT_MESSAGES.deleteConfirmTitle} ${code?.code ?? ""}`.trim()}
      description={DISCOUNT_MESSAGES.deleteConfirm}
      deletedTitle={DISCOUNT_MESSAGES.deletedTitle}
      deletedDescription={(deleted) => deleted.code}
      onClose={onClose}
    />
  );
}

function Discounts({ userId }: { userId: string }) {
  const codes = useDiscountCodes(userId);
  const products = useCodeProducts(userId);
  const [form, setForm] = useState<FormState>({ open: false });
  const [deleting, setDeleting] = useState<DiscountCode | null>(null);
  const productList = products.data?.products ?? [];

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">{DISCOUNT_MESSAGES.pageTitle}</h1>
          <p className="mt-1 text-sm text-muted">
            Codes buyers type on a product page for a lower price, with their uses and the revenue they
            brought.
          </p>
        </div>
        {!form.open && (
          <Button onClick={() => setForm({ open: true, editing: null })} className="self-start sm:self-auto">
            <Plus aria-hidden="true" />
            New code
          </Button>
        )}
      </div>

      {form.open && (
        <DiscountCodeForm
          // A fresh form for each code opened.
          key={form.editing?.id ?? "new"}
          userId={userId}
          editing={form.editing}
          products={productList}
          onDone={() => setForm({ open: false })}
        />
      )}

      <Card>
        <CardHeader className="pb-4">
          <CardTitle>Your codes</CardTitle>
          <CardDescription>
            Uses count paid orders; revenue counts those not refunded. Offer links open a product page with
            the code already entered.
          </CardDescription>
        </CardHeader>
        {codes.isPending ? (
          <PageSpinner label="Loading your discount codes" />
        ) : codes.isError ? (
          <RetryNotice
            className="m-6"
            message={DISCOUNT_MESSAGES.loadFailed}
            onRetry={() => void codes.refetch()}
          />
        ) : codes.data.codes.length === 0 ? (
          <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-12 text-center">
            <TicketPercent aria-hidden="true" className="size-8 text-muted" />
            <p className="font-medium text-ink">No discount codes yet</p>
            <p className="text-sm text-muted">Create one to offer a lower price to the buyers you choose.</p>
          </div>
        ) : (
          <div className="border-t border-line">
            <DiscountCodeList
              userId={userId}
              codes={codes.data.codes}
              products={productList}
              onEdit={(code) => {
                setForm({ open: true, editing: code });
                window.scrollTo({ top: 0, behavior: "smooth" });
              }}
              onDelete={setDeleting}
            />
          </div>
        )}
      </Card>
      <DeleteCodeDialog userId={userId} code={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** /dashboard/discounts: the seller's discount codes, behind the same gates as the dashboard. */
export function DiscountsPage() {
  return <SellerGate>{({ user }) => <Discounts userId={user.id} />}</SellerGate>;
}
