import { useQuery } from "@tanstack/react-query";
import { LogIn, ShieldAlert } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { LOCALE_PARAM, type Locale, negotiateLocale, supportedLocale } from "../../../contracts/i18n/locales";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError, hasCode } from "../../lib/api";
import { ENGLISH, I18nProvider, useI18n, useServerText } from "../../lib/i18n";
import { translatorQuery } from "../../lib/load-translator";
import { BuyerPageFrame } from "../downloads/buyer-page-frame";
import { InvalidLinkNotice, LoadFailedNotice } from "../downloads/download-notices";
import { libraryQuery } from "./library-api";
import { LibraryContent } from "./library-content";

function ReceiptHint() {
  const { t } = useI18n();
  return <p className="mt-2 max-w-sm text-sm text-muted">{t("library.receiptHint")}</p>;
}

/** Why the library cannot be shown, in the buyer's terms. */
function LibraryError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useI18n();
  const serverText = useServerText();
  if (!(error instanceof ApiError) || error.status >= 500) return <LoadFailedNotice onRetry={onRetry} />;
  if (error.status === 401) {
    return (
      <NoticeCard icon={LogIn} tone="brand" title={t("library.signInTitle")}>
        <ReceiptHint />
        <Button asChild className="mt-6">
          <Link to="/auth?tab=login&redirect=/library">{t("library.signIn")}</Link>
        </Button>
      </NoticeCard>
    );
  }
  if (hasCode(error, "email_not_verified")) {
    return (
      <NoticeCard icon={ShieldAlert} tone="warning" title={t("library.verifyTitle")}>
        <p className="mt-2 max-w-sm text-sm text-muted">{serverText(error.message)}</p>
        <ReceiptHint />
      </NoticeCard>
    );
  }
  if (hasCode(error, "link_invalid")) return <InvalidLinkNotice />;
  return (
    <NoticeCard icon={ShieldAlert} tone="warning" title={t("library.linkGoneTitle")}>
      <p className="mt-2 max-w-sm text-sm text-muted">{serverText(error.message)}</p>
    </NoticeCard>
  );
}

/**
 * The language to load before the server has answered (or when it answered an error): the page's
 * `?lang=`, else the browser's languages. The server's answer has the last word: it also knows the
 * `lang` cookie, which a script cannot read.
 */
function browserLocale(lang: Locale | undefined): Locale {
  const languages = typeof navigator === "undefined" ? [] : navigator.languages;
  return negotiateLocale({ param: lang, acceptLanguage: languages.join(",") });
}

/** `<html lang>` says the page's language while the library is shown; leaving it restores the app's. */
function useDocumentLanguage(locale: Locale | undefined) {
  useEffect(() => {
    if (!locale) return;
    const root = document.documentElement;
    const before = root.lang;
    root.lang = locale;
    return () => {
      root.lang = before;
    };
  }, [locale]);
}

/**
 * /library?token=… (from any receipt) or /library for a signed-in buyer: every purchase, newest first,
 * in the buyer's language (docs/i18n.md): the API answers the one it negotiated, whose catalogue is
 * loaded on its own (lib/load-translator.ts); until it is, a spinner.
 */
export function LibraryPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const lang = supportedLocale(params.get(LOCALE_PARAM));
  const library = useQuery(libraryQuery(token, lang));
  const locale = library.data?.locale ?? browserLocale(lang);
  const catalogue = useQuery(translatorQuery(locale));
  // A catalogue that could not be loaded leaves the page in English rather than on a spinner.
  const i18n = catalogue.data ?? (catalogue.isError ? ENGLISH : undefined);
  useDocumentLanguage(i18n?.locale);
  if (!i18n) {
    return (
      <BuyerPageFrame title={ENGLISH.t("library.title")}>
        <PageSpinner />
      </BuyerPageFrame>
    );
  }
  return (
    <I18nProvider value={i18n}>
      <BuyerPageFrame title={i18n.t("library.title")} languageSwitcher>
        {library.isPending ? (
          <PageSpinner label={i18n.t("library.loading")} />
        ) : library.error ? (
          <LibraryError error={library.error} onRetry={() => void library.refetch()} />
        ) : (
          <LibraryContent data={library.data} token={token} />
        )}
      </BuyerPageFrame>
    </I18nProvider>
  );
}
