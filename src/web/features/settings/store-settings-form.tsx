import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { STORE_SETTINGS_MESSAGES, type StoreSettings } from "../../../contracts/store-settings";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Textarea } from "../../components/ui/textarea";
import { cn } from "../../lib/utils";
import { useCheckedFile } from "../uploads/use-checked-file";
import { ProfilePictureField } from "./profile-picture-field";
import {
  formValuesOf,
  STORE_TEXT_LIMITS,
  type StoreSettingsValues,
  storeSettingsProblem,
} from "./store-settings-form-values";
import { type PictureChoice, useSaveStoreSettings } from "./use-save-store-settings";

function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p
      id={id}
      className={cn("text-right text-xs tabular-nums", length > max ? "text-red-600" : "text-muted")}
    >
      {length}/{max}
    </p>
  );
}

export function StoreSettingsForm({ userId, saved }: { userId: string; saved: StoreSettings }) {
  const id = useId();
  const { register, handleSubmit, watch, setError, clearErrors, formState } = useForm<StoreSettingsValues>({
    defaultValues: formValuesOf(saved),
  });
  const picture = useCheckedFile("profile-picture");
  const [removed, setRemoved] = useState(false);
  const { save, saving } = useSaveStoreSettings(userId);

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const problem = storeSettingsProblem(values);
    if (problem) {
      setError(problem.field, { message: problem.message }, { shouldFocus: true });
      toast.error(STORE_SETTINGS_MESSAGES.updateFailedTitle, { description: problem.message });
      return;
    }
    const choice: PictureChoice = picture.file
      ? { kind: "replace", file: picture.file }
      : removed
        ? { kind: "remove" }
        : { kind: "keep" };
    await save(values, choice);
  });

  const textField = (name: keyof StoreSettingsValues) => ({
    id: `${id}-${name}`,
    "aria-invalid": formState.errors[name] ? true : undefined,
    "aria-describedby": `${id}-${name}-count`,
    disabled: saving,
    ...register(name),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your Store</CardTitle>
        <CardDescription>What buyers see on your storefront and next to your products.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate className="space-y-6 p-6">
        <ProfilePictureField
          savedUrl={saved.profilePictureUrl}
          picture={picture}
          removed={removed}
          onRemove={() => {
            picture.clear();
            setRemoved(true);
          }}
          disabled={saving}
        />
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeName`}>Store Name</Label>
          <Input placeholder="e.g. Ada's Prints" {...textField("storeName")} />
          <CharacterCount
            id={`${id}-storeName-count`}
            length={watch("storeName").length}
            max={STORE_TEXT_LIMITS.storeName}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeTagline`}>Tagline</Label>
          <Input placeholder="One line about what you make" {...textField("storeTagline")} />
          <CharacterCount
            id={`${id}-storeTagline-count`}
            length={watch("storeTagline").length}
            max={STORE_TEXT_LIMITS.storeTagline}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeDescription`}>Description</Label>
          <Textarea
            rows={5}
            placeholder="Tell buyers about you and your work"
            {...textField("storeDescription")}
          />
          <CharacterCount
            id={`${id}-storeDescription-count`}
            length={watch("storeDescription").length}
            max={STORE_TEXT_LIMITS.storeDescription}
          />
        </div>
        <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
          <Button asChild variant="secondary">
            <Link to="/dashboard">Cancel</Link>
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
