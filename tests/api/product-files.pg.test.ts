import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import {
  downloadTokenOf,
  fileDownloadsUsed,
  purchaseFiles,
  startFileDownload,
} from "./support/purchase-downloads";
import { buyProduct, createProductWithFiles, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// Runs only on PostgreSQL (npm run test:pg): the per-file download rule on real concurrent connections,
// through two app instances sharing the database.
let one: TestApp;
let two: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  one = await createTestApp({ listen: true });
  two = await createTestApp({ sharing: one });
  seller = await readySeller(one);
});
afterAll(async () => {
  await two.close();
  await one.close();
});

describe("3 downloads per file under concurrency", () => {
  it("20 parallel clicks on one file across two instances take exactly 3; the other file keeps its own", async () => {
    const { product, files } = await createProductWithFiles(one, seller.cookie, ["hot.pdf", "cold.pdf"]);
    const orderId = await buyProduct(one, product.id, "parallel@example.com");
    const token = await downloadTokenOf(one, orderId);
    const [hot, cold] = await purchaseFiles(one, token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => startFileDownload(index % 2 ? two : one, token, hot!.id)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.statusCode === 403);
    expect(refused).toHaveLength(17);
    for (const answer of refused) expect(answer.json().message).toBe(ORDER_MESSAGES.limitReached);
    expect(await fileDownloadsUsed(one, orderId, files[0]!.upload_id)).toBe(3);
    const order = await one.db
      .selectFrom("orders")
      .select("downloads_used")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    // Refused downloads rolled the order's total back with them.
    expect(order.downloads_used).toBe(3);
    const logs = await one.db
      .selectFrom("download_logs")
      .select("id")
      .where("order_id", "=", orderId)
      .execute();
    expect(logs).toHaveLength(3);

    // Both files at once: each file's 3, never more, never taken from the other.
    const mixed = await Promise.all(
      Array.from({ length: 12 }, (_, index) => startFileDownload(index % 2 ? two : one, token, cold!.id)),
    );
    expect(mixed.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(await fileDownloadsUsed(one, orderId, files[1]!.upload_id)).toBe(3);
  });
});
