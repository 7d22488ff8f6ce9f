import type Stripe from "stripe";
import { resourceMissing } from "./errors.js";

export interface PageParams {
  limit?: number | undefined;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

/** A list object as Stripe sends it: `items` newest first, cut at the cursor, `limit` (default 10) long. */
export function paginate<T extends { id: string }>(
  items: T[],
  page: PageParams,
  url: string,
  kind: string,
): Stripe.ApiList<T> {
  const limit = page.limit ?? 10;
  let start = 0;
  let end = items.length;
  if (page.starting_after) {
    const index = items.findIndex((item) => item.id === page.starting_after);
    if (index < 0) throw resourceMissing(kind, page.starting_after, "starting_after");
    start = index + 1;
  } else if (page.ending_before) {
    const index = items.findIndex((item) => item.id === page.ending_before);
    if (index < 0) throw resourceMissing(kind, page.ending_before, "ending_before");
    end = index;
    start = Math.max(0, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  const hasMore = page.ending_before ? start > 0 : start + data.length < end;
  return { object: "list", data, has_more: hasMore, url };
}

/** A list embedded in another object (`items`, `lines`, `line_items`): everything, on one page. */
export function embeddedList<T>(data: T[], url: string): Stripe.ApiList<T> {
  return { object: "list", data, has_more: false, url };
}
