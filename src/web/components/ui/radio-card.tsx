import { Label } from "./label";
import { RadioGroup, RadioGroupItem } from "./radio-group";

export type RadioCardOption<T extends string> = { value: T; label: string; hint: string };

/** One choice drawn as a card: the whole card is the radio's label, highlighted when checked. */
export function RadioCard({ id, option }: { id: string; option: RadioCardOption<string> }) {
  return (
    <Label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-white p-3 has-[[data-state=checked]]:border-brand-500 has-[[data-state=checked]]:bg-brand-50/50"
    >
      <RadioGroupItem id={id} value={option.value} className="mt-0.5" />
      <span>
        <span className="block">{option.label}</span>
        <span className="block text-xs font-normal text-muted">{option.hint}</span>
      </span>
    </Label>
  );
}

/**
 * Radio cards side by side (stacked on phones). Each radio's id is `${id}-${value}`, so a form can
 * point at one.
 */
export function RadioCards<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  /** The group's accessible name. */
  label: string;
  value: T;
  options: ReadonlyArray<RadioCardOption<T>>;
  onChange: (value: T) => void;
}) {
  return (
    <RadioGroup
      value={value}
      // Radix reports a plain string; it is always one of `options`' values.
      onValueChange={(next) => onChange(next as T)}
      className="grid gap-2 sm:grid-cols-2"
      aria-label={label}
    >
      {options.map((option) => (
        <RadioCard key={option.value} id={`${id}-${option.value}`} option={option} />
      ))}
    </RadioGroup>
  );
}
