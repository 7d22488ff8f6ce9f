let commonPasswords: Promise<Set<string>> | undefined;

/**
 * True for passwords on zxcvbn's list of ~49,000 most common (breached) passwords. Bundled: no network.
 * The list is loaded when a password is first set, not at start.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  commonPasswords ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase())),
  );
  return (await commonPasswords).has(password.toLowerCase());
}
