import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import {
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES,
  type SellerProduct,
  type SellerProductDetail,
} from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioCards } from "../../components/ui/radio-card";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { copyToClipboard } from "../../lib/clipboard";
import { sellerKeys } from "../../lib/seller-status";
import { useStoreCurrency, useStoreCurrencySettings } from "../../lib/store-currency";
import { LicenseKeysField } from "../licenses/license-keys-field";
import { UploadError } from "../uploads/upload-error";
import { showUploadError } from "../uploads/upload-toast";
import { useCheckedFile } from "../uploads/use-checked-file";
import { InventoryField } from "./inventory-field";
import { OtherPricesField, otherPriceFocusId } from "./other-prices-field";
import { PriceField } from "./price-field";
import { CoverImageField } from "./product-file-fields";
import {
  existingFileItems,
  type FileItem,
  fileEntries,
  fileListProblem,
  filesChanged,
  newFilesOf,
} from "./product-file-list";
import { ProductFilesField } from "./product-files-field";
import {
  EMPTY_PRODUCT_FORM,
  formFieldOfError,
  type OtherPriceRow,
  otherPriceInputs,
  otherPriceProblemIndex,
  otherPriceRows,
  type ProductFieldErrors,
  type ProductFormField,
  type ProductFormValues,
  productFormProblem,
  productFormValues,
  stockHint,
  toCreateProductInput,
  toUpdateProductInput,
} from "./product-form";
import { createProduct, productKeys, productUrl, updateProduct } from "./products-api";
import { PublishProgressBar } from "./publish-progress";
import { StampPdfsField } from "./stamp-pdfs-field";
import { TaxCategoryField } from "./tax-category-field";
import { TierEditor, tierFocusId } from "./tier-editor";
import {
  newTier,
  pendingTierInputs,
  type TierFormValues,
  type TierProblem,
  tierFormValues,
  tierInputs,
  tierProblem,
} from "./tier-form";
import { type SaveOutcome, useSaveProduct } from "./use-save-product";

/** The fields in the order they are on screen: the first with a message gets the focus. */
const FIELD_ORDER: ProductFormField[] = [
  "title",
  "description",
  "price",
  "suggestedPrice",
  "prices",
  "quantityAvailable",
  "file",
  "tiers",
  "cover",
];

const KIND_OPTIONS = [
  { value: "one_time", label: "One-time purchase", hint: "Buyers pay once and keep the files" },
  { value: "membership", label: "Membership", hint: "Members pay monthly or yearly, by tier" },
] as const;

/**
 * The form's file rows, tiers and prices in other currencies: a tier names its files by their rows'
 * keys; saved amounts are read in the product's currency.
 */
function filesTiersAndPrices(product: SellerProductDetail | undefined): {
  files: FileItem[];
  tiers: TierFormValues[];
  prices: OtherPriceRow[];
} {
  const files = product ? existingFileItems(product.files) : [];
  const tiers =
    product?.kind === "membership" && product.tiers.length > 0
      ? tierFormValues(product.tiers, files, product.currency)
      : [newTier()];
  return { files, tiers, prices: otherPriceRows(product) };
}

/** The header of /new and of the edit page, with the way back. */
export function ProductFormFrame({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-2xl">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted transition-colors outline-none hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight break-words text-ink">{title}</h1>
      <p className="mt-1 text-sm text-muted">{subtitle}</p>
      <div className="mt-6">{children}</div>
    </div>
  );
}

function showCreated(productId: string): void {
  const url = productUrl(window.location.origin, productId);
  toast.success(PRODUCT_MESSAGES.createdTitle, {
    description: PRODUCT_MESSAGES.created,
    action: { label: "Copy Link", onClick: () => void copyToClipboard(url, PRODUCT_MESSAGES.linkCopied) },
  });
}

/**
 * Why a save failed, as a toast under `failedTitle` (an upload's own title for an upload) and as the
 * field's message when the failure is about one field.
 */
function saveFailure(
  outcome: Extract<SaveOutcome<unknown>, { failed: unknown }>,
  failedTitle: string,
): ProductFieldErrors {
  const { failed: error, field } = outcome;
  if (error instanceof UploadError) {
    showUploadError(error);
    return field ? { [field]: error.message } : {};
  }
  if (isAlreadyReported(error)) return {};
  const message = error instanceof ApiError ? error.message : "Please try again";
  toast.error(failedTitle, { description: message });
  const about = error instanceof ApiError ? formFieldOfError(error.details.field, message) : undefined;
  return about ? { [about]: message } : {};
}

/**
 * The product form of /new (Publish) and of the edit page (Save): the same fields, checks and
 * messages. Each message shows next to its field as well as in the spec's toast.
 */
