import { randomBytes } from "node:crypto";
import { LICENSE_KEY_FORMAT } from "../../../contracts/licenses";

/**
 * A new key: 160 bits from the system's CSPRNG, written as 32 Crockford base32 characters in 4 groups
 * of 8 (`7K3M9QXD-…`). Each character is exactly 5 bits of the random bytes (no modulo bias), so a key
 * cannot be guessed; the database's unique index keeps it unique per product.
 */
export function newLicenseKey(): string {
  const { alphabet, groups, groupLength } = LICENSE_KEY_FORMAT;
  const bytes = randomBytes((groups * groupLength * 5) / 8);
  let bits = 0;
  let value = 0;
  let text = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += alphabet[(value >>> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  return Array.from({ length: groups }, (_, i) => text.slice(i * groupLength, (i + 1) * groupLength)).join(
    "-",
  );
}
