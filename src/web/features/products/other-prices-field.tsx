import { Plus, Trash2 } from "lucide-react";
import { CURRENCY_MESSAGES, currencyName, MAX_OTHER_PRICES } from "../../../contracts/currencies";
import { MoneyInput } from "../../components/money-input";
import { Button } from "../../components/ui/button";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { fieldClasses } from "../../components/ui/input";
import { amountPlaceholder } from "../../lib/money";
import { cn } from "../../lib/utils";
import { addOtherPrice, freeCurrencies, type OtherPriceRow } from "./product-form";

/** The id of a row's amount field: the form focuses the row a message is about. */
export const otherPriceFieldId = (sectionId: string, rowKey: string) => `${sectionId}-${rowKey}-price`;

/** What the form focuses for a message about the prices: the row it is about, else the add button. */
export function otherPriceFocusId(sectionId: string, rows: OtherPriceRow[], index: number | undefined) {
  const row = index === undefined ? undefined : rows[index];
  return row ? otherPriceFieldId(sectionId, row.key) : `${sectionId}-add`;
}

/** A tier row's amounts on a phone: on the line below its currency and remove button. */
const PHONE_SECOND_LINE = "order-2 sm:order-none";

/** The settings' choices as the section needs them; undefined while they load (or could not). */
export type CurrencyChoices = {
  choices: ReadonlyArray<{ code: string; name: string }>;
  /** The currency Stripe pays the seller in; other prices need it to be the store currency. */
  settlementCurrency: string | null;
};

/**
 * "Prices in other currencies" of a one-time product, or of a membership tier (`tier`): rows of a
 * currency (the store currency settings' choices, the store currency left out) and the exact amount
 * buyers in it pay (a tier's: by the month, and by the year when the tier has a yearly price), up to
 * MAX_OTHER_PRICES. The section's message (the form's check or the server's) shows under its heading, or
 * where `errorId` says (a tier's shows at the top of the tier editor); the row it is about is marked and
 * described by it.
 */
