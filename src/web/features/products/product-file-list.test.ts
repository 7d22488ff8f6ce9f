import { describe, expect, it } from "vitest";
import { PRODUCT_FILE_MESSAGES } from "../../../contracts/product-files";
import {
  addChosenFiles,
  existingFileItems,
  type FileItem,
  fileEntries,
  fileListProblem,
  filesChanged,
  moveItem,
  newFilesOf,
} from "./product-file-list";

const pdf = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: "application/pdf" });
const current = [
  { id: "a", name: "Intro", originalName: "intro.pdf", sizeBytes: 10, contentType: "application/pdf" },
  { id: "b", name: "Part 2", originalName: "part2.pdf", sizeBytes: 20, contentType: "application/pdf" },
];

describe("the product form's file list", () => {
  it("adds chosen files after the existing ones, refusing what the server would", () => {
    const { items, problem } = addChosenFiles(existingFileItems(current), [pdf("c.pdf"), pdf("tool.exe")]);
    expect(items.map((item) => item.name)).toEqual(["Intro", "Part 2", "c.pdf"]);
    expect(problem?.code).toBe("invalid_file");
  });

  it("never holds more than 20 files", () => {
    const chosen = Array.from({ length: 25 }, (_, index) => pdf(`f${index}.pdf`));
    const { items, problem } = addChosenFiles([], chosen);
    expect(items).toHaveLength(20);
    expect(problem?.message).toBe(PRODUCT_FILE_MESSAGES.tooMany);
  });

  it("moves files and sends the list in its order, new files by their upload", () => {
    const added = addChosenFiles(existingFileItems(current), [pdf("c.pdf")]).items;
    const moved = moveItem(added, added[2]!.key, -1);
    expect(moved.map((item) => item.name)).toEqual(["Intro", "c.pdf", "Part 2"]);
    expect(moveItem(moved, moved[0]!.key, -1)).toBe(moved);
    expect(newFilesOf(moved).map((file) => file.name)).toEqual(["c.pdf"]);
    expect(fileEntries(moved, ["up-1"])).toEqual([
      { id: "a", name: "Intro" },
      { uploadId: "up-1", name: "c.pdf" },
      { id: "b", name: "Part 2" },
    ]);
    expect(filesChanged(moved, current)).toBe(true);
  });

  it("sees no change when nothing was added, removed, renamed or moved", () => {
    const items = existingFileItems(current);
    expect(filesChanged(items, current)).toBe(false);
    const renamed: FileItem[] = items.map((item) => ({ ...item, name: `${item.name} (new)` }));
    expect(filesChanged(renamed, current)).toBe(true);
    expect(filesChanged(items.slice(1), current)).toBe(true);
  });

  it("refuses an empty name before uploading anything", () => {
    const items: FileItem[] = existingFileItems(current).map((item, index) =>
      index === 0 ? { ...item, name: "  " } : item,
    );
    expect(fileListProblem(items, "Failed")).toEqual({
      title: "Failed",
      message: PRODUCT_FILE_MESSAGES.nameMissing,
      errors: { file: PRODUCT_FILE_MESSAGES.nameMissing },
    });
    expect(fileListProblem(existingFileItems(current), "Failed")).toBeUndefined();
  });
});
