import { Button } from "./ui/button";

/** The footer under a paged list: fetches the next page, and says so while it loads. */
export function LoadMoreButton({ onLoadMore, loading }: { onLoadMore: () => void; loading: boolean }) {
  return (
    <div className="flex justify-center border-t border-line p-4">
      <Button variant="secondary" size="sm" onClick={onLoadMore} disabled={loading}>
        {loading ? "Loading..." : "Load more"}
      </Button>
    </div>
  );
}
