import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  API_KEY_LOOKUP_LENGTH,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_SECRET_LENGTH,
} from "../../../contracts/api-keys";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 from the system's CSPRNG (bytes of 248 and up are skipped, so no character is likelier). */
function randomBase62(length: number): string {
  let text = "";
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

/**
 * A new key: `ff_live_` + a 10-character lookup id + a 32-character secret (base62, about 190 random
 * bits, so a fast hash is enough: nobody can search that space). Only the lookup id and the SHA-256
 * of the whole key are stored.
 */
export function newApiKey(): { key: string; lookupId: string; hash: Buffer } {
  const lookupId = randomBase62(API_KEY_LOOKUP_LENGTH);
  const key = `${API_KEY_PREFIX}${lookupId}${randomBase62(API_KEY_SECRET_LENGTH)}`;
  return { key, lookupId, hash: hashApiKey(key) };
}

export const hashApiKey = (key: string): Buffer => createHash("sha256").update(key).digest();

/** What the seller sees of a key: its prefix and lookup id. */
export const displayPrefix = (lookupId: string) => `${API_KEY_PREFIX}${lookupId}`;

/** The lookup id of a well-formed key, or undefined when the text cannot be a key. */
export function lookupIdOf(key: string): string | undefined {
  if (!API_KEY_PATTERN.test(key)) return undefined;
  return key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_LOOKUP_LENGTH);
}

/** Whether the key hashes to the stored hash, compared in constant time. */
export function matchesHash(key: string, storedHash: Uint8Array): boolean {
  const hash = hashApiKey(key);
  return storedHash.length === hash.length && timingSafeEqual(hash, storedHash);
}
