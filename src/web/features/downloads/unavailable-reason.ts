import type { MessageKey } from "../../../contracts/i18n/translator";
import { ORDER_MESSAGES } from "../../../contracts/orders";

export type UnavailableKind = "refunded" | "limitReached" | "windowOver" | "removed";

/** Which page to show for the server's reason a purchase can no longer be downloaded. */
export function unavailableKind(reason: string): UnavailableKind {
  switch (reason) {
    case ORDER_MESSAGES.refunded:
      return "refunded";
    case ORDER_MESSAGES.limitReached:
      return "limitReached";
    case ORDER_MESSAGES.windowOver:
      return "windowOver";
    default:
      return "removed";
  }
}

/** UNAVAILABLE_TITLES' messages in the catalogues (pages in every language). */
export const UNAVAILABLE_TITLE_KEYS: Record<UnavailableKind, MessageKey> = {
  refunded: "unavailable.refunded",
  limitReached: "unavailable.limitReached",
  windowOver: "unavailable.windowOver",
  removed: "unavailable.removed",
};

export const UNAVAILABLE_TITLES: Record<UnavailableKind, string> = {
  refunded: "This purchase was refunded",
  limitReached: "Download limit reached",
  windowOver: "Download window ended",
  removed: "Download unavailable",
};
