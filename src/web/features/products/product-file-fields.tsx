import { Undo2 } from "lucide-react";
import type { CoverImage } from "../../../contracts/products";
import { COVER_IMAGE_SIZE, MAX_COVER_IMAGE_MB } from "../../../contracts/uploads";
import { Button } from "../../components/ui/button";
import { FieldError } from "../../components/ui/field-error";
import { FileDropZone } from "../../components/ui/file-drop-zone";
import { Label } from "../../components/ui/label";
import { useObjectUrl } from "../../lib/use-object-url";
import type { useCheckedFile } from "../uploads/use-checked-file";
import { ProductCover } from "./product-cover";

type CheckedFile = ReturnType<typeof useCheckedFile>;

type FileFieldProps = {
  /** The file input's id (the form focuses it when its message appears). */
  id: string;
  field: CheckedFile;
  disabled: boolean;
  /** The form's message about this field (missing, refused by the server). */
  error: string | undefined;
};

/** The drop zone with its message: a refused choice (type, size) first, else the form's. */
function CheckedDropZone({
  id,
  field,
  disabled,
  error,
  accept,
  hint,
}: FileFieldProps & { accept: string; hint: string }) {
  const message = field.problem ?? error;
  return (
    <>
      <FileDropZone
        id={id}
        accept={accept}
        file={field.file}
        onFile={field.choose}
        onClear={field.clear}
        disabled={disabled}
        hint={hint}
        invalid={Boolean(message)}
        {...(message ? { describedBy: `${id}-error` } : {})}
      />
      <FieldError id={`${id}-error`} message={message ?? undefined} />
    </>
  );
}

/**
 * The optional cover, with a preview of the chosen image. On the edit page the current cover shows
 * until a new one is chosen, and can be removed (and kept again).
 */
export function CoverImageField({
  current,
  removed = false,
  onRemove,
  onKeep,
  title,
  ...props
}: FileFieldProps & {
  current?: CoverImage | null | undefined;
  removed?: boolean;
  onRemove?: () => void;
  onKeep?: () => void;
  title: string;
}) {
  const previewUrl = useObjectUrl(props.field.file);
  const recommended = `Recommended ${COVER_IMAGE_SIZE.width}x${COVER_IMAGE_SIZE.height}`;
  const showCurrent = current && !removed && !previewUrl;
  return (
    <div className="space-y-2">
      <Label htmlFor={props.id}>
        Cover Image <span className="font-normal text-muted">(optional)</span>
      </Label>
      {previewUrl && (
        <img
          src={previewUrl}
          alt="Cover preview"
          className="aspect-[1200/630] w-full rounded-xl border border-line object-cover"
        />
      )}
      {showCurrent && (
        <div className="space-y-2">
          <ProductCover
            cover={current}
            title={title}
            sizes="(min-width: 672px) 576px, 100vw"
            className="aspect-[1200/630] w-full rounded-xl border border-line"
          />
          <Button variant="secondary" size="sm" onClick={onRemove} disabled={props.disabled}>
            Remove cover
          </Button>
        </div>
      )}
      {current && removed && !previewUrl && (
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-line bg-slate-50 p-3 text-sm">
          <p className="text-muted">The cover will be removed when you save.</p>
          <Button variant="ghost" size="sm" onClick={onKeep} disabled={props.disabled}>
            <Undo2 aria-hidden="true" />
            Keep the cover
          </Button>
        </div>
      )}
      <CheckedDropZone
        {...props}
        accept="image/*"
        hint={`JPG, PNG, WEBP, GIF or SVG up to ${MAX_COVER_IMAGE_MB}MB. ${recommended}.`}
      />
    </div>
  );
}
