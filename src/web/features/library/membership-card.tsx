import { ExternalLink, Newspaper } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";
import type { LibraryMembership } from "../../../contracts/orders";
import { POST_MESSAGES } from "../../../contracts/posts";
import { useStoreName } from "../../components/layout/creator-page-shell";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { isAlreadyReported } from "../../lib/already-reported";
import { useI18n, useServerText } from "../../lib/i18n";
import { InvoiceLinks } from "../invoices/invoice-links";
import { PostBody } from "../posts/post-body";
import { useManageMembership, usePostEmails } from "./library-api";
import { canSwitchMembership } from "./membership-change-format";
import {
  MEMBERSHIP_STATUS_TONES,
  membershipCurrency,
  membershipDateLine,
  membershipPriceLabel,
  POSTS_SHOWN_FIRST,
  shownPosts,
} from "./membership-format";
import { LibraryFile } from "./purchase-card";
import { SwitchTierDialog } from "./switch-tier-dialog";

type Post = LibraryMembership["posts"][number];

/** The files of the membership's current period, each with its downloads left and its button. */
function PeriodFiles({ membership }: { membership: LibraryMembership }) {
  const { t } = useI18n();
  const serverText = useServerText();
  const { period } = membership;
  if (!period) {
    return <p className="text-sm text-muted">{t("library.filesAfterPayment")}</p>;
  }
  if (period.unavailableReason || !period.downloadPath) {
    return (
      <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
        {period.unavailableReason && serverText(period.unavailableReason)}
      </p>
    );
  }
  if (period.files.length === 0) return <p className="text-sm text-muted">{t("library.noTierFiles")}</p>;
  const { downloadPath } = period;
  return (
    <div className="space-y-2">
      <ul className="space-y-2" aria-label={t("library.filesOf", { title: membership.productTitle })}>
        {period.files.map((file) => (
          <LibraryFile key={file.id} file={file} downloadPath={downloadPath} />
        ))}
      </ul>
      <p className="text-sm text-muted">
        {t("library.periodDownloads", { max: MEMBERSHIP_LIMITS.downloadsPerFilePerPeriod })}
      </p>
    </div>
  );
}

/** A post's attached files: downloaded through the member's current period, like the tier's files. */
function PostAttachments({ post, downloadPath }: { post: Post; downloadPath: string | null }) {
  const { t, rich } = useI18n();
  if (post.attachments.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label={t("library.attachedTo", { title: post.title })}>
      {post.attachments.map((attachment) =>
        downloadPath && attachment.downloadsRemaining !== null ? (
          <LibraryFile
            key={attachment.id}
            downloadPath={downloadPath}
            file={{
              ...attachment,
              downloadsRemaining: attachment.downloadsRemaining,
              downloadsUsed: 0,
            }}
          />
        ) : (
          <li key={attachment.id} className="rounded-lg border border-line px-3 py-2 text-sm text-muted">
            {rich<ReactNode>("library.attachmentWhileActive", {
              name: attachment.name,
              b: (chunks) => (
                <span key="name" className="font-medium wrap-anywhere text-ink">
                  {chunks}
                </span>
              ),
            })}
          </li>
        ),
      )}
    </ul>
  );
}

function PostArticle({ post, downloadPath }: { post: Post; downloadPath: string | null }) {
  const { date } = useI18n();
  return (
    <li>
      <article className="space-y-3 rounded-lg border border-line bg-white p-4" aria-label={post.title}>
        <div>
          <h5 className="text-base font-semibold wrap-anywhere text-ink">{post.title}</h5>
          <p className="text-xs text-muted">
            <time dateTime={post.publishedAt}>{date(new Date(post.publishedAt))}</time>
          </p>
        </div>
        <PostBody html={post.html} />
        <PostAttachments post={post} downloadPath={downloadPath} />
      </article>
    </li>
  );
}

/** The creator's posts to the member's tier, newest first: a few, then all on request. */
function MembershipPosts({ membership }: { membership: LibraryMembership }) {
  const { t } = useI18n();
  const storeName = useStoreName();
  const [showAll, setShowAll] = useState(false);
  const { posts } = membership;
  if (!membership.hasAccess) {
    return <p className="text-sm text-muted">{t("library.postsWhileActive")}</p>;
  }
  if (posts.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted">
        <Newspaper className="size-4 shrink-0" aria-hidden="true" />
        {t("library.noPosts", { seller: storeName(membership.sellerName) })}
      </p>
    );
  }
  const downloadPath = membership.period?.downloadPath ?? null;
  const older = posts.length - POSTS_SHOWN_FIRST;
  return (
    <div className="space-y-3">
      <ol className="space-y-3">
        {shownPosts(posts, showAll).map((post) => (
          <PostArticle key={post.id} post={post} downloadPath={downloadPath} />
        ))}
      </ol>
      {!showAll && older > 0 && (
        <Button variant="secondary" size="sm" onClick={() => setShowAll(true)}>
          {t("library.showOlderPosts", { count: older })}
        </Button>
      )}
    </div>
  );
}

