import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";
import { MoneyInput } from "../../components/money-input";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Textarea } from "../../components/ui/textarea";
import { amountPlaceholder } from "../../lib/money";
import { type CurrencyChoices, OtherPricesField, otherPriceFocusId } from "./other-prices-field";
import type { FileItem } from "./product-file-list";
import {
  canAddTier,
  moveTier,
  newTier,
  type TierField,
  type TierFormValues,
  type TierProblem,
  yearlySavingLabel,
} from "./tier-form";

/** The id of one tier's field: the form focuses the field a message is about. */
export const tierFieldId = (editorId: string, tierKey: string, field: TierField) =>
  `${editorId}-${tierKey}-${field}`;

/** The element the form focuses for a tier message: the field it is about, else the first tier's name, else Add tier. */
export function tierFocusId(editorId: string, tiers: TierFormValues[], problem: TierProblem | undefined) {
  const tier = problem?.index === undefined ? undefined : tiers[problem.index];
  if (tier && problem?.field === "prices") {
    return otherPriceFocusId(tierFieldId(editorId, tier.key, "prices"), tier.prices, problem.row);
  }
  if (tier && problem?.field) return tierFieldId(editorId, tier.key, problem.field);
  const first = tiers[0];
  return first ? tierFieldId(editorId, first.key, "name") : `${editorId}-add`;
}

