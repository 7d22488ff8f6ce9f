import type { ComponentProps } from "react";
import { minorUnitDigits } from "../../contracts/money";
import { currencySymbol } from "../lib/money";
import { cn } from "../lib/utils";
import { Input } from "./ui/input";

/** The `step` of an amount field in `currency`: "0.01" for cents, "1" for whole yen, "0.001" for KWD. */
export const amountStep = (currency: string): string => {
  const digits = minorUnitDigits(currency);
  return digits === 0 ? "1" : `0.${"1".padStart(digits, "0")}`;
};

/**
 * An amount field in `currency`: its symbol before the number ("$", "€", "¥", "CA$"; the label says the
 * code), whole numbers only for a currency without decimals (JPY). What is typed is checked by the
 * form with parseMoney, which refuses more decimals than the currency has.
 */
export function MoneyInput({
  currency,
  className,
  wrapperClassName,
  ...props
}: ComponentProps<"input"> & { currency: string; wrapperClassName?: string }) {
  const symbol = currencySymbol(currency);
  const whole = minorUnitDigits(currency) === 0;
  return (
    <div className={cn("relative", wrapperClassName)}>
      <span
        aria-hidden="true"
        className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted"
      >
        {symbol}
      </span>
      <Input
        type="number"
        inputMode={whole ? "numeric" : "decimal"}
        step={amountStep(currency)}
        min="0"
        className={className}
        style={{ paddingLeft: `calc(1.25rem + ${symbol.length}ch)` }}
        {...props}
      />
    </div>
  );
}
