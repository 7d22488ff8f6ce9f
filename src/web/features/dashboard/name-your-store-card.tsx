import { useQueryClient } from "@tanstack/react-query";
import { Store } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import {
  STORE_SETTINGS_MESSAGES,
  type StoreSettings,
  storeSettingsInputSchema,
} from "../../../contracts/store-settings";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { isAlreadyReported } from "../../lib/already-reported";
import { sellerKeys } from "../../lib/seller-status";
import type { SessionUser } from "../../lib/session";
import { saveStoreSettings } from "../settings/store-settings-api";
import { StorePreview } from "./store-preview";
import { suggestedStoreName } from "./suggested-store-name";

/** The name as it would be saved, or why it cannot be. */
function checkStoreName(name: string): { name: string } | { problem: string } {
  const parsed = storeSettingsInputSchema.shape.storeName.safeParse(name);
  if (!parsed.success)
    return { problem: parsed.error.issues[0]?.message ?? STORE_SETTINGS_MESSAGES.nameTooLong };
  return parsed.data ? { name: parsed.data } : { problem: STORE_SETTINGS_MESSAGES.nameRequired };
}

/**
 * Shown on the dashboard while the store has no name, so buyers never meet a new seller as
 * "Digital Store": a suggested name to confirm or change, with a live preview of the product page.
 * Only the name is saved; the rest of the store settings stay as they are.
 */
export function NameYourStoreCard({ user, settings }: { user: SessionUser; settings: StoreSettings }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(() => suggestedStoreName(user));
  const [problem, setProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkStoreName(name);
    if ("problem" in checked) {
      setProblem(checked.problem);
      toast.error(STORE_SETTINGS_MESSAGES.updateFailedTitle, { description: checked.problem });
      return;
    }
    setProblem(undefined);
    setSaving(true);
    try {
      await saveStoreSettings({ storeName: checked.name });
      toast.success(STORE_SETTINGS_MESSAGES.updatedTitle);
      await queryClient.invalidateQueries({ queryKey: sellerKeys.all(user.id) });
    } catch (error) {
      if (!isAlreadyReported(error)) {
        const message = error instanceof Error ? error.message : "Please try again";
        setProblem(message);
        toast.error(STORE_SETTINGS_MESSAGES.updateFailedTitle, { description: message });
      }
    } finally {
      setSaving(false);
    }
  };

  const errorId = `${id}-error`;
  return (
    <Card role="region" aria-labelledby={`${id}-title`} className="border-brand-200">
      <CardHeader>
        <CardTitle id={`${id}-title`} className="flex items-center gap-2">
          <Store className="size-5 shrink-0 text-brand-600" aria-hidden="true" />
          Name your store
        </CardTitle>
        <CardDescription>
          Buyers see it on your store, every product page and their receipts. Until you choose one, they see "
          {STORE_FALLBACK_NAME}".
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <form onSubmit={submit} noValidate className="min-w-0 space-y-3">
          <div className="space-y-2">
            <Label htmlFor={`${id}-name`}>Store Name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              disabled={saving}
              autoComplete="organization"
              {...fieldErrorProps(errorId, problem)}
            />
            <FieldError id={errorId} message={problem} />
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save store name"}
            </Button>
            <Link
              to="/settings"
              className="rounded text-sm font-medium text-brand-700 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Add a picture and tagline
            </Link>
          </div>
        </form>
        <StorePreview name={name.trim() || STORE_FALLBACK_NAME} pictureUrl={settings.profilePictureUrl} />
      </CardContent>
    </Card>
  );
}
