import { ImageUp } from "lucide-react";
import { useId, useRef } from "react";
import { Button } from "../../components/ui/button";
import { FieldError } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { useObjectUrl } from "../../lib/use-object-url";
import { StoreAvatar } from "../storefront/store-avatar";
import type { useCheckedFile } from "../uploads/use-checked-file";

/** Profile picture or logo: preview, change (an image under 5MB, checked on choice) or remove. */
export function ProfilePictureField({
  savedUrl,
  picture,
  error,
  removed,
  onRemove,
  onChoose,
  disabled,
}: {
  savedUrl: string | null;
  picture: ReturnType<typeof useCheckedFile>;
  /** Why the chosen picture was refused, on choosing it or by the server. */
  error: string | null | undefined;
  removed: boolean;
  onRemove: () => void;
  onChoose: () => void;
  disabled: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const previewUrl = useObjectUrl(picture.file);
  const shownUrl = previewUrl ?? (removed ? null : savedUrl);
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Profile Picture or Logo</Label>
      <div className="flex flex-wrap items-center gap-4">
        <StoreAvatar url={shownUrl} className="size-20" />
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => input.current?.click()}
              disabled={disabled}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
            >
              <ImageUp aria-hidden="true" />
              {shownUrl ? "Change picture" : "Upload picture"}
            </Button>
            {shownUrl && (
              <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
                Remove
              </Button>
            )}
          </div>
          <p id={`${id}-hint`} className="text-xs text-muted">
            An image under 5MB. Square works best.
          </p>
          <FieldError id={`${id}-error`} message={error ?? undefined} />
        </div>
      </div>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        tabIndex={-1}
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          event.target.value = "";
          if (chosen) {
            onChoose();
            picture.choose(chosen);
          }
        }}
      />
    </div>
  );
}
