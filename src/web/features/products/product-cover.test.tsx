import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CoverImage } from "../../../contracts/products";
import { ProductCover } from "./product-cover";

const cover: CoverImage = {
  src: "/files/public/product-covers/s/1-ab-1280w.webp",
  srcSet:
    "/files/public/product-covers/s/1-ab-320w.webp 320w, /files/public/product-covers/s/1-ab-1280w.webp 1280w",
  width: 1280,
  height: 672,
  alt: "Cover of The Guide",
};

/** The attributes of the first `tag` element in the markup, names lower-cased as the browser reads them. */
function attributesOf(markup: string, tag: string): Record<string, string> | undefined {
  const element = new RegExp(`<${tag}\\b([^>]*)>`).exec(markup);
  if (!element) return undefined;
  const attributes: Record<string, string> = {};
  for (const [, name = "", value = ""] of (element[1] ?? "").matchAll(/([\w-]+)="([^"]*)"/g)) {
    attributes[name.toLowerCase()] = value.replaceAll("&amp;", "&");
  }
  return attributes;
}

const markupOf = (element: React.ReactElement) => renderToStaticMarkup(element);
const imageOf = (element: React.ReactElement) => attributesOf(markupOf(element), "img");

describe("ProductCover", () => {
  it("offers every size with the intrinsic width and height, so nothing shifts while it loads", () => {
    const image = imageOf(
      <ProductCover cover={cover} title="The Guide" sizes="(min-width: 1024px) 576px, 100vw" />,
    );
    expect(image).toMatchObject({
      src: cover.src,
      srcset: cover.srcSet,
      sizes: "(min-width: 1024px) 576px, 100vw",
      width: "1280",
      height: "672",
      alt: "Cover of The Guide",
      decoding: "async",
    });
  });

  it("loads the first cover at once and first (preloaded from the head), the others only near the screen", () => {
    const first = markupOf(<ProductCover cover={cover} title="The Guide" priority />);
    expect(attributesOf(first, "img")).toMatchObject({ loading: "eager", fetchpriority: "high" });
    // React hoists this into <head> when it renders the page, so the image is asked for before the body.
    expect(attributesOf(first, "link")).toMatchObject({
      rel: "preload",
      as: "image",
      imagesrcset: cover.srcSet,
      fetchpriority: "high",
    });

    const later = markupOf(<ProductCover cover={cover} title="The Guide" />);
    expect(attributesOf(later, "img")).toMatchObject({ loading: "lazy", sizes: "100vw" });
    expect(attributesOf(later, "img")).not.toHaveProperty("fetchpriority");
    expect(attributesOf(later, "link")).toBeUndefined();
  });

  it("shows a single image when only its address is known (a purchase's thumbnail)", () => {
    const image = imageOf(<ProductCover url="/files/public/product-covers/s/thumb.webp" title="The Guide" />);
    expect(image).toMatchObject({ src: "/files/public/product-covers/s/thumb.webp", loading: "lazy" });
    expect(image).not.toHaveProperty("srcset");
  });

  it("keeps the placeholder icon when the product has no cover", () => {
    for (const element of [
      <ProductCover key="none" cover={null} title="The Guide" />,
      <ProductCover key="no-url" url={null} title="The Guide" />,
    ]) {
      expect(imageOf(element)).toBeUndefined();
      expect(attributesOf(markupOf(element), "div")).toMatchObject({
        role: "img",
        "aria-label": "The Guide has no cover image",
      });
    }
  });
});
