import { useId } from "react";
import {
  COVER_IMAGE_SIZE,
  MAX_COVER_IMAGE_MB,
  MAX_PRODUCT_FILE_MB,
  PRODUCT_FILE_FORMATS,
} from "../../../contracts/uploads";
import { FileDropZone } from "../../components/ui/file-drop-zone";
import { Label } from "../../components/ui/label";
import { useObjectUrl } from "../../lib/use-object-url";
import type { useCheckedFile } from "../uploads/use-checked-file";

type CheckedFile = ReturnType<typeof useCheckedFile>;

const PRODUCT_FILE_ACCEPT = Object.entries(PRODUCT_FILE_FORMATS)
  .flatMap(([extension, types]) => [`.${extension}`, ...types])
  .join(",");
const PRODUCT_FILE_HINT = `${Object.keys(PRODUCT_FILE_FORMATS).join(", ").toUpperCase()} up to ${MAX_PRODUCT_FILE_MB}MB`;

function FieldProblem({ id, problem }: { id: string; problem: string | null }) {
  if (!problem) return null;
  return (
    <p id={id} className="text-sm text-red-600">
      {problem}
    </p>
  );
}

export function DigitalFileField({ field, disabled }: { field: CheckedFile; disabled: boolean }) {
  const id = useId();
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>
        Digital File <span className="text-red-600">*</span>
      </Label>
      <FileDropZone
        id={id}
        accept={PRODUCT_FILE_ACCEPT}
        file={field.file}
        onFile={field.choose}
        onClear={field.clear}
        disabled={disabled}
        hint={PRODUCT_FILE_HINT}
        {...(field.problem ? { describedBy: `${id}-problem` } : {})}
      />
      <FieldProblem id={`${id}-problem`} problem={field.problem} />
    </div>
  );
}

export function CoverImageField({ field, disabled }: { field: CheckedFile; disabled: boolean }) {
  const id = useId();
  const previewUrl = useObjectUrl(field.file);
  const recommended = `Recommended ${COVER_IMAGE_SIZE.width}x${COVER_IMAGE_SIZE.height}`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>
        Cover Image <span className="font-normal text-muted">(optional)</span>
      </Label>
      {previewUrl && (
        <img
          src={previewUrl}
          alt="Cover preview"
          className="aspect-[1200/630] w-full rounded-xl border border-line object-cover"
        />
      )}
      <FileDropZone
        id={id}
        accept="image/*"
        file={field.file}
        onFile={field.choose}
        onClear={field.clear}
        disabled={disabled}
        hint={`JPG, PNG, WEBP, GIF or SVG up to ${MAX_COVER_IMAGE_MB}MB. ${recommended}.`}
        {...(field.problem ? { describedBy: `${id}-problem` } : {})}
      />
      <FieldProblem id={`${id}-problem`} problem={field.problem} />
    </div>
  );
}
