import { ArrowLeft } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { PRODUCT_LIMITS } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Textarea } from "../../components/ui/textarea";
import { useCheckedFile } from "../uploads/use-checked-file";
import { InventoryField } from "./inventory-field";
import { CoverImageField, DigitalFileField } from "./product-file-fields";
import { EMPTY_PRODUCT_FORM, type ProductFormValues, productFormProblem } from "./product-form";
import { PublishProgressBar } from "./publish-progress";
import { usePublishProduct } from "./use-publish-product";

export function NewProductForm({ userId }: { userId: string }) {
  const id = useId();
  const { register, control, handleSubmit, watch, setError, clearErrors, formState } =
    useForm<ProductFormValues>({ defaultValues: EMPTY_PRODUCT_FORM });
  const productFile = useCheckedFile("product-file");
  const coverFile = useCheckedFile("product-cover");
  const { publish, cancel, busy, progress } = usePublishProduct(userId);
  const invalid = (field: keyof ProductFormValues) => (formState.errors[field] ? true : undefined);

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const problem = productFormProblem(values, productFile.file !== null);
    if (problem) {
      if (problem.field !== "file")
        setError(problem.field, { message: problem.message }, { shouldFocus: true });
      toast.error(problem.title, { description: problem.message });
      return;
    }
    if (productFile.file) await publish(values, productFile.file, coverFile.file);
  });

  return (
    <div className="mx-auto max-w-2xl">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted transition-colors outline-none hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">New Product</h1>
      <p className="mt-1 text-sm text-muted">Upload a file, set a price and get one link to share.</p>
      <Card className="mt-6 p-5 sm:p-8">
        <form onSubmit={onSubmit} noValidate className="space-y-6" aria-busy={busy}>
          <div className="space-y-2">
            <Label htmlFor={`${id}-title`}>
              Product Title <span className="text-red-600">*</span>
            </Label>
            <Input
              id={`${id}-title`}
              placeholder="e.g. The Complete Guide to Watercolor"
              aria-invalid={invalid("title")}
              disabled={busy}
              {...register("title")}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea
              id={`${id}-description`}
              rows={5}
              maxLength={PRODUCT_LIMITS.descriptionMax}
              placeholder="What buyers get, who it is for, what is inside."
              aria-invalid={invalid("description")}
              disabled={busy}
              {...register("description")}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-price`}>
              Price (USD) <span className="text-red-600">*</span>
            </Label>
            <div className="relative sm:max-w-48">
              <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted">
                $
              </span>
              <Input
                id={`${id}-price`}
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                placeholder="19.99"
                className="pl-7"
                aria-invalid={invalid("price")}
                disabled={busy}
                {...register("price")}
              />
            </div>
            {formState.errors.price?.message && (
              <p className="text-sm text-red-600">{formState.errors.price.message}</p>
            )}
          </div>
          <InventoryField
            control={control}
            register={register}
            limited={watch("inventoryType") === "limited"}
            quantityInvalid={Boolean(formState.errors.quantityAvailable)}
            disabled={busy}
          />
          <DigitalFileField field={productFile} disabled={busy} />
          <CoverImageField field={coverFile} disabled={busy} />
          {progress && <PublishProgressBar state={progress} />}
          <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={cancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Uploading..." : "Publish Product"}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
