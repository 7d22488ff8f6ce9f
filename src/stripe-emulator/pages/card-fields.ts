import { type Html, html } from "./layout.js";

/** What a card form posts: the fields of `cardFields`. */
export interface CardForm {
  card_number?: string;
  card_expiry?: string;
  card_cvc?: string;
}

/** The card number, expiry and CVC inputs of Checkout and the hosted invoice page, with the decline message. */
export function cardFields(form: CardForm, error: string | undefined): Html {
  return html`<label for="card_number">Card information</label>
    <div class="card-group">
      <input type="text" id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${form.card_number ?? ""}" aria-label="Card number">
      <div class="row">
        <input type="text" id="card_expiry" name="card_expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" value="${form.card_expiry ?? ""}" aria-label="Expiration date">
        <input type="text" id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${form.card_cvc ?? ""}" aria-label="CVC">
      </div>
    </div>
    ${error ? html`<div class="error" role="alert" data-testid="card-error">${error}</div>` : ""}`;
}

export const TEST_CARDS_HINT = html`<p class="hint">Test cards: <code>4242 4242 4242 4242</code> pays, <code>4000 0000 0000 0002</code> is declined, <code>4000 0000 0000 9995</code> has insufficient funds. Any future date and any CVC.</p>`;
