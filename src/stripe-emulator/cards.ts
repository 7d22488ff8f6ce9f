/** Stripe's test cards: which pay, which decline, and the message each shows the buyer. */
export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardCheck =
  | { ok: true; brand: string; last4: string; expMonth: number; expYear: number }
  | {
      ok: false;
      code: string;
      declineCode?: string;
      message: string;
      param: "email" | "number" | "expiry" | "cvc";
    };

const SUCCEEDING_CARDS: Record<string, string> = {
  "4242424242424242": "visa",
  "4000056655665556": "visa",
  "5555555555554444": "mastercard",
  "2223003122003222": "mastercard",
  "378282246310005": "amex",
};

const DECLINING_CARDS: Record<string, { declineCode: string; message: string }> = {
  "4000000000000002": { declineCode: "generic_decline", message: "Your card was declined." },
  "4000000000009995": { declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
  "4000000000009987": { declineCode: "lost_card", message: "Your card was declined." },
  "4000000000000069": { declineCode: "expired_card", message: "Your card has expired." },
};

export function checkCard(input: CardInput, nowSeconds: number): CardCheck {
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(number) || !passesLuhn(number)) {
    return {
      ok: false,
      code: "incorrect_number",
      message: "Your card number is incorrect.",
      param: "number",
    };
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12) {
    return {
      ok: false,
      code: "invalid_expiry_month",
      message: "Your card's expiration date is incomplete.",
      param: "expiry",
    };
  }
  const now = new Date(nowSeconds * 1000);
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    return {
      ok: false,
      code: "invalid_expiry_year",
      message: "Your card's expiration date is in the past.",
      param: "expiry",
    };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    return {
      ok: false,
      code: "invalid_cvc",
      message: "Your card's security code is incomplete.",
      param: "cvc",
    };
  }
  const declined = DECLINING_CARDS[number];
  if (declined) return { ok: false, code: "card_declined", ...declined, param: "number" };
  const brand = SUCCEEDING_CARDS[number];
  if (!brand) {
    return {
      ok: false,
      code: "card_declined",
      declineCode: "test_mode_live_card",
      message: "Your card was declined. Your request was in test mode, but used a non test card.",
      param: "number",
    };
  }
  return { ok: true, brand, last4: number.slice(-4), expMonth: month, expYear: year };
}

function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
