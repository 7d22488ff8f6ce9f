import { useQuery } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { useId } from "react";
import type { UseFormRegister } from "react-hook-form";
import {
  PDF_STAMP_MESSAGES,
  type ProductStamping,
  productStampingSchema,
} from "../../../contracts/pdf-stamps";
import { countOf } from "../../../contracts/plural";
import { api } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import type { ProductFormValues } from "./product-form";

/**
 * The product form's "Stamp PDFs with the buyer's email" switch (/new and the edit page), with the
 * limits. On the edit page it also says which of the product's files will be stamped, how many copies
 * are made, and the latest stamps that failed (those buyers got the file as uploaded).
 */
export function StampPdfsField({
  register,
  stampingOn,
  productId,
  disabled,
}: {
  register: UseFormRegister<ProductFormValues>;
  /** The switch as it is on screen (saved or not): the file list follows it. */
  stampingOn: boolean;
  /** The product being edited; none on /new. */
  productId?: string | undefined;
  disabled: boolean;
}) {
  const hintId = useId();
  return (
    <div className="space-y-3">
      <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
          disabled={disabled}
          aria-describedby={hintId}
          {...register("stampPdfs")}
        />
        <span className="min-w-0">
          <span className="block font-medium">{PDF_STAMP_MESSAGES.settingLabel}</span>
          <span id={hintId} className="block text-xs text-muted">
            {PDF_STAMP_MESSAGES.settingHint} {PDF_STAMP_MESSAGES.limits}
          </span>
        </span>
      </label>
      {productId && <ProductStampingStatus productId={productId} stampingOn={stampingOn} />}
    </div>
  );
}

function ProductStampingStatus({ productId, stampingOn }: { productId: string; stampingOn: boolean }) {
  const { data } = useQuery({
    queryKey: ["pdf-stamps", productId],
    queryFn: ({ signal }) =>
      api(`/api/products/${encodeURIComponent(productId)}/pdf-stamps`, {
        schema: productStampingSchema,
        signal,
      }),
  });
  if (!data) return null;
  return (
    <div className="ml-7 space-y-3 text-xs">
      <StampableFiles files={data.files} stampingOn={stampingOn} />
      {(data.stampedCount > 0 || data.pendingCount > 0) && (
        <p className="text-muted">
          {countOf(data.stampedCount, "copy", "copies")} stamped
          {data.pendingCount > 0 && `, ${data.pendingCount} being stamped`}.
        </p>
      )}
      {data.problems.length > 0 && <StampProblems problems={data.problems} />}
    </div>
  );
}

/** A PDF that can be stamped is only "Stamped for each buyer" while stamping is on. */
export function StampableFiles({
  files,
  stampingOn,
}: {
  files: ProductStamping["files"];
  stampingOn: boolean;
}) {
  return (
    <ul className="space-y-1" aria-label="Which files are stamped">
      {files.map((file, index) => (
        // Names may repeat; the position tells files apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole on every load.
        <li key={index} className="flex min-w-0 flex-wrap gap-x-2">
          <span className="min-w-0 font-medium wrap-anywhere text-ink">{file.name}</span>
          {file.sizeBytes !== null && <span className="text-muted">{formatBytes(file.sizeBytes)}</span>}
          {file.notStamped || !stampingOn ? (
            <span className="text-muted">{file.notStamped ?? PDF_STAMP_MESSAGES.stampingOff}</span>
          ) : (
            <span className="text-emerald-700">Stamped for each buyer</span>
          )}
        </li>
      ))}
    </ul>
  );
}

function StampProblems({ problems }: { problems: ProductStamping["problems"] }) {
  return (
    <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-900" role="status">
      <p className="flex items-center gap-1.5 font-medium">
        <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
        Some copies could not be stamped
      </p>
      <ul className="mt-2 space-y-1.5">
        {problems.map((problem) => (
          <li key={`${problem.orderId}-${problem.fileName}`} className="wrap-anywhere">
            <span className="font-medium">{problem.fileName}</span> for {problem.email} (order{" "}
            {problem.orderId}, {new Date(problem.at).toLocaleDateString()}): {problem.reason}{" "}
            {PDF_STAMP_MESSAGES.fallback}
          </li>
        ))}
      </ul>
    </div>
  );
}
