import type { SaleLicense } from "../../../contracts/licenses";

/** A sale row's license columns (left-joined, so all null without a key) as the sales table shows them. */
export function saleLicenseOf(row: {
  license_key: string | null;
  license_disabled_at: Date | null;
  license_uses: number | null;
}): SaleLicense | null {
  if (row.license_key === null) return null;
  return { key: row.license_key, disabled: row.license_disabled_at !== null, uses: row.license_uses ?? 0 };
}
