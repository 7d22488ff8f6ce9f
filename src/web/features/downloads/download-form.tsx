import { Download } from "lucide-react";
import { Button } from "../../components/ui/button";

/**
 * A download button that works without JavaScript: it posts to the download page
 * (`/download/{token}`), which counts one download and answers 303 to the file, so the browser
 * downloads it and stays on the page. A refusal answers the page again with the reason.
 */
export function DownloadForm({
  downloadPath,
  label,
  disabled = false,
}: {
  downloadPath: string;
  label: string;
  disabled?: boolean;
}) {
  return (
    <form method="post" action={downloadPath}>
      <Button type="submit" size="lg" className="w-full" disabled={disabled}>
        <Download aria-hidden="true" />
        {label}
      </Button>
    </form>
  );
}
