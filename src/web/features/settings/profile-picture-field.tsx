import { ImageUp } from "lucide-react";
import { useId, useRef } from "react";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { useObjectUrl } from "../../lib/use-object-url";
import { StoreAvatar } from "../storefront/store-avatar";
import type { useCheckedFile } from "../uploads/use-checked-file";

/** Profile picture or logo: preview, change (an image under 5MB, checked on choice) or remove. */
export function ProfilePictureField({
  savedUrl,
  picture,
  removed,
  onRemove,
  disabled,
}: {
  savedUrl: string | null;
  picture: ReturnType<typeof useCheckedFile>;
  removed: boolean;
  onRemove: () => void;
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
        <div className="space-y-2">
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => input.current?.click()} disabled={disabled}>
              <ImageUp aria-hidden="true" />
              {shownUrl ? "Change picture" : "Upload picture"}
            </Button>
            {shownUrl && (
              <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
                Remove
              </Button>
            )}
          </div>
          <p className="text-xs text-muted">An image under 5MB. Square works best.</p>
          {picture.problem && <p className="text-sm text-red-600">{picture.problem}</p>}
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
          if (chosen) picture.choose(chosen);
        }}
      />
    </div>
  );
}
