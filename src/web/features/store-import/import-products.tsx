import { FileText, LoaderCircle, Paperclip, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { PRODUCT_FILE_LIMITS, PRODUCT_FILE_MESSAGES } from "../../../contracts/product-files";
import type { ImportedProductPlan, ImportReport } from "../../../contracts/store-import";
import { checkFileChoice, PRODUCT_FILE_FORMATS } from "../../../contracts/uploads";
import { Badge } from "../../components/ui/badge";
import { Button, buttonVariants } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { ApiError } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { useMediaQuery } from "../../lib/use-media-query";
import { cn } from "../../lib/utils";
import { discardUpload, uploadFile } from "../uploads/upload-client";
import { UploadError } from "../uploads/upload-error";
import type { UploadProgress } from "../uploads/upload-progress";
import { StoreZipUpload, useProductZipUpload, ZipInput, ZipProgress } from "./product-zip-upload";
import { useAttachProductFiles } from "./store-import-api";
import { counted, productPrice, productStatusBadge, productTakesFiles } from "./store-import-labels";

const PRODUCT_FILE_ACCEPT = Object.entries(PRODUCT_FILE_FORMATS)
  .flatMap(([extension, types]) => [`.${extension}`, ...types])
  .join(",");

type ProductRowProps = {
  userId: string;
  importId: string;
  product: ImportedProductPlan;
  storeCurrency: string;
};

function ProductStatus({ product, storeCurrency }: { product: ImportedProductPlan; storeCurrency: string }) {
  const badge = productStatusBadge(product, storeCurrency);
  return (
    <Badge tone={badge.tone} className="whitespace-normal">
      {badge.label}
    </Badge>
  );
}

/** Under the title: what kind of product it is, when that is worth saying. */
function productKind(product: ImportedProductPlan): string | null {
  const kinds = [
    product.productKind === "membership" ? "Membership" : null,
    product.issueLicenseKeys ? "License keys" : null,
  ].filter(Boolean);
  return kinds.length > 0 ? kinds.join(" · ") : null;
}

/**
 * The files a product of the import will be created with. Exports never carry the files buyers download,
 * so the creator uploads them here (as on the product form), one by one or as a ZIP whose every file
 * becomes one of the product's; the import keeps the whole list.
 */
function ProductFiles({ userId, importId, product }: Omit<ProductRowProps, "storeCurrency">) {
  const id = useId();
  const attach = useAttachProductFiles(userId, importId);
  const [uploading, setUploading] = useState<{ name: string; progress: UploadProgress | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [zipNote, setZipNote] = useState<string | null>(null);
  const zip = useProductZipUpload(userId, importId);
  const busy = uploading !== null || attach.isPending || zip.sending !== null;
  const attachedIds = product.files.map((file) => file.uploadId);
  const full = product.files.length >= PRODUCT_FILE_LIMITS.maxFiles;

  const save = async (uploadIds: string[]) => {
    try {
      await attach.mutateAsync({ externalId: product.externalId, uploadIds });
      return true;
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : "Couldn't save the product's files. Try again.");
      return false;
    }
  };

  /** Every file of the ZIP becomes one of the product's, after those it has. */
  const addZip = async (file: File) => {
    setProblem(null);
    setZipNote(null);
    const sent = await zip.send({ externalId: product.externalId }, file);
    if ("refused" in sent) return setProblem(sent.refused);
    const added = sent.result.attached[0]?.files.length ?? 0;
    const left = sent.result.systemFiles;
    setZipNote(
      `Added ${counted(added, "file", "files")} from ${file.name}${left > 0 ? ` (${counted(left, "system file", "system files")} left out)` : ""}.`,
    );
  };

  const add = async (chosen: File[]) => {
    setProblem(null);
    setZipNote(null);
    for (const file of chosen) {
      const refused = checkFileChoice("product-file", file);
      if (refused) return setProblem(`${file.name}: ${refused.message}`);
    }
    if (product.files.length + chosen.length > PRODUCT_FILE_LIMITS.maxFiles)
      return setProblem(PRODUCT_FILE_MESSAGES.tooMany);
    const uploaded: string[] = [];
    try {
      for (const [index, file] of chosen.entries()) {
        const of = chosen.length > 1 ? ` (${index + 1} of ${chosen.length})` : "";
        setUploading({ name: `${file.name}${of}`, progress: null });
        const done = await uploadFile("product-file", file, {
          onProgress: (progress) => setUploading({ name: `${file.name}${of}`, progress }),
        });
        uploaded.push(done.uploadId);
      }
    } catch (error) {
      for (const uploadId of uploaded) void discardUpload(uploadId);
      setUploading(null);
      return setProblem(error instanceof UploadError ? error.message : "The upload failed. Try again.");
    }
    setUploading(null);
    if (!(await save([...attachedIds, ...uploaded])))
      for (const uploadId of uploaded) void discardUpload(uploadId);
  };

  return (
    <div className="space-y-2">
      {product.files.length > 0 && (
        <ul className="space-y-1.5" aria-label={`Files of ${product.title}`}>
          {product.files.map((file) => (
            <li key={file.uploadId} className="flex items-center gap-2 text-sm">
              <FileText className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
              <span className="min-w-0 flex-1 truncate text-ink" title={file.name}>
                {file.name}
              </span>
              {file.sizeBytes !== null && (
                <span className="shrink-0 text-xs text-muted tabular-nums">
                  {formatBytes(file.sizeBytes)}
                </span>
              )}
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                disabled={busy}
                onClick={() => void save(attachedIds.filter((uploadId) => uploadId !== file.uploadId))}
              >
                <Trash2 aria-hidden="true" />
                <span className="sr-only">
                  Remove {file.name} from {product.title}
                </span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {uploading && (
        <div className="space-y-1">
          <Progress value={uploading.progress?.percent ?? 0} label={`Uploading ${uploading.name}`} />
          <p className="truncate text-xs text-muted">Uploading {uploading.name}</p>
        </div>
      )}
      {zip.sending && <ZipProgress sending={zip.sending} />}
      <div className="flex flex-wrap items-center gap-2">
        <div>
          <input
            id={id}
            type="file"
            multiple
            accept={PRODUCT_FILE_ACCEPT}
            disabled={busy || full}
            className="peer sr-only"
            aria-describedby={problem ? `${id}-problem` : undefined}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              event.target.value = "";
              if (chosen.length > 0) void add(chosen);
            }}
          />
          <label
            htmlFor={id}
            className={cn(
              buttonVariants({ variant: "secondary", size: "sm" }),
              "cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:pointer-events-none peer-disabled:opacity-50",
            )}
          >
            {attach.isPending ? (
              <LoaderCircle className="animate-spin" aria-hidden="true" />
            ) : (
              <Paperclip aria-hidden="true" />
            )}
            {product.files.length > 0 ? "Add more files" : "Attach its files"}
            <span className="sr-only"> to {product.title}</span>
          </label>
        </div>
        <ZipInput
          id={`${id}-zip`}
          label="Upload a ZIP"
          srLabel={`of ${product.title}'s files`}
          disabled={busy || full}
          busy={zip.sending !== null}
          describedBy={problem ? `${id}-problem` : undefined}
          invalid={problem !== null}
          onZip={(file) => void addZip(file)}
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} className="text-sm break-words text-red-700">
          {problem}
        </p>
      )}
      {zipNote && !problem && (
        <p className="text-xs text-muted" role="status">
          {zipNote}
        </p>
      )}
    </div>
  );
}

function ProductTitle({ product }: { product: ImportedProductPlan }) {
  const kind = productKind(product);
  return (
    <>
      <p className="font-medium break-words text-ink">{product.title}</p>
      {kind && <p className="text-xs text-muted">{kind}</p>}
    </>
  );
}

/** Wide screens: a table, each product's files under its row. */
function ProductsTable({ userId, importId, products, storeCurrency }: ProductListProps) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-6 font-medium">
            Product
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Price
          </th>
          <th scope="col" className="w-20 px-3 py-2.5 text-right font-medium">
            Orders
          </th>
          <th scope="col" className="w-48 py-2.5 pr-6 pl-3 font-medium">
            Status
          </th>
        </tr>
      </thead>
      {products.map((product) => (
        <tbody key={product.externalId} className="border-b border-line last:border-b-0">
          <tr>
            <td className="py-3 pr-3 pl-6 align-top">
              <ProductTitle product={product} />
            </td>
            <td className="px-3 py-3 text-right align-top font-medium text-ink tabular-nums">
              {productPrice(product)}
            </td>
            <td className="px-3 py-3 text-right align-top text-muted tabular-nums">
              {product.orders.toLocaleString("en-US")}
            </td>
            <td className="py-3 pr-6 pl-3 align-top">
              <ProductStatus product={product} storeCurrency={storeCurrency} />
            </td>
          </tr>
          {productTakesFiles(product) && (
            <tr>
              <td colSpan={4} className="px-6 pb-4">
                <ProductFiles userId={userId} importId={importId} product={product} />
              </td>
            </tr>
          )}
        </tbody>
      ))}
    </table>
  );
}

