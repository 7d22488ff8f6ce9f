import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  type ImportPlatformName,
  importEmailPreviewSchema,
  type StoreImport,
  storeImportSchema,
} from "../../../contracts/store-import";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { isImportWorking } from "./store-import-labels";

/** How often the page asks while the server checks or runs an import. */
export const IMPORT_POLL_MS = 1500;

export const importListItemSchema = storeImportSchema.pick({
  id: true,
  platform: true,
  status: true,
  createdAt: true,
  finishedAt: true,
});
export type ImportListItem = z.infer<typeof importListItemSchema>;
const importListSchema = z.object({ imports: z.array(importListItemSchema) });

export const storeImportKeys = {
  list: (userId: string) => [...sellerKeys.all(userId), "store-imports", "list"] as const,
  one: (userId: string, importId: string) =>
    [...sellerKeys.all(userId), "store-imports", "one", importId] as const,
  emailPreview: (userId: string, importId: string) =>
    [...sellerKeys.all(userId), "store-imports", "email-preview", importId] as const,
};

export const importPath = (importId: string, rest = "") =>
  `/api/store-imports/${encodeURIComponent(importId)}${rest}`;

/** The seller's imports, newest first (GET /api/store-imports). */
export function useStoreImports(userId: string) {
  return useQuery({
    queryKey: storeImportKeys.list(userId),
    queryFn: async ({ signal }) =>
      (await api("/api/store-imports", { schema: importListSchema, signal })).imports,
  });
}

/** One import; asked again every 1.5 s while the server checks or runs it. */
export function useStoreImport(userId: string, importId: string) {
  return useQuery({
    queryKey: storeImportKeys.one(userId, importId),
    queryFn: ({ signal }) => api(importPath(importId), { schema: storeImportSchema, signal }),
    refetchInterval: (query) =>
      query.state.data && isImportWorking(query.state.data.status) ? IMPORT_POLL_MS : false,
  });
}

/** The import's new state, from an answer that carries it: shown at once, and the list told. */
export function useKeepImport(userId: string) {
  const queryClient = useQueryClient();
  return (next: StoreImport) => {
    queryClient.setQueryData(storeImportKeys.one(userId, next.id), next);
    void queryClient.invalidateQueries({ queryKey: storeImportKeys.list(userId), exact: true });
  };
}

export function useCreateImport(userId: string) {
  const keep = useKeepImport(userId);
  return useMutation({
    mutationFn: (platform: ImportPlatformName) =>
      api("/api/store-imports", { method: "POST", body: { platform }, schema: storeImportSchema }),
    onSuccess: keep,
  });
}

/** Asks for the import again (after a file was added or removed). */
export function useRefreshImport(userId: string, importId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: storeImportKeys.one(userId, importId) });
}

export function useRemoveImportFile(userId: string, importId: string) {
  const refresh = useRefreshImport(userId, importId);
  return useMutation({
    mutationFn: (fileId: string) =>
      api(importPath(importId, `/files/${encodeURIComponent(fileId)}`), {
        method: "DELETE",
        schema: z.unknown(),
      }),
    onSettled: refresh,
  });
}

/** The dry run, in the background (the import becomes `checking`). */
export function useCheckImport(userId: string, importId: string) {
  const keep = useKeepImport(userId);
  return useMutation({
    mutationFn: () => api(importPath(importId, "/check"), { method: "POST", schema: storeImportSchema }),
    onSuccess: keep,
  });
}

export function useRunImport(userId: string, importId: string) {
  const keep = useKeepImport(userId);
  return useMutation({
    mutationFn: (notifyBuyers: boolean) =>
      api(importPath(importId, "/run"), {
        method: "POST",
        body: { notifyBuyers },
        schema: storeImportSchema,
      }),
    onSuccess: keep,
  });
}

/** A product's files for the run: the whole list of its uploads, replacing what was attached. */
export function useAttachProductFiles(userId: string, importId: string) {
  const keep = useKeepImport(userId);
  return useMutation({
    mutationFn: ({ externalId, uploadIds }: { externalId: string; uploadIds: string[] }) =>
      api(importPath(importId, `/products/${encodeURIComponent(externalId)}/files`), {
        method: "PUT",
        body: { uploadIds },
        schema: storeImportSchema,
      }),
    onSuccess: keep,
  });
}

/** The "your purchases moved" email as the buyers would get it; asked for when the dialog opens. */
export function useImportEmailPreview(userId: string, importId: string, enabled: boolean) {
  return useQuery({
    queryKey: storeImportKeys.emailPreview(userId, importId),
    queryFn: ({ signal }) =>
      api(importPath(importId, "/email-preview"), { schema: importEmailPreviewSchema, signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
