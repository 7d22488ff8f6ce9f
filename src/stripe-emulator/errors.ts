/** An error answered in Stripe's shape: `{ error: { type, code, message, param } }` with Stripe's HTTP status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: "invalid_request_error" | "idempotency_error" | "card_error" | "api_error",
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  toBody() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code}` }
          : {}),
        ...(this.param ? { param: this.param } : {}),
        ...(this.declineCode ? { decline_code: this.declineCode } : {}),
      },
    };
  }
}

/**
 * Stripe's "No such …" error. An unknown id in the URL path is 404 (`param: "id"`); an unknown id given
 * as a parameter (`customer`, `line_items[0][price]`, `starting_after`) is a bad request: 400 naming it.
 */
export function resourceMissing(kind: string, id: string, param = "id"): StripeApiError {
  return new StripeApiError(
    param === "id" ? 404 : 400,
    "invalid_request_error",
    `No such ${kind}: '${id}'`,
    "resource_missing",
    param,
  );
}

export function parameterMissing(param: string): StripeApiError {
  return new StripeApiError(
    400,
    "invalid_request_error",
    `Missing required param: ${param}.`,
    "parameter_missing",
    param,
  );
}

export function parameterInvalid(
  param: string,
  message: string,
  code = "parameter_invalid_empty",
): StripeApiError {
  return new StripeApiError(400, "invalid_request_error", message, code, param);
}

/** A request that is well formed but not allowed in the object's current state. */
export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, "invalid_request_error", message, code, param);
}
