import { toast } from "sonner";

/** Copies a link and says so ('Link copied!'); when the browser refuses, shows the link to copy by hand. */
export async function copyLink(url: string, title: string, description?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(title, description ? { description } : undefined);
  } catch {
    toast.error("Couldn't copy the link", { description: url });
  }
}
