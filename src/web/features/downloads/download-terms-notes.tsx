import { CalendarClock, Clock, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { PURCHASE_RULES } from "../../../contracts/orders";
import { useI18n } from "../../lib/i18n";

/** One line of small print with its icon, in a list. */
export function NoteItem({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <li className="flex items-start gap-2.5 text-left text-sm text-muted">
      <Icon className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
      <span>{children}</span>
    </li>
  );
}

/**
 * The download rules as list items, worded as everywhere else (contracts/download-terms.ts): the
 * product page says the window in days, a purchase the day it ends.
 */
export function DownloadTermsItems({ windowEndsAt }: { windowEndsAt?: string }) {
  const { t, date } = useI18n();
  const max = PURCHASE_RULES.maxDownloads;
  return (
    <>
      <NoteItem icon={Clock}>{t("terms.linkExpires", { hours: PURCHASE_RULES.buyerLinkHours })}</NoteItem>
      <NoteItem icon={CalendarClock}>
        {windowEndsAt
          ? t("terms.allowanceUntil", { max, date: date(new Date(windowEndsAt)) })
          : t("terms.allowanceWithin", { max, days: PURCHASE_RULES.downloadWindowDays })}
      </NoteItem>
    </>
  );
}
