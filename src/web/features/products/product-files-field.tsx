import { ArrowDown, ArrowUp, FileText, FileUp, Trash2 } from "lucide-react";
import { type DragEvent, useState } from "react";
import { toast } from "sonner";
import { PRODUCT_FILE_LIMITS } from "../../../contracts/product-files";
import { MAX_PRODUCT_FILE_MB, PRODUCT_FILE_FORMATS, uploadErrorTitle } from "../../../contracts/uploads";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { FieldError } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { formatBytes } from "../../lib/format-bytes";
import { cn } from "../../lib/utils";
import { addChosenFiles, type FileItem, moveItem } from "./product-file-list";

const PRODUCT_FILE_ACCEPT = Object.entries(PRODUCT_FILE_FORMATS)
  .flatMap(([extension, types]) => [`.${extension}`, ...types])
  .join(",");
const PRODUCT_FILE_HINT = `${Object.keys(PRODUCT_FILE_FORMATS).join(", ").toUpperCase()} up to ${MAX_PRODUCT_FILE_MB}MB each, ${PRODUCT_FILE_LIMITS.maxFiles} files at most`;

type RowProps = {
  item: FileItem;
  index: number;
  count: number;
  disabled: boolean;
  /** The last file of an existing product can't be removed: a product always has one. */
  removable: boolean;
  onRename: (name: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

/** One file: the name buyers see (editable), what it is, and its order and removal buttons. */
function FileRow({ item, index, count, disabled, removable, onRename, onMove, onRemove }: RowProps) {
  const [uploadedName, size] =
    item.kind === "existing" ? [item.originalName, item.sizeBytes] : [item.file.name, item.file.size];
  const label = item.name.trim() || `file ${index + 1}`;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line bg-white p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="mt-1 flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand-50">
          <FileText className="size-4 text-brand-600" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <Input
            aria-label={`Name buyers see for file ${index + 1}`}
            value={item.name}
            maxLength={PRODUCT_FILE_LIMITS.nameMax}
            disabled={disabled}
            onChange={(event) => onRename(event.target.value)}
            className="h-9"
          />
          <p className="flex min-w-0 items-center gap-2 text-xs text-muted">
            <span className="min-w-0 truncate" title={uploadedName}>
              {uploadedName}
            </span>
            <span className="shrink-0 tabular-nums">· {formatBytes(size)}</span>
            {item.kind === "new" && (
              <Badge tone="brand" className="shrink-0">
                New
              </Badge>
            )}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 items-center justify-end gap-1">
        <Button variant="ghost" size="icon" disabled={disabled || index === 0} onClick={() => onMove(-1)}>
          <ArrowUp aria-hidden="true" />
          <span className="sr-only">Move {label} up</span>
        </Button>
        <Button
          variant="ghost"
          size="icon"
          disabled={disabled || index === count - 1}
          onClick={() => onMove(1)}
        >
          <ArrowDown aria-hidden="true" />
          <span className="sr-only">Move {label} down</span>
        </Button>
        <Button variant="ghost" size="icon" disabled={disabled || !removable} onClick={onRemove}>
          <Trash2 aria-hidden="true" />
          <span className="sr-only">Remove {label}</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * The product's files (1 to 20): add several at once (picked or dropped), rename each (the name buyers
 * see), reorder, remove. New files are uploaded when the form is saved. On an existing product the
 * last file stays: a product always has one.
 */
export function ProductFilesField({
  id,
  items,
  onChange,
  disabled,
  error,
  editing,
}: {
  /** The file input's id (the form focuses it when its message appears). */
  id: string;
  items: FileItem[];
  onChange: (items: FileItem[]) => void;
  disabled: boolean;
  error: string | undefined;
  editing: boolean;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const message = problem ?? error;
  const add = (chosen: File[]) => {
    const added = addChosenFiles(items, chosen);
    setProblem(added.problem?.message ?? null);
    if (added.problem) {
      toast.error(uploadErrorTitle(added.problem.code), { description: added.problem.message });
    }
    onChange(added.items);
  };
  const update = (key: string, change: (item: FileItem) => FileItem) =>
    onChange(items.map((item) => (item.key === key ? change(item) : item)));
  const full = items.length >= PRODUCT_FILE_LIMITS.maxFiles;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && !full) add([...event.dataTransfer.files]);
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={id}>
        Digital File <span className="text-red-600">*</span>
      </Label>
      {items.length > 0 && (
        <ol className="space-y-2" aria-label="Product files">
          {items.map((item, index) => (
            <FileRow
              key={item.key}
              item={item}
              index={index}
              count={items.length}
              disabled={disabled}
              removable={!editing || items.length > 1}
              onRename={(name) => update(item.key, (current) => ({ ...current, name }))}
              onMove={(by) => onChange(moveItem(items, item.key, by))}
              onRemove={() => {
                setProblem(null);
                onChange(items.filter((other) => other.key !== item.key));
              }}
            />
          ))}
        </ol>
      )}
      {editing && (
        <p className="text-xs text-muted">
          Changes reach every buyer, past ones included: added files appear in their library and download
          page, removed files disappear.
        </p>
      )}
      <fieldset
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "min-w-0 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50/60 p-4 transition-colors focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30",
          dragging && "border-brand-500 bg-brand-50",
          (disabled || full) && "opacity-60",
          message && "border-red-500",
        )}
      >
        <input
          id={id}
          type="file"
          multiple
          accept={PRODUCT_FILE_ACCEPT}
          disabled={disabled || full}
          aria-describedby={message ? `${id}-error` : `${id}-hint`}
          aria-invalid={message ? true : undefined}
          className="sr-only"
          onChange={(event) => {
            const chosen = [...(event.target.files ?? [])];
            // Cleared so that choosing the same file again still reports it.
            event.target.value = "";
            if (chosen.length > 0) add(chosen);
          }}
        />
        <label htmlFor={id} className="flex cursor-pointer flex-col items-center gap-2 py-3 text-center">
          <FileUp className="size-6 text-slate-400" aria-hidden="true" />
          <span className="text-sm">
            <span className="font-medium text-brand-700">
              {items.length > 0 ? "Add more files" : "Choose files"}
            </span>
            <span className="text-muted"> or drag them here</span>
          </span>
          <span id={`${id}-hint`} className="text-xs text-muted">
            {full
              ? `This product has the most files allowed (${PRODUCT_FILE_LIMITS.maxFiles}).`
              : PRODUCT_FILE_HINT}
          </span>
        </label>
      </fieldset>
      <FieldError id={`${id}-error`} message={message ?? undefined} />
    </div>
  );
}
