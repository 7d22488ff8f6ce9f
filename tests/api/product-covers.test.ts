import { readdir } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublicProduct, SellerProduct, Storefront } from "../../src/contracts/products";
import { minimalPdf, pngImage } from "../../src/server/features/uploads/test-fixtures";
import { createProduct, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const publicProduct = async (id: string) =>
  (await t.request({ method: "GET", url: `/api/public/products/${id}` })).json() as PublicProduct;
const storedFiles = async () =>
  (await readdir(t.storageRoot, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

/** A product whose cover is a 2400x1260 image: wide enough for every size. */
async function productWithLargeCover(title: string) {
  const fileUploadId = await upload(t, seller.cookie, "product-file", "guide.pdf", minimalPdf());
  const coverUploadId = await upload(
    t,
    seller.cookie,
    "product-cover",
    "cover.png",
    await pngImage(2400, 1260),
  );
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: seller.cookie,
    body: { title, price: "19.99", inventoryType: "unlimited", fileUploadId, coverUploadId },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as SellerProduct;
}

/** `"a 320w, b 640w"` → [["a", 320], ["b", 640]] */
const candidates = (srcSet: string) =>
  srcSet.split(", ").map((candidate) => {
    const [url = "", width = ""] = candidate.split(" ");
    return [url, Number(width.replace(/w$/, ""))] as const;
  });

describe("product covers", () => {
  it("gives pages every WebP size of a cover with the largest one's intrinsic size", async () => {
    const created = await productWithLargeCover("The Guide");
    const product = await publicProduct(created.id);
    expect(product.cover).toMatchObject({ width: 1280, height: 672, alt: "Cover of The Guide" });
    const sizes = candidates(product.cover!.srcSet);
    expect(sizes.map(([, width]) => width)).toEqual([320, 640, 960, 1280]);
    expect(product.cover!.src).toBe(sizes[3]![0]);
    for (const [url, width] of sizes) {
      expect(url).toMatch(/^\/files\/public\/product-covers\/.+\.webp$/);
      const image = await t.app.server.inject({ method: "GET", url });
      expect(image.statusCode).toBe(200);
      expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: "webp", width });
    }
    // Link previews still get the 1200x630 JPEG, and purchases the thumbnail (the 640 size).
    expect(product.coverImageUrl).toMatch(/\.jpg$/);
    expect(product.coverThumbnailUrl).toBe(sizes[1]![0]);

    // The store grid and the seller's own list carry the same cover.
    const store = (
      await t.request({ method: "GET", url: `/api/public/stores/${seller.userId}` })
    ).json() as Storefront;
    expect(store.products.find((p) => p.id === created.id)?.cover).toEqual(product.cover);
    expect(created.cover).toEqual(product.cover);
  });

  it("has no cover object for a product without a cover (pages show the placeholder)", async () => {
    const created = await createProduct(t, seller.cookie, {}, { cover: false });
    expect((await publicProduct(created.id)).cover).toBeNull();
  });

  it("shows a cover made before covers had sizes as its thumbnail and Open Graph image, at their sizes", async () => {
    const created = await createProduct(t, seller.cookie, { title: "Old" });
    const legacy = {
      image: "/files/public/product-covers/s/1-a.jpg",
      thumbnail: "/files/public/product-covers/s/1-a-thumb.webp",
    };
    await t.db
      .updateTable("products")
      .set({ cover_image_url: legacy.image, cover_thumbnail_url: legacy.thumbnail, cover_variants: null })
      .where("id", "=", created.id)
      .execute();
    expect((await publicProduct(created.id)).cover).toEqual({
      src: legacy.image,
      srcSet: `${legacy.thumbnail} 600w, ${legacy.image} 1200w`,
      width: 1200,
      height: 630,
      alt: "Cover of Old",
    });
  });

  it("deletes every size of the cover with the product", async () => {
    const before = await storedFiles();
    const created = await productWithLargeCover("Gone");
    const sizes = candidates((await publicProduct(created.id)).cover!.srcSet);
    // The PDF, the Open Graph image and four sizes.
    expect((await storedFiles()).length - before.length).toBe(6);
    const deleted = await t.request({
      method: "DELETE",
      url: `/api/products/${created.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    for (const [url] of sizes) {
      expect((await t.app.server.inject({ method: "GET", url })).statusCode).toBe(404);
    }
    expect((await storedFiles()).sort()).toEqual([...before].sort());
  });
});