/** Phones: one card per product. */
function ProductCards({ userId, importId, products, storeCurrency }: ProductListProps) {
  return (
    <ul className="divide-y divide-line border-t border-line" aria-label="Products">
      {products.map((product) => (
        <li key={product.externalId} className="space-y-2 px-4 py-3">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <ProductTitle product={product} />
            </div>
            <p className="shrink-0 text-sm font-semibold text-ink tabular-nums">{productPrice(product)}</p>
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <ProductStatus product={product} storeCurrency={storeCurrency} />
            <span>{counted(product.orders, "order", "orders")}</span>
          </div>
          {productTakesFiles(product) && (
            <ProductFiles userId={userId} importId={importId} product={product} />
          )}
        </li>
      ))}
    </ul>
  );
}

type ProductListProps = {
  userId: string;
  importId: string;
  products: ImportedProductPlan[];
  storeCurrency: string;
};

/** The dry run's products: what the run does with each, and their files. */
export function ImportProducts({
  userId,
  importId,
  report,
  archive = false,
}: {
  userId: string;
  importId: string;
  report: ImportReport;
  /** A Flatfee archive: it holds the products' files. */
  archive?: boolean;
}) {
  const wide = useMediaQuery("(min-width: 640px)");
  const { products } = report;
  const needFiles = report.products.filter((product) => product.status === "needs-files").length;
  const listed = { userId, importId, products, storeCurrency: report.storeCurrency };
  return (
    <Card className="overflow-hidden">
      <CardHeader className="pb-4">
        <CardTitle>Products</CardTitle>
        <CardDescription>
          {archive
            ? "The archive holds each product's files: they come with it. You can add more."
            : `Exports don't include the files your buyers download. A product marked "Add its files" is left out, with its past orders, until you attach them.`}
          {needFiles > 0 && ` ${counted(needFiles, "product needs", "products need")} files.`}
        </CardDescription>
      </CardHeader>
      {!archive && <StoreZipUpload userId={userId} importId={importId} report={report} />}
      {report.products.length === 0 ? (
        <p className="border-t border-line px-6 py-4 text-sm text-muted">The files list no products.</p>
      ) : wide ? (
        <ProductsTable {...listed} />
      ) : (
        <ProductCards {...listed} />
      )}
    </Card>
  );
}
