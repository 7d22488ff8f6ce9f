import { Building2 } from "lucide-react";
import type { PublicProduct } from "../../../contracts/products";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { useI18n, useServerText } from "../../lib/i18n";
import type { BuyerEntry } from "./price-forms";

/**
 * "Buying for a business?", inside the Buy Now form (and each tier's Subscribe form) when the store
 * collects tax: the business name and an EU VAT number for the invoice. The server checks the number with
 * VIES before Checkout; a valid one from another country than the seller's is reverse charged. Open again
 * when the server refused one. `idPrefix` keeps the ids apart when a page has several of these forms.
 */
export function BusinessBuyerFields({
  product,
  entry,
  idPrefix,
}: {
  product: PublicProduct;
  entry?: BuyerEntry["business"];
  idPrefix?: string;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  const id = idPrefix ?? `business-${product.id}`;
  const problem = entry?.problem && { ...entry.problem, message: serverText(entry.problem.message) };
  const opened = Boolean(entry?.businessName || entry?.vatNumber || problem);
  return (
    <details open={opened ? true : undefined} className="group rounded-xl border border-line bg-white">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-4 py-3 text-sm font-medium text-ink hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        <Building2 className="size-4 text-muted" aria-hidden="true" />
        {t("business.question")}
      </summary>
      <div className="space-y-3 px-4 pb-4">
        <p className="text-sm text-muted">{t("business.intro")}</p>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-ink">
            {t("business.name")}
          </label>
          <Input
            id={`${id}-name`}
            name="businessName"
            autoComplete="organization"
            maxLength={200}
            defaultValue={entry?.businessName ?? ""}
            {...fieldErrorProps(
              `${id}-name-problem`,
              problem?.field === "businessName" ? problem.message : undefined,
            )}
          />
          <FieldError
            id={`${id}-name-problem`}
            message={problem?.field === "businessName" ? problem.message : undefined}
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-vat`} className="text-sm font-medium text-ink">
            {t("business.vatNumber")} <span className="font-normal text-muted">{t("business.optional")}</span>
          </label>
          <Input
            id={`${id}-vat`}
            name="vatNumber"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="DE123456789"
            maxLength={40}
            defaultValue={entry?.vatNumber ?? ""}
            {...fieldErrorProps(
              `${id}-vat-problem`,
              problem?.field === "vatNumber" ? problem.message : undefined,
            )}
          />
          <FieldError
            id={`${id}-vat-problem`}
            message={problem?.field === "vatNumber" ? problem.message : undefined}
          />
        </div>
      </div>
    </details>
  );
}
