import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { resourceMissing } from "../errors.js";
import { paginate } from "../lists.js";
import { list, listParams, parseParams, text } from "../params.js";

const listSchema = z.strictObject({
  ...listParams,
  type: text().optional(),
  types: list(z.string()).optional(),
});

/** The Events API over the event log (the last 2000 events), each account seeing only its own. */
export function registerEvents(routes: ApiRoutes, emulator: Emulator): void {
  routes.get("/v1/events/:id", ({ account, id }) => {
    const event = emulator.events.find(id)?.event;
    if (!event || (event.account ?? null) !== account) throw resourceMissing("event", id);
    return event;
  });

  routes.get("/v1/events", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const events = emulator.events
      .list(account)
      .filter(
        (event) =>
          (input.type === undefined || matchesType(event.type, input.type)) &&
          (input.types === undefined || input.types.includes(event.type)),
      );
    return paginate(events, input, "/v1/events", "event");
  });
}

/** Stripe's `type` filter takes an exact type or a wildcard such as `invoice.*`. */
function matchesType(type: string, filter: string): boolean {
  return filter.endsWith(".*") ? type.startsWith(filter.slice(0, -1)) : type === filter;
}
