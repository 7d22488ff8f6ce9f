import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { STORE_SETTINGS_MESSAGES, type StoreSettings } from "../../../contracts/store-settings";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
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
      className={cn("text-right text-xs tabular-nums", length > max ? "text-red-700" : "text-muted")}
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
  const { errors } = formState;
  const picture = useCheckedFile("profile-picture");
  const [removed, setRemoved] = useState(false);
  // The server refused the chosen picture (the checks on choosing are picture.problem).
  const [pictureRefused, setPictureRefused] = useState<string | undefined>();
  const { save, saving } = useSaveStoreSettings(userId);

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    setPictureRefused(undefined);
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
    const failed = await save(values, choice);
    if (failed?.field === "picture") setPictureRefused(failed.message);
    else if (failed?.field === "form") setError("root.server", { message: failed.message });
    else if (failed) setError(failed.field, { message: failed.message }, { shouldFocus: true });
  });

  const textField = (name: keyof StoreSettingsValues) => ({
    id: `${id}-${name}`,
    ...fieldErrorProps(`${id}-${name}-error`, errors[name]?.message, `${id}-${name}-count`),
    disabled: saving,
    ...register(name),
  });
  const textFieldNotes = (name: keyof StoreSettingsValues) => (
    <div className="flex items-start justify-between gap-3">
      <FieldError id={`${id}-${name}-error`} message={errors[name]?.message} />
      <CharacterCount id={`${id}-${name}-count`} length={watch(name).length} max={STORE_TEXT_LIMITS[name]} />
    </div>
  );

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
          error={picture.problem ?? pictureRefused}
          removed={removed}
          onRemove={() => {
            picture.clear();
            setPictureRefused(undefined);
            setRemoved(true);
          }}
          onChoose={() => setPictureRefused(undefined)}
          disabled={saving}
        />
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeName`}>Store Name</Label>
          <Input placeholder="e.g. Ada's Prints" {...textField("storeName")} />
          {textFieldNotes("storeName")}
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeTagline`}>Tagline</Label>
          <Input placeholder="One line about what you make" {...textField("storeTagline")} />
          {textFieldNotes("storeTagline")}
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-storeDescription`}>Description</Label>
          <Textarea
            rows={5}
            placeholder="Tell buyers about you and your work"
            {...textField("storeDescription")}
          />
          {textFieldNotes("storeDescription")}
        </div>
        <FieldError id={`${id}-form-error`} message={errors.root?.server?.message} />
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
