import { FileUp, X } from "lucide-react";
import { type DragEvent, type ReactNode, useState } from "react";
import { formatBytes } from "../../lib/format-bytes";
import { cn } from "../../lib/utils";

type FileDropZoneProps = {
  /** The file input's id, for the field's <Label htmlFor>. */
  id: string;
  accept?: string;
  /** The chosen file, shown in place of the call to action (a zone taking `multiple` files shows none). */
  file?: File | null;
  /** Called once per file chosen or dropped. */
  onFile: (file: File) => void;
  onClear?: () => void;
  /** Takes several files at once (chosen or dropped together); the zone keeps offering more. */
  multiple?: boolean;
  disabled?: boolean;
  /** Under the call to action: formats, limits. */
  hint: ReactNode;
  describedBy?: string;
  /** A message about the field is shown (aria-invalid on the input, a red border). */
  invalid?: boolean;
};

/**
 * A file picker that also takes a dropped file; shows the chosen file's name, size and type. With
 * `multiple`, it takes several and hands each to `onFile` (the caller lists them).
 */
export function FileDropZone({
  id,
  accept,
  file = null,
  onFile,
  onClear = () => {},
  multiple = false,
  disabled,
  hint,
  describedBy,
  invalid,
}: FileDropZoneProps) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = [...event.dataTransfer.files];
    for (const one of multiple ? dropped : dropped.slice(0, 1)) onFile(one);
  };

  return (
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
        disabled && "opacity-60",
        invalid && "border-red-500",
      )}
    >
      <input
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="sr-only"
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])];
          // Cleared so that choosing the same file again still reports it.
          event.target.value = "";
          for (const one of chosen) onFile(one);
        }}
      />
      {file ? (
        <ChosenFile file={file} onClear={onClear} disabled={disabled} />
      ) : (
        <label htmlFor={id} className="flex cursor-pointer flex-col items-center gap-2 py-4 text-center">
          <FileUp className="size-6 text-slate-400" aria-hidden="true" />
          <span className="text-sm">
            <span className="font-medium text-brand-700">{multiple ? "Choose files" : "Choose a file"}</span>
            <span className="text-muted">{multiple ? " or drag them here" : " or drag it here"}</span>
          </span>
          <span className="text-xs text-muted">{hint}</span>
        </label>
      )}
    </fieldset>
  );
}

function ChosenFile({ file, onClear, disabled }: { file: File; onClear: () => void; disabled?: boolean }) {
  return (
    <div className="flex items-center gap-3">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white ring-1 ring-line">
        <FileUp className="size-5 text-brand-600" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={file.name}>
          {file.name}
        </p>
        <p className="truncate text-xs text-muted">
          {formatBytes(file.size)} · {file.type || "unknown type"}
        </p>
      </div>
      <button
        type="button"
        onClick={onClear}
        disabled={disabled}
        className="rounded-md p-1.5 text-muted transition-colors outline-none hover:bg-slate-200 hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500 disabled:pointer-events-none"
      >
        <X className="size-4" aria-hidden="true" />
        <span className="sr-only">Remove {file.name}</span>
      </button>
    </div>
  );
}
