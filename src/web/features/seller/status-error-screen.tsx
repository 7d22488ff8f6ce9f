import { TriangleAlert } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";

/** The seller's status could not be loaded (the cause was already toasted globally). */
export function StatusErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center px-6 py-14 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600 ring-1 ring-red-100">
        <TriangleAlert className="size-6" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-lg font-semibold text-ink">We couldn't load your account</h1>
      <p className="mt-2 max-w-sm text-sm text-muted">
        Your plan and payout details did not load. Check your connection and try again.
      </p>
      <Button className="mt-6" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}
