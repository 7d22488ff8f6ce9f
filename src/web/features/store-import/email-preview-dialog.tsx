import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { useImportEmailPreview } from "./store-import-api";

/** The "your purchases moved" email as a buyer would get it: subject, the HTML (sandboxed) and the text. */
export function EmailPreviewDialog({
  userId,
  importId,
  open,
  onOpenChange,
}: {
  userId: string;
  importId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const preview = useImportEmailPreview(userId, importId, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex max-h-[calc(100dvh-2rem)] max-w-2xl flex-col">
        <DialogHeader>
          <DialogTitle>The email your buyers would get</DialogTitle>
          <DialogDescription>
            Sent once to each buyer of the imported orders, in their language, with a link to their library.
            Links here are placeholders.
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto">
          {preview.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner label="Loading the email" />
            </div>
          ) : preview.isError ? (
            <RetryNotice message="We couldn't load the email." onRetry={() => void preview.refetch()} />
          ) : (
            <>
              <p className="text-sm">
                <span className="text-muted">Subject: </span>
                <span className="font-medium text-ink">{preview.data.subject}</span>
              </p>
              <iframe
                title="The email as HTML"
                sandbox=""
                srcDoc={preview.data.html}
                className="h-96 w-full rounded-xl border border-line bg-white"
              />
              <details className="rounded-xl border border-line p-3 text-sm">
                <summary className="cursor-pointer font-medium text-ink">Text version</summary>
                <pre className="mt-2 font-sans text-xs whitespace-pre-wrap break-words text-ink">
                  {preview.data.text}
                </pre>
              </details>
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