export function OtherPricesField({
  id,
  storeCurrency,
  rows,
  currencies,
  loadFailed = false,
  error,
  errorIndex,
  errorId: shownErrorId,
  tier,
  disabled,
  onChange,
}: {
  id: string;
  storeCurrency: string;
  rows: OtherPriceRow[];
  currencies: CurrencyChoices | undefined;
  /** GET /api/store-currency failed: rows can't be added (the saved ones stay editable). */
  loadFailed?: boolean;
  error: string | undefined;
  /** The row the message is about, when known. */
  errorIndex: number | undefined;
  /** The id of the message shown elsewhere (the tier editor's): none is printed here then. */
  errorId?: string | undefined;
  /** A membership tier's prices: a monthly amount, and a yearly one when the tier has a yearly price. */
  tier?: { name: string; yearly: boolean } | undefined;
  disabled: boolean;
  onChange: (rows: OtherPriceRow[]) => void;
}) {
  const errorId = shownErrorId ?? `${id}-error`;
  const Heading = tier ? "h4" : "h2";
  const hintId = `${id}-hint`;
  const store = storeCurrency.toUpperCase();
  const choices = currencies?.choices ?? [];
  const nameOf = (code: string) => choices.find((choice) => choice.code === code)?.name ?? currencyName(code);
  const settlement = currencies?.settlementCurrency ?? null;
  const notSettled = settlement !== null && settlement !== storeCurrency;
  const full = rows.length >= MAX_OTHER_PRICES;
  const canAdd =
    currencies !== undefined &&
    !notSettled &&
    !full &&
    freeCurrencies(choices, storeCurrency, rows).length > 0;
  const update = (key: string, change: Partial<OtherPriceRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <div className="space-y-1">
        <Heading id={`${id}-heading`} className="text-sm font-medium text-ink">
          Prices in other currencies
        </Heading>
        <p id={hintId} className="text-xs text-muted">
          {tier
            ? `Buyers in these currencies see and subscribe at these exact prices, and keep paying in that currency; others pay in ${store}.`
            : `Buyers in these currencies see and pay this exact price; others pay in ${store} or, with Adaptive Pricing on, in their own currency at Stripe's rate.`}
        </p>
        {notSettled && (
          <p className="text-xs font-medium text-amber-800">
            {CURRENCY_MESSAGES.otherPricesNeedSettlement(settlement)}
          </p>
        )}
        {loadFailed && (
          <p className="text-xs text-muted">
            We couldn't load the currencies you can add. Reload to try again.
          </p>
        )}
        {!shownErrorId && <FieldError id={errorId} message={error} className="font-medium" />}
      </div>
      {rows.length > 0 && (
        <ul
          className="space-y-2"
          aria-label={
            tier ? `Prices of ${tier.name || "this tier"} in other currencies` : "Prices in other currencies"
          }
        >
          {rows.map((row, index) => {
            const code = row.currency.toUpperCase();
            const selectId = `${id}-${row.key}-currency`;
            const priceId = otherPriceFieldId(id, row.key);
            const options = [row.currency, ...freeCurrencies(choices, storeCurrency, rows)];
            const invalid = error !== undefined && errorIndex === index ? error : undefined;
            return (
              <li key={row.key} className={cn("flex items-center gap-2", tier && "flex-wrap")}>
                <label htmlFor={selectId} className="sr-only">
                  Currency
                </label>
                <select
                  id={selectId}
                  className={cn(
                    fieldClasses,
                    "h-10 shrink-0 sm:w-56",
                    // A tier's row has two amounts: on a phone they take a line below the currency.
                    tier ? "min-w-0 flex-1 sm:flex-none" : "w-32",
                  )}
                  value={row.currency}
                  disabled={disabled}
                  onChange={(event) => update(row.key, { currency: event.target.value })}
                >
                  {options.map((option) => (
                    <option key={option} value={option}>
                      {option.toUpperCase()} · {nameOf(option)}
                    </option>
                  ))}
                </select>
                <label htmlFor={priceId} className="sr-only">
                  {tier ? `Monthly price in ${code}` : `Price in ${code}`}
                </label>
                <MoneyInput
                  id={priceId}
                  currency={row.currency}
                  wrapperClassName={cn(
                    "min-w-0 flex-1",
                    tier ? "order-2 basis-0 sm:order-none sm:max-w-40" : "sm:max-w-48",
                  )}
                  placeholder={amountPlaceholder(tier ? "4.50" : "18.00", row.currency)}
                  value={row.price}
                  disabled={disabled}
                  {...fieldErrorProps(errorId, invalid, tier ? `${priceId}-per` : undefined)}
                  onChange={(event) => update(row.key, { price: event.target.value })}
                />
                {tier && (
                  <span
                    id={`${priceId}-per`}
                    className={cn("shrink-0 text-xs text-muted", PHONE_SECOND_LINE)}
                  >
                    /mo
                  </span>
                )}
                {tier?.yearly && (
                  <>
                    <label htmlFor={`${id}-${row.key}-yearly`} className="sr-only">
                      Yearly price in {code}
                    </label>
                    <MoneyInput
                      id={`${id}-${row.key}-yearly`}
                      currency={row.currency}
                      wrapperClassName={cn("min-w-0 flex-1 basis-0 sm:max-w-40", PHONE_SECOND_LINE)}
                      placeholder={amountPlaceholder("45.00", row.currency)}
                      value={row.yearly ?? ""}
                      disabled={disabled}
                      {...fieldErrorProps(errorId, invalid, `${id}-${row.key}-yearly-per`)}
                      onChange={(event) => update(row.key, { yearly: event.target.value })}
                    />
                    <span
                      id={`${id}-${row.key}-yearly-per`}
                      className={cn("shrink-0 text-xs text-muted", PHONE_SECOND_LINE)}
                    >
                      /yr
                    </span>
                  </>
                )}
                <Button
                  variant="ghost"
                  size="icon"
                  className={tier ? "order-1 sm:order-none" : undefined}
                  disabled={disabled}
                  onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
                >
                  <Trash2 aria-hidden="true" />
                  <span className="sr-only">Remove the price in {code}</span>
                </Button>
                {tier && <span aria-hidden="true" className="order-1 basis-full sm:hidden" />}
              </li>
            );
          })}
        </ul>
      )}
      <Button
        id={`${id}-add`}
        variant="secondary"
        disabled={disabled || !canAdd}
        aria-describedby={error && errorIndex === undefined ? errorId : undefined}
        onClick={() => onChange(addOtherPrice(rows, choices, storeCurrency))}
      >
        <Plus aria-hidden="true" />
        Add a price in another currency
      </Button>
      {full && (
        <p className="text-xs text-muted">
          A {tier ? "tier" : "product"} has at most {MAX_OTHER_PRICES} prices in other currencies.
        </p>
      )}
    </section>
  );
}
