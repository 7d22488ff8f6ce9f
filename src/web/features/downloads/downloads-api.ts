import { queryOptions, useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { downloadPageSchema, downloadStartSchema, resendLinkSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";

export const downloadKeys = {
  page: (token: string) => ["buyer", "download", token] as const,
};

const downloadUrl = (token: string) => `/api/downloads/${encodeURIComponent(token)}`;

/** What the download page shows; looking does not count as a download. */
export function downloadPageQuery(token: string) {
  return queryOptions({
    queryKey: downloadKeys.page(token),
    queryFn: ({ signal }) => api(downloadUrl(token), { schema: downloadPageSchema, signal }),
  });
}

/** Counts one download, logs it and answers a storage URL for that one download, valid a minute. */
export function startDownload(token: string) {
  return api(downloadUrl(token), { method: "POST", schema: downloadStartSchema });
}

type ResendLinkInput = z.input<typeof resendLinkSchema>;

/** 'Resend my download link': always the same answer, so nobody learns who bought what. */
export function useResendLink() {
  return useMutation({
    mutationFn: (input: ResendLinkInput) =>
      api("/api/download-links/resend", {
        method: "POST",
        body: resendLinkSchema.parse(input),
        schema: z.object({ message: z.string() }),
      }),
  });
}
