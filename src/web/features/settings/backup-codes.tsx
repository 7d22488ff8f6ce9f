import { Copy } from "lucide-react";
import { Button } from "../../components/ui/button";
import { copyToClipboard } from "../../lib/clipboard";

/** One-time backup codes, to keep somewhere safe; each signs in once without the app. */
export function BackupCodes({ codes }: { codes: readonly string[] }) {
  return (
    <div className="space-y-3 rounded-xl border border-line bg-slate-50 p-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-ink">Backup codes</p>
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            void copyToClipboard(codes.join("\n"), "Backup codes copied!", "Keep them somewhere safe.")
          }
        >
          <Copy aria-hidden="true" />
          Copy codes
        </Button>
      </div>
      <p className="text-xs text-muted">
        Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.
      </p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 font-mono text-sm text-ink">
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-white px-2 py-1 text-center ring-1 ring-line">
            {code}
          </li>
        ))}
      </ul>
    </div>
  );
}
