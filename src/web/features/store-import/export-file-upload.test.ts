import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const toastError = vi.hoisted(() => vi.fn());
vi.mock("sonner", () => ({ toast: { error: toastError } }));

import { ExportFileRefused, refusalMessage, uploadExportFile, uploadProductZip } from "./export-file-upload";

let sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[];
let answer: { status: number; body: string };

/** Reports half the bytes, then answers `answer`. */
class FakeXhr {
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = "";
  private request = { method: "", url: "", headers: {} as Record<string, string> };
  open(method: string, url: string) {
    this.request = { ...this.request, method, url };
  }
  setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(body: File) {
    sent.push({ ...this.request, body });
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: Math.floor(body.size / 2) });
      this.status = answer.status;
      this.responseText = answer.body;
      this.onload?.();
    });
  }
}

beforeEach(() => {
  sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const file = new File(["Purchase ID,Purchase Email\n1,a@example.com\n"], "sales 2024.csv", {
  type: "text/csv",
});

describe("sending an export file", () => {
  it("puts the raw bytes under the file's name and answers what the server recognised", async () => {
    answer = {
      status: 201,
      body: JSON.stringify({ id: "impf_1", reader: "Gumroad sales CSV", sizeBytes: 44 }),
    };
    const percents: number[] = [];
    const added = await uploadExportFile("imp 1", file, {
      onProgress: (progress) => percents.push(progress.percent),
    });
    expect(added).toEqual({ id: "impf_1", reader: "Gumroad sales CSV", sizeBytes: 44 });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe("PUT");
    expect(sent[0]?.url).toBe("/api/store-imports/imp%201/files?name=sales%202024.csv");
    expect(sent[0]?.headers["content-type"]).toBe("application/octet-stream");
    expect(sent[0]?.body).toBe(file);
    expect(percents).toEqual([Math.floor(((file.size >> 1) / file.size) * 100), 100]);
  });

  it("turns a refusal into the server's own message", async () => {
    const message = "notes.txt is not an export we know.";
    answer = { status: 400, body: JSON.stringify({ code: "unreadable_file", message }) };
    const refused = await uploadExportFile("imp_1", file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ExportFileRefused);
    expect((refused as Error).message).toBe(message);
    expect(toastError).not.toHaveBeenCalled();
  });

  it("says something plain when the answer has no message", () => {
    expect(refusalMessage(413, "<html>too large</html>")).toBe(
      "The file could not be added (413). Please try again.",
    );
    expect(
      refusalMessage(
        409,
        JSON.stringify({ code: "import_locked", message: "Files can only be added before." }),
      ),
    ).toBe("Files can only be added before.");
  });
});

describe("sending a ZIP of products' files", () => {
  const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], "my files.zip", { type: "application/zip" });
  const storeImport = {
    id: "imp_1",
    platform: "gumroad",
    status: "checked",
    files: [],
    report: null,
    result: null,
    notifyBuyers: false,
    progress: { done: 0, total: 0 },
    error: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    finishedAt: null,
  };
  const result = { import: storeImport, attached: [], skippedFolders: [], looseFiles: [], systemFiles: 0 };

  it("puts it under the product's path, or the import's for all products, named as chosen", async () => {
    answer = { status: 200, body: JSON.stringify(result) };
    expect(await uploadProductZip("imp_1", { externalId: "a/b c" }, zip)).toEqual(result);
    await uploadProductZip("imp_1", "all", zip);
    expect(sent.map((request) => [request.method, request.url])).toEqual([
      ["PUT", "/api/store-imports/imp_1/products/a%2Fb%20c/zip?name=my%20files.zip"],
      ["PUT", "/api/store-imports/imp_1/products-zip?name=my%20files.zip"],
    ]);
  });

  it("turns a refused ZIP into the server's own message", async () => {
    const message = 'my files.zip is refused: "../evil.pdf" points outside the ZIP.';
    answer = { status: 400, body: JSON.stringify({ code: "zip_unsafe_path", message }) };
    const refused = await uploadProductZip("imp_1", "all", zip).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ExportFileRefused);
    expect((refused as Error).message).toBe(message);
  });
});
