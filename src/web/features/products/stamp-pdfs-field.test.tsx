import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PDF_STAMP_MESSAGES, type ProductStamping } from "../../../contracts/pdf-stamps";
import { StampableFiles } from "./stamp-pdfs-field";

const files: ProductStamping["files"] = [
  { name: "book.pdf", sizeBytes: 2048, notStamped: null },
  { name: "extras.zip", sizeBytes: 4096, notStamped: "Not a PDF: delivered as uploaded." },
];

describe("StampableFiles", () => {
  it("says a PDF is stamped for each buyer, in green, while stamping is on", () => {
    const markup = renderToStaticMarkup(<StampableFiles files={files} stampingOn />);
    expect(markup).toContain('<span class="text-emerald-700">Stamped for each buyer</span>');
    expect(markup).toContain("Not a PDF: delivered as uploaded.");
  });

  it("never says so while stamping is off: the PDF is delivered as uploaded", () => {
    const markup = renderToStaticMarkup(<StampableFiles files={files} stampingOn={false} />);
    expect(markup).not.toContain("Stamped for each buyer");
    expect(markup).not.toContain("text-emerald-700");
    expect(markup).toContain(`<span class="text-muted">${PDF_STAMP_MESSAGES.stampingOff}</span>`);
    expect(markup).toContain("Not a PDF: delivered as uploaded.");
  });
});