/** A tier's price in the store currency; `placeholder` is its example in dollars ("5.00"). */
function PriceInput({
  id,
  label,
  required,
  currency,
  value,
  placeholder,
  aria,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  required?: boolean;
  currency: string;
  value: string;
  placeholder: string;
  /** aria-invalid and aria-describedby (fieldErrorProps). */
  aria: ReturnType<typeof fieldErrorProps>;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="min-w-0 space-y-2">
      <Label htmlFor={id}>
        {label} {required ? <span className="text-red-600">*</span> : null}
      </Label>
      <MoneyInput
        id={id}
        currency={currency}
        placeholder={amountPlaceholder(placeholder, currency)}
        value={value}
        disabled={disabled}
        {...aria}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

type TierCardProps = {
  editorId: string;
  /** The store currency, which the prices are amounts of. */
  currency: string;
  /** What the tier's prices in other currencies may be in (the store currency settings). */
  currencies: { data: CurrencyChoices | undefined; loadFailed: boolean };
  /** The editor's message and its element's id: the field it is about is described by it. */
  error: { id: string; message: string | undefined };
  /** The row of the tier's other prices the message is about, when known. */
  problemRow: number | undefined;
  tier: TierFormValues;
  index: number;
  count: number;
  files: FileItem[];
  editing: boolean;
  disabled: boolean;
  /** The field of this tier the editor's message is about, if any. */
  problemField: TierField | undefined;
  onChange: (tier: TierFormValues) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

/** One tier: its name, description, prices, trial, (on the edit page) closed switch, and its files. */
function TierCard({
  editorId,
  currency,
  currencies,
  error,
  problemRow,
  tier,
  index,
  count,
  files,
  editing,
  disabled,
  problemField,
  onChange,
  onMove,
  onRemove,
}: TierCardProps) {
  const idOf = (field: TierField) => tierFieldId(editorId, tier.key, field);
  const set = <K extends keyof TierFormValues>(key: K, value: TierFormValues[K]) =>
    onChange({ ...tier, [key]: value });
  /** Marked invalid and described by the editor's message when it is about this field. */
  const problemProps = (field: TierField, otherDescriptions?: string) =>
    fieldErrorProps(error.id, problemField === field ? error.message : undefined, otherDescriptions);
  const name = tier.name.trim();
  const heading = name ? `Tier ${index + 1}: ${name}` : `Tier ${index + 1}`;
  const saving = yearlySavingLabel(tier.monthlyPrice, tier.yearlyPrice, currency);
  const headingId = `${editorId}-${tier.key}-heading`;
  const yearlyHintId = `${idOf("yearlyPrice")}-hint`;
  const trialHintId = `${idOf("trialDays")}-hint`;
  const closedHintId = `${editorId}-${tier.key}-closed-hint`;
  return (
    <li
      className="min-w-0 rounded-xl border border-line bg-white p-4 data-[invalid]:border-red-500"
      data-invalid={problemField ? "" : undefined}
    >
      <fieldset className="min-w-0 space-y-4" disabled={disabled} aria-labelledby={headingId}>
        <div className="flex items-center justify-between gap-2">
          <h3
            id={headingId}
            className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold text-ink"
          >
            <span className="min-w-0 wrap-anywhere">{heading}</span>
            {tier.closed && <Badge tone="warning">Closed</Badge>}
          </h3>
          <div className="flex shrink-0 items-center">
            <Button variant="ghost" size="icon" disabled={index === 0} onClick={() => onMove(-1)}>
              <ArrowUp aria-hidden="true" />
              <span className="sr-only">Move {heading} up</span>
            </Button>
            <Button variant="ghost" size="icon" disabled={index === count - 1} onClick={() => onMove(1)}>
              <ArrowDown aria-hidden="true" />
              <span className="sr-only">Move {heading} down</span>
            </Button>
            <Button
              variant="ghost"
              size="icon"
              disabled={count <= MEMBERSHIP_LIMITS.minTiers}
              onClick={onRemove}
            >
              <Trash2 aria-hidden="true" />
              <span className="sr-only">Remove {heading}</span>
            </Button>
          </div>
        </div>
        <div className="space-y-2">
          <Label htmlFor={idOf("name")}>
            Tier name <span className="text-red-600">*</span>
          </Label>
          <Input
            id={idOf("name")}
            value={tier.name}
            maxLength={MEMBERSHIP_LIMITS.tierNameMax}
            placeholder={index === 0 ? "e.g. Supporter" : "e.g. Pro"}
            {...problemProps("name")}
            onChange={(event) => set("name", event.target.value)}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={idOf("description")}>Tier description</Label>
          <Textarea
            id={idOf("description")}
            rows={3}
            className="min-h-20"
            value={tier.description}
            maxLength={MEMBERSHIP_LIMITS.tierDescriptionMax}
            placeholder="What members of this tier get."
            {...problemProps("description")}
            onChange={(event) => set("description", event.target.value)}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <PriceInput
            id={idOf("monthlyPrice")}
            label={`Monthly price (${currency.toUpperCase()})`}
            required
            currency={currency}
            value={tier.monthlyPrice}
            placeholder="5.00"
            disabled={disabled}
            aria={problemProps("monthlyPrice")}
            onChange={(value) => set("monthlyPrice", value)}
          />
          <div className="min-w-0 space-y-2">
            <PriceInput
              id={idOf("yearlyPrice")}
              label="Yearly price (optional)"
              currency={currency}
              value={tier.yearlyPrice}
              placeholder="50.00"
              disabled={disabled}
              aria={problemProps("yearlyPrice", yearlyHintId)}
              onChange={(value) => set("yearlyPrice", value)}
            />
            <p id={yearlyHintId} className="text-xs text-muted">
              {saving ? (
                <span className="font-medium text-emerald-700">{saving} against paying monthly.</span>
              ) : (
                "Leave empty to bill monthly only."
              )}
            </p>
          </div>
        </div>
        <OtherPricesField
          id={idOf("prices")}
          storeCurrency={currency}
          rows={tier.prices}
          currencies={currencies.data}
          loadFailed={currencies.loadFailed}
          error={problemField === "prices" ? error.message : undefined}
          errorIndex={problemField === "prices" ? problemRow : undefined}
          errorId={error.id}
          tier={{ name: tier.name.trim(), yearly: tier.yearlyPrice.trim() !== "" }}
          disabled={disabled}
          onChange={(prices) => set("prices", prices)}
        />
        <div className="space-y-2">
          <Label htmlFor={idOf("trialDays")}>Free trial (days)</Label>
          <Input
            id={idOf("trialDays")}
            type="number"
            inputMode="numeric"
            min={0}
            max={MEMBERSHIP_LIMITS.maxTrialDays}
            step={1}
            className="block sm:max-w-32"
            value={tier.trialDays}
            {...problemProps("trialDays", trialHintId)}
            onChange={(event) => set("trialDays", event.target.value)}
          />
          <p id={trialHintId} className="text-xs text-muted">
            0 to {MEMBERSHIP_LIMITS.maxTrialDays} days; 0 charges at once.
          </p>
        </div>
        {editing && (
          <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
              checked={tier.closed}
              aria-describedby={closedHintId}
              onChange={(event) => set("closed", event.target.checked)}
            />
            <span className="min-w-0">
              <span className="block font-medium">Closed to new members</span>
              <span id={closedHintId} className="block text-xs text-muted">
                Hidden from the product page; members already on it keep it.
              </span>
            </span>
          </label>
        )}
        <TierFiles
          id={idOf("files")}
          tier={tier}
          files={files}
          describedBy={problemProps("files")["aria-describedby"]}
          onChange={(fileKeys) => set("fileKeys", fileKeys)}
        />
      </fieldset>
    </li>
  );
}

/** Which of the product's files the tier gives: one checkbox per file of the form's list, saved or new. */
function TierFiles({
  id,
  tier,
  files,
  describedBy,
  onChange,
}: {
  id: string;
  tier: TierFormValues;
  files: FileItem[];
  describedBy: string | undefined;
  onChange: (fileKeys: string[]) => void;
}) {
  const ticked = files.filter((file) => tier.fileKeys.includes(file.key)).length;
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className="min-w-0 space-y-2 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      aria-describedby={describedBy}
    >
      <legend className="text-sm font-medium text-ink">Files members get</legend>
      {files.length === 0 ? (
        <p className="text-xs text-muted">
          Add the product's files above, then tick the ones this tier gives.
        </p>
      ) : (
        <ul className="space-y-1.5">
          {files.map((file, index) => (
            <li key={file.key}>
              <label className="flex min-w-0 cursor-pointer items-start gap-3 text-sm text-ink">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
                  checked={tier.fileKeys.includes(file.key)}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...tier.fileKeys, file.key]
                        : tier.fileKeys.filter((key) => key !== file.key),
                    )
                  }
                />
                <span className="min-w-0 wrap-anywhere">{file.name.trim() || `File ${index + 1}`}</span>
                {file.kind === "new" && (
                  <Badge tone="brand" className="shrink-0">
                    New
                  </Badge>
                )}
              </label>
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && ticked === 0 && (
        <p className="text-xs text-muted">No file ticked: members of this tier get none of the files.</p>
      )}
    </fieldset>
  );
}

/**
 * A membership's tiers (1 to 5): add, remove, reorder, and each tier's fields. The editor's message
 * (the contract's words, from the form's checks or the server) shows under its heading; the field it
 * is about is marked and described by it.
 */
export function TierEditor({
  id,
  currency,
  currencies,
  tiers,
  files,
  editing,
  disabled,
  error,
  problem,
  onChange,
}: {
  /** The editor's id: its fields' ids start with it. */
  id: string;
  /** The store currency, which the tiers' prices are amounts of. */
  currency: string;
  /** What the tiers' prices in other currencies may be in (GET /api/store-currency; undefined while it loads). */
  currencies: { data: CurrencyChoices | undefined; loadFailed: boolean };
  tiers: TierFormValues[];
  /** The form's file rows, in order: what a tier can give. */
  files: FileItem[];
  editing: boolean;
  disabled: boolean;
  /** The message about the tiers (the form's check or the server's answer). */
  error: string | undefined;
  /** Where in the list the message is about, when the form's check knows. */
  problem: TierProblem | undefined;
  onChange: (tiers: TierFormValues[]) => void;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const located = error !== undefined && problem?.message === error ? problem : undefined;
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <div className="space-y-1">
        <h2 id={`${id}-heading`} className="text-sm font-medium text-ink">
          Membership tiers <span className="text-red-600">*</span>
        </h2>
        <p id={hintId} className="text-xs text-muted">
          1 to {MEMBERSHIP_LIMITS.maxTiers} tiers, each billed monthly and, when you set a yearly price,
          yearly.
          {editing && " A removed tier stays with the members who have it and is offered to nobody new."}
        </p>
        <FieldError id={errorId} message={error} className="font-medium" />
      </div>
      <ol className="space-y-3" aria-label="Tiers">
        {tiers.map((tier, index) => (
          <TierCard
            key={tier.key}
            editorId={id}
            currency={currency}
            currencies={currencies}
            error={{ id: errorId, message: error }}
            problemRow={located?.index === index ? located.row : undefined}
            tier={tier}
            index={index}
            count={tiers.length}
            files={files}
            editing={editing}
            disabled={disabled}
            problemField={located?.index === index ? (located.field ?? "name") : undefined}
            onChange={(next) => onChange(tiers.map((other) => (other.key === tier.key ? next : other)))}
            onMove={(by) => onChange(moveTier(tiers, tier.key, by))}
            onRemove={() => onChange(tiers.filter((other) => other.key !== tier.key))}
          />
        ))}
      </ol>
      <Button
        id={`${id}-add`}
        variant="secondary"
        disabled={disabled || !canAddTier(tiers)}
        onClick={() => onChange([...tiers, newTier()])}
      >
        <Plus aria-hidden="true" />
        Add tier
      </Button>
      {!canAddTier(tiers) && (
        <p className="text-xs text-muted">A membership has at most {MEMBERSHIP_LIMITS.maxTiers} tiers.</p>
      )}
    </section>
  );
}
