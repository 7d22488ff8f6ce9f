import { Progress } from "../../components/ui/progress";
import { describeProgress } from "../uploads/upload-progress";
import type { SaveProgress } from "./use-save-product";

/** The bytes sent of the file being uploaded, announced politely to screen readers. */
export function PublishProgressBar({ state }: { state: SaveProgress }) {
  const label = `Uploading ${state.fileName}`;
  return (
    <div className="space-y-2 rounded-xl border border-brand-100 bg-brand-50/60 p-4">
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="min-w-0 truncate font-medium text-ink">{label}</p>
        <p className="shrink-0 font-medium text-brand-700 tabular-nums">{state.progress.percent}%</p>
      </div>
      <Progress value={state.progress.percent} label={label} />
      <p className="text-xs text-muted tabular-nums" aria-live="polite">
        {describeProgress(state.progress)}
      </p>
    </div>
  );
}
