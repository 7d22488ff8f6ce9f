import { STORE_TEXT_LIMITS } from "../../../contracts/store-settings";

/**
 * A first store name to offer a new seller, from their name (at sign-up, the part of the email
 * before the @): "ada.lovelace" → "Ada Lovelace's Store". Words only: digits and separators go.
 * Without a usable word, "My Store". The seller edits it before it is saved.
 */
export function suggestedStoreName(user: { name: string; email: string }): string {
  const source = user.name.trim() || (user.email.split("@")[0] ?? "");
  const words = source
    .split(/[^\p{L}']+/u)
    .filter((word) => word.length > 1)
    .slice(0, 3)
    .map((word) => word.charAt(0).toLocaleUpperCase() + word.slice(1));
  if (words.length === 0) return "My Store";
  const owner = words.join(" ");
  return `${owner}'s Store`.slice(0, STORE_TEXT_LIMITS.storeName);
}
