import { Copy, KeyRound } from "lucide-react";
import { useEffect, useState } from "react";
import type { BuyerLicense } from "../../../contracts/licenses";
import { Button } from "../../components/ui/button";
import { copyToClipboard } from "../../lib/clipboard";
import { useI18n } from "../../lib/i18n";
import { cn } from "../../lib/utils";

/**
 * A purchase's license key, for the buyer: plain, selectable text (one click selects all of it), so it
 * can be copied without any script. The Copy button shows only where a script can copy: in the web app
 * (library) once React runs, and on the server-rendered success and download pages once their small
 * script (public-pages/enhance.ts, `data-copy`) has run. Nothing when the purchase has no key.
 */
export function LicenseKey({
  license,
  className,
}: {
  license: BuyerLicense | null | undefined;
  className?: string;
}) {
  const { t } = useI18n();
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  if (!license) return null;
  return (
    <div className={cn("rounded-lg border border-line bg-slate-50 px-3 py-2.5 text-left", className)}>
      <p className="flex items-center gap-1.5 text-xs font-medium text-muted">
        <KeyRound className="size-3.5 shrink-0 text-brand-600" aria-hidden="true" />
        {t("license.title")}
      </p>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <code
          className="min-w-0 font-mono text-sm font-semibold tracking-wide wrap-anywhere text-ink select-all"
          data-license-key
        >
          {license.key}
        </code>
        <Button
          variant="secondary"
          size="sm"
          hidden={!scripted}
          data-copy={license.key}
          // The server-rendered pages' script says "Copied" with this (it carries no words of its own).
          data-copied-label={t("license.copied")}
          aria-label={t("license.copyLabel")}
          onClick={() => void copyToClipboard(license.key, "License key copied!")}
        >
          <Copy aria-hidden="true" />
          <span data-copy-label>{t("license.copy")}</span>
        </Button>
      </div>
      {license.disabled && <p className="mt-1.5 text-xs text-amber-800">{t("license.disabled")}</p>}
    </div>
  );
}
