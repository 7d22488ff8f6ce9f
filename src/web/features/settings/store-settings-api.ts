import { useQuery } from "@tanstack/react-query";
import {
  type StoreSettings,
  type StoreSettingsInput,
  storeSettingsSchema,
} from "../../../contracts/store-settings";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const storeSettingsKey = (userId: string) => [...sellerKeys.all(userId), "store-settings"] as const;

export function useStoreSettings(userId: string) {
  return useQuery({
    queryKey: storeSettingsKey(userId),
    queryFn: ({ signal }) => api("/api/store-settings", { schema: storeSettingsSchema, signal }),
  });
}

export function saveStoreSettings(input: StoreSettingsInput): Promise<StoreSettings> {
  return api("/api/store-settings", { method: "PUT", body: input, schema: storeSettingsSchema });
}