export function ProductForm({
  userId,
  product,
  onSaved,
}: {
  userId: string;
  /** The product being edited; none on /new. */
  product?: SellerProductDetail;
  onSaved: (product: SellerProduct) => void;
}) {
  const id = useId();
  const ids: Record<ProductFormField, string> = {
    title: `${id}-title`,
    description: `${id}-description`,
    price: `${id}-price`,
    suggestedPrice: `${id}-suggested-price`,
    quantityAvailable: `${id}-quantity`,
    file: `${id}-file`,
    cover: `${id}-cover`,
    tiers: `${id}-tiers`,
    prices: `${id}-prices`,
  };
  const queryClient = useQueryClient();
  const storeCurrency = useStoreCurrency();
  const currencySettings = useStoreCurrencySettings(userId);
  const { register, control, handleSubmit, watch, formState } = useForm<ProductFormValues>({
    defaultValues: product ? productFormValues(product) : EMPTY_PRODUCT_FORM,
  });
  const { dirtyFields } = formState;
  const [errors, setErrors] = useState<ProductFieldErrors>({});
  const [initial] = useState(() => filesTiersAndPrices(product));
  const [fileItems, setFileItems] = useState<FileItem[]>(initial.files);
  const [tiers, setTiers] = useState<TierFormValues[]>(initial.tiers);
  /** The seller changed the tiers: an edit sends the whole list. */
  const [tiersChanged, setTiersChanged] = useState(false);
  /** Which tier and field the tiers' message is about, when the form's check knows. */
  const [tierAt, setTierAt] = useState<TierProblem | undefined>(undefined);
  const [otherPrices, setOtherPrices] = useState<OtherPriceRow[]>(initial.prices);
  /** The seller changed the prices in other currencies: an edit sends the whole list. */
  const [pricesChanged, setPricesChanged] = useState(false);
  /** Which row the prices' message is about, when known. */
  const [priceRowAt, setPriceRowAt] = useState<number | undefined>(undefined);
  const coverFile = useCheckedFile("product-cover");
  const [coverRemoved, setCoverRemoved] = useState(false);
  const { save, cancel, busy, progress } = useSaveProduct();
  const failedTitle = product ? PRODUCT_MESSAGES.updateFailedTitle : PRODUCT_MESSAGES.createFailedTitle;

  const clearError = (field: ProductFormField) =>
    setErrors((current) => {
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  const showErrors = (next: ProductFieldErrors, at?: TierProblem) => {
    setErrors(next);
    setTierAt(at);
    const priceRow = next.prices
      ? otherPriceProblemIndex(otherPrices, next.prices, storeCurrency)
      : undefined;
    setPriceRowAt(priceRow);
    const first = FIELD_ORDER.find((field) => next[field]);
    const target =
      first === "tiers"
        ? tierFocusId(ids.tiers, tiers, at)
        : first === "prices"
          ? otherPriceFocusId(ids.prices, otherPrices, priceRow)
          : first && ids[first];
    if (target) document.getElementById(target)?.focus();
  };
  const withClear = (field: "file" | "cover", checked: typeof coverFile) => ({
    ...checked,
    choose: (file: File) => {
      clearError(field);
      checked.choose(file);
    },
  });
  const text = (field: "title" | "description") => ({
    id: ids[field],
    disabled: busy,
    ...fieldErrorProps(`${ids[field]}-error`, errors[field]),
    ...register(field, { onChange: () => clearError(field) }),
  });

  const onSubmit = handleSubmit(async (values) => {
    const membership = values.kind === "membership";
    const problem =
      productFormProblem(values, {
        hasFile: fileItems.length > 0,
        failedTitle,
        currency: storeCurrency,
        ...(membership
          ? { tiers: pendingTierInputs(tiers, fileItems) }
          : { prices: otherPriceInputs(otherPrices) }),
      }) ?? fileListProblem(fileItems, failedTitle);
    if (problem) {
      showErrors(
        problem.errors,
        problem.errors.tiers ? tierProblem(tiers, fileItems, storeCurrency) : undefined,
      );
      toast.error(problem.title, { description: problem.message });
      return;
    }
    setErrors({});
    setTierAt(undefined);
    setPriceRowAt(undefined);
    const outcome = await save(
      { files: newFilesOf(fileItems), cover: coverFile.file },
      ({ fileUploadIds, coverUploadId }) => {
        const files = fileEntries(fileItems, fileUploadIds);
        const tierList = membership ? tierInputs(tiers, fileItems, fileUploadIds) : [];
        const prices = membership ? [] : otherPriceInputs(otherPrices);
        if (!product) {
          return createProduct(toCreateProductInput(values, files, coverUploadId, tierList, prices));
        }
        const cover = coverUploadId ?? (coverRemoved ? null : undefined);
        return updateProduct(
          product.id,
          toUpdateProductInput(values, dirtyFields, {
            ...(filesChanged(fileItems, product.files) ? { files } : {}),
            ...(cover !== undefined ? { coverUploadId: cover } : {}),
            ...(membership && tiersChanged ? { tiers: tierList } : {}),
            ...(!membership && pricesChanged ? { prices } : {}),
          }),
        );
      },
    );
    if ("cancelled" in outcome) return;
    if ("failed" in outcome) {
      showErrors(saveFailure(outcome, failedTitle));
      return;
    }
    const saved = outcome.saved;
    if ("unitsSold" in saved) {
      queryClient.setQueryData(productKeys.detail(userId, saved.id), saved);
      // The list now holds the saved files, tiers and prices (new ones got ids), so Keep editing starts from them.
      const next = filesTiersAndPrices(saved as SellerProductDetail);
      setFileItems(next.files);
      setTiers(next.tiers);
      setTiersChanged(false);
      setOtherPrices(next.prices);
      setPricesChanged(false);
    }
    // Refetched now, not when the dashboard mounts, so it opens with the change in it.
    await queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId), refetchType: "all" });
    if (product) toast.success(PRODUCT_MESSAGES.updatedTitle, { description: PRODUCT_MESSAGES.updated });
    else showCreated(saved.id);
    onSaved(saved);
  });

  const submitLabel = product ? "Save Changes" : "Publish Product";
  const busyLabel = product && !progress ? "Saving..." : "Uploading...";
  const membership = watch("kind") === "membership";
  const filesField = (
    <ProductFilesField
      id={ids.file}
      items={fileItems}
      onChange={(items) => {
        clearError("file");
        setFileItems(items);
      }}
      disabled={busy}
      error={errors.file}
      editing={Boolean(product)}
    />
  );

  return (
    <Card className="p-5 sm:p-8">
      <form onSubmit={onSubmit} noValidate className="space-y-6" aria-busy={busy}>
        {!product && (
          <fieldset className="space-y-3" disabled={busy}>
            <legend className="text-sm font-medium text-ink">What are you selling?</legend>
            <Controller
              control={control}
              name="kind"
              render={({ field }) => (
                <RadioCards
                  id={`${id}-kind`}
                  label="What are you selling?"
                  value={field.value}
                  options={KIND_OPTIONS}
                  onChange={(value) => {
                    field.onChange(value);
                    setErrors({});
                    setTierAt(undefined);
                  }}
                />
              )}
            />
          </fieldset>
        )}
        <div className="space-y-2">
          <Label htmlFor={ids.title}>
            Product Title <span className="text-red-600">*</span>
          </Label>
          <Input placeholder="e.g. The Complete Guide to Watercolor" {...text("title")} />
          <FieldError id={`${ids.title}-error`} message={errors.title} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={ids.description}>Description</Label>
          <Textarea
            rows={5}
            maxLength={PRODUCT_LIMITS.descriptionMax}
            placeholder="What buyers get, who it is for, what is inside."
            {...text("description")}
          />
          <FieldError id={`${ids.description}-error`} message={errors.description} />
        </div>
        {membership ? (
          <>
            {filesField}
            <TierEditor
              id={ids.tiers}
              currency={storeCurrency}
              currencies={{ data: currencySettings.data, loadFailed: currencySettings.isError }}
              tiers={tiers}
              files={fileItems}
              editing={Boolean(product)}
              disabled={busy}
              error={errors.tiers}
              problem={tierAt}
              onChange={(next) => {
                clearError("tiers");
                setTierAt(undefined);
                setTiersChanged(true);
                setTiers(next);
              }}
            />
          </>
        ) : (
          <>
            <PriceField
              ids={ids}
              currency={storeCurrency}
              register={register}
              flexible={watch("flexiblePrice")}
              editing={Boolean(product)}
              errors={errors}
              onChange={clearError}
              disabled={busy}
            />
            <OtherPricesField
              id={ids.prices}
              storeCurrency={storeCurrency}
              rows={otherPrices}
              currencies={currencySettings.data}
              loadFailed={currencySettings.isError}
              error={errors.prices}
              errorIndex={priceRowAt}
              disabled={busy}
              onChange={(next) => {
                clearError("prices");
                setPriceRowAt(undefined);
                setPricesChanged(true);
                setOtherPrices(next);
              }}
            />
            <InventoryField
              id={ids.quantityAvailable}
              control={control}
              register={register}
              limited={watch("inventoryType") === "limited"}
              quantityLabel={product ? "Total Quantity" : "Available Quantity"}
              quantityHint={product ? stockHint(product) : undefined}
              error={errors.quantityAvailable}
              onChange={() => clearError("quantityAvailable")}
              disabled={busy}
            />
            {filesField}
          </>
        )}
        <CoverImageField
          id={ids.cover}
          field={withClear("cover", coverFile)}
          disabled={busy}
          error={errors.cover}
          title={product?.title ?? ""}
          current={product?.cover}
          removed={coverRemoved}
          onRemove={() => setCoverRemoved(true)}
          onKeep={() => setCoverRemoved(false)}
        />
        {!membership && <LicenseKeysField register={register} editing={Boolean(product)} disabled={busy} />}
        <TaxCategoryField register={register} disabled={busy} />
        <StampPdfsField
          register={register}
          stampingOn={watch("stampPdfs")}
          productId={product?.id}
          disabled={busy}
        />
        {progress && <PublishProgressBar state={progress} />}
        <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Card>
  );
}
