import { Ban, CalendarX2, CircleAlert, Clock, LinkIcon, RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ORDER_MESSAGES } from "../../../contracts/orders";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { useI18n, useServerText } from "../../lib/i18n";
import { type ResendAnswer, ResendLinkForm } from "./resend-link-form";
import { UNAVAILABLE_TITLE_KEYS, type UnavailableKind, unavailableKind } from "./unavailable-reason";

const UNAVAILABLE_ICONS: Record<UnavailableKind, typeof Ban> = {
  refunded: RotateCcw,
  limitReached: Ban,
  windowOver: CalendarX2,
  removed: CircleAlert,
};

function Explanation({ children }: { children: ReactNode }) {
  return <p className="mt-2 max-w-sm text-sm text-muted">{children}</p>;
}

function HomeLink() {
  const { t } = useI18n();
  return (
    <Button asChild variant="secondary" className="mt-6">
      <Link reloadDocument to="/">
        {t("notFound.returnHome")}
      </Link>
    </Button>
  );
}

/**
 * Refunded, limit reached, window over or product removed: why there is no download any more. The way
 * on is the creator's store when it is still open, else home.
 */
export function UnavailableNotice({
  reason,
  productTitle,
  storeHref = null,
}: {
  reason: string;
  productTitle: string;
  storeHref?: string | null;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  const kind = unavailableKind(reason);
  return (
    <NoticeCard
      icon={UNAVAILABLE_ICONS[kind]}
      tone={kind === "refunded" ? "neutral" : "warning"}
      title={t(UNAVAILABLE_TITLE_KEYS[kind])}
    >
      <p className="mt-1 text-sm font-medium wrap-anywhere text-ink">{productTitle}</p>
      <Explanation>{serverText(reason)}</Explanation>
      {storeHref ? (
        <Button asChild variant="secondary" className="mt-6">
          <a href={storeHref}>{t("download.visitStore")}</a>
        </Button>
      ) : (
        <HomeLink />
      )}
    </NoticeCard>
  );
}

/**
 * The buyer's 24-hour link ran out: ask for a fresh one, which goes to the purchase email only. The
 * form posts to `resendAction`, which renders this notice again with its `answer`.
 */
export function ExpiredLinkNotice({
  maskedEmail,
  resendAction,
  answer,
}: {
  maskedEmail: string | null;
  resendAction: string | null;
  answer?: ResendAnswer | undefined;
}) {
  const { t, rich } = useI18n();
  const serverText = useServerText();
  return (
    <NoticeCard icon={Clock} tone="warning" title={t("download.expiredTitle")}>
      <Explanation>{serverText(ORDER_MESSAGES.linkExpired)}</Explanation>
      {maskedEmail && (
        <p className="mt-2 text-sm text-muted">
          {rich<ReactNode>("download.newLinkGoesTo", {
            email: maskedEmail,
            b: (chunks) => (
              <span key="email" className="font-medium text-ink">
                {chunks}
              </span>
            ),
          })}
        </p>
      )}
      {resendAction ? (
        <div className="mt-6 w-full">
          <ResendLinkForm action={resendAction} id="resend-link" answer={answer} />
        </div>
      ) : (
        <HomeLink />
      )}
    </NoticeCard>
  );
}

export function InvalidLinkNotice() {
  const { t } = useI18n();
  const serverText = useServerText();
  return (
    <NoticeCard icon={LinkIcon} tone="danger" title={t("download.invalidTitle")}>
      <Explanation>{serverText(ORDER_MESSAGES.linkInvalid)}</Explanation>
      <HomeLink />
    </NoticeCard>
  );
}

/** The server or the network failed (already toasted): offer another try. */
export function LoadFailedNotice({ onRetry }: { onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <NoticeCard icon={CircleAlert} tone="danger" title={t("load.failedTitle")}>
      <Explanation>{t("load.failedBody")}</Explanation>
      <Button className="mt-6" onClick={onRetry}>
        {t("load.retry")}
      </Button>
    </NoticeCard>
  );
}
