import { queryOptions } from "@tanstack/react-query";
import { libraryResponseSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";

/** The buyer's purchases: by the signed link of a receipt, or of the signed-in account's email. */
export function libraryQuery(token: string | null) {
  return queryOptions({
    queryKey: ["buyer", "library", token ?? "account"] as const,
    queryFn: ({ signal }) =>
      api(token ? `/api/library?token=${encodeURIComponent(token)}` : "/api/library/me", {
        schema: libraryResponseSchema,
        signal,
      }),
  });
}
