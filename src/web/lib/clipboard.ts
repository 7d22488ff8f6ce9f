import { toast } from "sonner";

/** Copies text (a link, backup codes) and says so; when the browser refuses, shows the text to copy by hand. */
export async function copyToClipboard(text: string, title: string, description?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(title, description ? { description } : undefined);
  } catch {
    toast.error("Couldn't copy to the clipboard", { description: text });
  }
}
