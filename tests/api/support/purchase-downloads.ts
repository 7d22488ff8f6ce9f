import { expect } from "vitest";
import type { TestApp } from "./test-app";

/** The 24-hour download token of an order, as the success page hands it out (by its checkout session). */
export async function downloadTokenOf(t: TestApp, orderId: string): Promise<string> {
  const order = await t.db
    .selectFrom("orders")
    .select("stripe_session_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${order.stripe_session_id}` });
  expect(lookup.statusCode, lookup.body).toBe(200);
  return (lookup.json().purchase.downloadPath as string).replace("/download/", "");
}

/** POST /api/downloads/{token} for one file (or none, as one-file clients send). */
export const startFileDownload = (t: TestApp, token: string, fileId?: string) =>
  t.request({
    method: "POST",
    url: `/api/downloads/${token}`,
    ...(fileId ? { body: { fileId } } : {}),
  });

/** What the download page's API lists: the purchase's files, each with its downloads. */
export async function purchaseFiles(t: TestApp, token: string) {
  const page = await t.request({ method: "GET", url: `/api/downloads/${token}` });
  expect(page.statusCode, page.body).toBe(200);
  return page.json().purchase.files as {
    id: string;
    name: string;
    sizeBytes: number;
    downloadsUsed: number;
    downloadsRemaining: number;
  }[];
}

/** Downloads counted for one file of an order, as stored. */
export async function fileDownloadsUsed(t: TestApp, orderId: string, uploadId: string) {
  const row = await t.db
    .selectFrom("order_file_downloads")
    .select("downloads_used")
    .where("order_id", "=", orderId)
    .where("upload_id", "=", uploadId)
    .executeTakeFirst();
  return row?.downloads_used ?? 0;
}
