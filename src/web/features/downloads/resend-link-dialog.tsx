import { MailQuestion } from "lucide-react";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { ResendLinkForm } from "./resend-link-form";

/** 'Resend my download link' under Buy Now, for buyers who lost their receipt or let the link expire. */
export function ResendLinkDialog({ productId }: { productId: string }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="link" size="sm" className="text-sm">
          <MailQuestion aria-hidden="true" />
          Resend my download link
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Resend my download link</DialogTitle>
          <DialogDescription>
            Already bought this? Enter the email you paid with and we'll send a fresh link there.
          </DialogDescription>
        </DialogHeader>
        <ResendLinkForm productId={productId} />
      </DialogContent>
    </Dialog>
  );
}