/** "Email me new posts": a switch, saved at once (the library link authorizes it). */
function PostEmailsSwitch({ membership, token }: { membership: LibraryMembership; token: string }) {
  const { t } = useI18n();
  const serverText = useServerText();
  const id = useId();
  const [enabled, setEnabled] = useState(membership.postEmails);
  const { mutate, isPending } = usePostEmails();
  const change = (next: boolean) => {
    setEnabled(next);
    mutate(
      { membershipId: membership.id, token, enabled: next },
      {
        onSuccess: ({ postEmails }) => {
          setEnabled(postEmails);
          toast.success(serverText(postEmails ? POST_MESSAGES.postEmailsOn : POST_MESSAGES.postEmailsOff));
        },
        onError: (error) => {
          setEnabled(!next);
          if (!isAlreadyReported(error)) {
            toast.error(t("library.notSaved"), { description: serverText(error.message) });
          }
        },
      },
    );
  };
  return (
    <label
      htmlFor={id}
      className="inline-flex cursor-pointer items-center gap-3 text-sm font-medium text-ink"
    >
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={enabled}
        className="peer sr-only"
        checked={enabled}
        disabled={isPending}
        onChange={(event) => change(event.target.checked)}
      />
      <span
        aria-hidden="true"
        className="relative h-6 w-10 shrink-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-brand-600 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-4"
      />
      {t("library.emailPosts")}
    </label>
  );
}

/** Manage membership: off to Stripe's billing portal (card, cancel, resume), back to this library. */
function ManageMembershipButton({ membershipId, token }: { membershipId: string; token: string }) {
  const { t } = useI18n();
  const serverText = useServerText();
  const { mutate, isPending, isSuccess } = useManageMembership();
  const open = () =>
    mutate(
      { membershipId, token },
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (error) => {
          if (!isAlreadyReported(error)) {
            toast.error(t("library.couldNotOpen"), { description: serverText(error.message) });
          }
        },
      },
    );
  const busy = isPending || isSuccess;
  return (
    <Button variant="secondary" onClick={open} disabled={busy} aria-busy={busy} className="w-full sm:w-auto">
      <ExternalLink aria-hidden="true" />
      {busy ? t("library.opening") : t("library.manage")}
    </Button>
  );
}

/**
 * One membership in the library: product and tier, where it stands and what it costs, the period's
 * files, the creator's posts, and the member's own controls (post emails, switching tier or interval,
 * Stripe's portal), which the
 * library link authorizes: a signed-in account's library, without one, says where to find it.
 */
export function MembershipCard({
  membership,
  token,
}: {
  membership: LibraryMembership;
  token: string | null;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const serverText = useServerText();
  const storeName = useStoreName();
  return (
    <Card className="p-4 sm:p-5">
      <article className="space-y-5" aria-label={membership.productTitle}>
        <div>
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
            <h3 className="min-w-0 font-semibold wrap-anywhere text-ink">{membership.productTitle}</h3>
            <p className="font-semibold text-ink tabular-nums">
              {membershipPriceLabel(membership, membershipCurrency(membership), i18n)}
            </p>
          </div>
          <p className="mt-1 text-sm wrap-anywhere text-muted">
            {storeName(membership.sellerName)}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">{t("library.tierLabel")}</span>
            {membership.tierName}
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1">
            <Badge tone={MEMBERSHIP_STATUS_TONES[membership.status]}>
              {serverText(membership.statusLabel)}
            </Badge>
            <p className="text-sm text-ink">{membershipDateLine(membership, i18n)}</p>
          </div>
        </div>

        <div className="space-y-2">
          <h4 className="text-sm font-semibold text-ink">{t("library.files")}</h4>
          <PeriodFiles membership={membership} />
          {/* The latest paid period's invoice (a trial's $0 period has none). */}
          <InvoiceLinks invoice={membership.period?.invoice} />
        </div>

        <div className="space-y-2">
          <h4 className="text-sm font-semibold text-ink">{t("library.posts")}</h4>
          <MembershipPosts membership={membership} />
        </div>

        <div className="flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
          {token ? (
            <>
              <PostEmailsSwitch membership={membership} token={token} />
              <div className="flex flex-col gap-2 sm:flex-row">
                {canSwitchMembership(membership) && (
                  <SwitchTierDialog membership={membership} token={token} />
                )}
                <ManageMembershipButton membershipId={membership.id} token={token} />
              </div>
            </>
          ) : (
            <p className="text-sm text-muted">{serverText(POST_MESSAGES.postEmailsNeedLink)}</p>
          )}
        </div>
      </article>
    </Card>
  );
}
