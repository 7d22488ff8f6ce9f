const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `from` moved on by `days` business days (Monday to Friday, in UTC), at the same time of day: Friday
 * + 10 is the Friday two weeks later, Saturday + 1 the Monday. Public holidays are not skipped (which
 * ones differ by country), so the answer is the earliest date a 10–14 business day period can end.
 */
export function addBusinessDays(from: Date, days: number): Date {
  let date = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    date = new Date(date.getTime() + DAY_MS);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return date;
}

/** How long after a counter-notice the material it answers may be restored (17 U.S.C. § 512(g)(2)(C): 10 to 14 business days). */
export const RESTORE_AFTER_BUSINESS_DAYS = 10;
