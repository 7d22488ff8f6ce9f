import type Stripe from "stripe";

/**
 * The hosted Checkout page's own few words in the session's `locale`, as Stripe shows its page in the
 * language it was asked for. Only these words are translated (the card and address fields, messages
 * and the test-mode banner stay English); an English or `auto` session, or a language without words
 * here, shows the English page (`lang="en"`), which browser tests click by its English names.
 */
export interface CheckoutWords {
  /** The page's `<html lang>`. */
  lang: string;
  pay: string;
  subscribe: string;
  payWithCard: string;
  totalDueToday: string;
  cancel: string;
}

const ENGLISH: Omit<CheckoutWords, "lang"> = {
  pay: "Pay",
  subscribe: "Subscribe",
  payWithCard: "Pay with card",
  totalDueToday: "Total due today",
  cancel: "Cancel and go back",
};

const WORDS: Record<string, Omit<CheckoutWords, "lang">> = {
  en: ENGLISH,
  de: {
    pay: "Bezahlen",
    subscribe: "Abonnieren",
    payWithCard: "Mit Karte bezahlen",
    totalDueToday: "Heute fällig",
    cancel: "Abbrechen und zurück",
  },
  es: {
    pay: "Pagar",
    subscribe: "Suscribirse",
    payWithCard: "Pagar con tarjeta",
    totalDueToday: "Total a pagar hoy",
    cancel: "Cancelar y volver",
  },
  fr: {
    pay: "Payer",
    subscribe: "S’abonner",
    payWithCard: "Payer par carte",
    totalDueToday: "Total dû aujourd’hui",
    cancel: "Annuler et revenir",
  },
  "pt-BR": {
    pay: "Pagar",
    subscribe: "Assinar",
    payWithCard: "Pagar com cartão",
    totalDueToday: "Total devido hoje",
    cancel: "Cancelar e voltar",
  },
  ja: {
    pay: "支払う",
    subscribe: "申し込む",
    payWithCard: "カードで支払う",
    totalDueToday: "本日のお支払い合計",
    cancel: "キャンセルして戻る",
  },
};

/** The words for a session's locale: its own ("pt-BR"), else its language's ("fr-CA" → fr), else English. */
export function checkoutWords(locale: Stripe.Checkout.Session.Locale | null): CheckoutWords {
  if (locale && locale !== "auto") {
    const words = WORDS[locale] ?? WORDS[locale.split("-")[0] ?? ""];
    if (words) return { lang: locale, ...words };
  }
  return { lang: "en", ...ENGLISH };
}
