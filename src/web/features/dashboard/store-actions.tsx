import { ExternalLink, Plus, Settings, Share2 } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "../../components/ui/button";

export function storeUrl(origin: string, userId: string): string {
  return `${origin}/store/${userId}`;
}

async function shareStore(userId: string): Promise<void> {
  const url = storeUrl(window.location.origin, userId);
  try {
    await navigator.clipboard.writeText(url);
    toast.success("Store link copied!", { description: "Share this link with your customers" });
  } catch {
    toast.error("Couldn't copy the link", { description: url });
  }
}

/** Store Settings, Share My Store, New Product, View My Store (product rules, Screens and routes). */
export function StoreActions({ userId }: { userId: string }) {
  return (
    <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:justify-end">
      <Button asChild variant="secondary">
        <Link to="/settings">
          <Settings aria-hidden="true" />
          Store Settings
        </Link>
      </Button>
      <Button variant="secondary" onClick={() => void shareStore(userId)}>
        <Share2 aria-hidden="true" />
        Share My Store
      </Button>
      <Button asChild>
        <Link to="/new">
          <Plus aria-hidden="true" />
          New Product
        </Link>
      </Button>
      <Button asChild variant="secondary">
        <Link reloadDocument to={`/store/${userId}`}>
          <ExternalLink aria-hidden="true" />
          View My Store
        </Link>
      </Button>
    </div>
  );
}
