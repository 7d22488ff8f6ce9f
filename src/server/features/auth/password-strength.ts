import { dictionary } from "@zxcvbn-ts/language-common";

let commonPasswords: Set<string> | undefined;

/** True for passwords on zxcvbn's list of ~49,000 most common (breached) passwords. Bundled: no network. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}
