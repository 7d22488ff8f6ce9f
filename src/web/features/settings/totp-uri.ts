/**
 * The secret an authenticator app needs, from the otpauth:// URI (for typing it in when the QR code
 * cannot be scanned), grouped in fours for reading. Empty when the URI has none.
 */
export function totpSecretOf(totpUri: string): string {
  let secret: string | null = null;
  try {
    secret = new URL(totpUri).searchParams.get("secret");
  } catch {
    return "";
  }
  return (secret ?? "").replace(/(.{4})(?=.)/g, "$1 ");
}
