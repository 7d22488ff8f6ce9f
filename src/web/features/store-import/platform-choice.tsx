import { ArrowRight } from "lucide-react";
import { useNavigate } from "react-router";
import { IMPORT_PLATFORM_NAMES } from "../../../contracts/store-import";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ApiError } from "../../lib/api";
import { useCreateImport } from "./store-import-api";
import { IMPORT_PLATFORM_GUIDES } from "./store-import-labels";

/** Step 1: the platform the store comes from, and what to export from it. Choosing one starts an import. */
export function PlatformChoice({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const create = useCreateImport(userId);
  const problem =
    create.error instanceof ApiError
      ? create.error.message
      : create.error
        ? "Couldn't start the import."
        : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Where is your store now?</CardTitle>
        <CardDescription>
          Export your files from there first; the next step takes them. Nothing is created until you have read
          what the import will do and run it.
        </CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Platforms">
          {IMPORT_PLATFORM_GUIDES.map((guide) => (
            <li
              key={guide.platform}
              className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4"
            >
              <div className="flex-1 space-y-1">
                <h3 className="font-semibold text-ink">{guide.name}</h3>
                <p className="text-xs text-muted">{guide.files}</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                className="self-start"
                disabled={create.isPending}
                onClick={() =>
                  create.mutate(guide.platform, {
                    onSuccess: (started) => navigate(`/settings/import/${encodeURIComponent(started.id)}`),
                  })
                }
              >
                Import from {IMPORT_PLATFORM_NAMES[guide.platform]}
                <ArrowRight aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
        {problem && (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {problem}
          </p>
        )}
      </div>
    </Card>
  );
}
