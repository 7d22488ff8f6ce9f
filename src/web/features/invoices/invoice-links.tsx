import { FileText } from "lucide-react";
import type { BuyerPurchase } from "../../../contracts/orders";
import { useI18n } from "../../lib/i18n";
import { cn } from "../../lib/utils";

/**
 * A paid purchase's invoice links (success page, library): the PDF, the credit note once refunded, and
 * the page to correct the billing details. Plain links to signed addresses; nothing when no invoice.
 */
export function InvoiceLinks({
  invoice,
  className,
}: {
  invoice: BuyerPurchase["invoice"];
  className?: string;
}) {
  const { t } = useI18n();
  if (!invoice) return null;
  const link =
    "inline-flex items-center gap-1.5 font-medium text-brand-700 underline-offset-2 hover:underline";
  return (
    <p className={cn("flex flex-wrap gap-x-4 gap-y-1 text-sm", className)}>
      <a href={invoice.pdfPath} className={link} target="_blank" rel="noreferrer">
        <FileText className="size-4" aria-hidden="true" />
        {t("invoice.pdf")}
      </a>
      {invoice.creditNotePath && (
        <a href={invoice.creditNotePath} className={link} target="_blank" rel="noreferrer">
          <FileText className="size-4" aria-hidden="true" />
          {t("invoice.creditNote")}
        </a>
      )}
      {!invoice.creditNotePath && (
        <a href={invoice.billingPath} className={link}>
          {t("invoice.correct")}
        </a>
      )}
    </p>
  );
}
