import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const toastError = vi.hoisted(() => vi.fn());
vi.mock("sonner", () => ({ toast: { error: toastError } }));

import { BYTES_PER_MB, UPLOAD_MESSAGES } from "../../../contracts/uploads";
import { uploadFile } from "./upload-client";
import { UploadError } from "./upload-error";
import type { UploadProgress } from "./upload-progress";

type Call = { method: string; url: string };
let calls: Call[];
let putStatus: number;
let putBody: string;
let lastHeaders: Record<string, string> = {};

/** Sends in two chunks, reporting progress, then answers `putStatus`. */
class FakeXhr {
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = "";
  headers: Record<string, string> = {};
  private target = { method: "", url: "" };
  open(method: string, url: string) {
    this.target = { method, url };
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(file: File) {
    calls.push(this.target);
    lastHeaders = this.headers;
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: Math.floor(file.size / 2) });
      this.status = putStatus;
      this.responseText = putBody;
      this.onload?.();
    });
  }
}
const intent = {
  uploadId: "up-1",
  method: "PUT",
  url: "/files/upload/token",
  headers: { "Content-Type": "application/pdf" },
  expiresAt: "2030-01-01T00:00:00.000Z",
};
const completed = {
  uploadId: "up-1",
  key: "seller/1.pdf",
  sizeBytes: 1000,
  contentType: "application/pdf",
  originalName: "guide.pdf",
};

function fakeFetch(answers: Record<string, [number, unknown]>) {
  return vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    calls.push({ method, url });
    const [status, body] = answers[`${method} ${url}`] ?? [204, undefined];
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  });
}

beforeEach(() => {
  calls = [];
  putStatus = 200;
  putBody = "";
  toastError.mockReset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  vi.stubGlobal("window", {
    localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
    location: { href: "http://localhost/new" },
    navigator: { userAgent: "vitest" },
    dispatchEvent: () => true,
    addEventListener: () => {},
  });
});
afterEach(() => vi.unstubAllGlobals());

const pdf = (size: number) => new File([new Uint8Array(size)], "guide.pdf", { type: "application/pdf" });

describe("uploadFile", () => {
  it("asks for an intent, PUTs the bytes with its headers reporting progress, then completes", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({ "POST /api/uploads": [201, intent], "POST /api/uploads/up-1/complete": [200, completed] }),
    );
    const progress: UploadProgress[] = [];
    const done = await uploadFile("product-file", pdf(1000), { onProgress: (p) => progress.push(p) });

    expect(done.uploadId).toBe("up-1");
    expect(calls).toEqual([
      { method: "POST", url: "/api/uploads" },
      { method: "PUT", url: "/files/upload/token" },
      { method: "POST", url: "/api/uploads/up-1/complete" },
    ]);
    expect(lastHeaders).toEqual({ "Content-Type": "application/pdf" });
    expect(progress.map((p) => p.percent)).toEqual([50, 100]);
  });

  it("refuses a file over 250MB before sending anything", async () => {
    vi.stubGlobal("fetch", fakeFetch({}));
    const huge = { name: "course.pdf", size: 300 * BYTES_PER_MB, type: "application/pdf" } as File;
    const failure = uploadFile("product-file", huge);
    await expect(failure).rejects.toBeInstanceOf(UploadError);
    await expect(failure).rejects.toThrow(UPLOAD_MESSAGES.productFileTooLarge(300 * BYTES_PER_MB));
    expect(calls).toEqual([]);
  });

  it("turns the server's refusal into the spec's title and deletes the upload it started", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "POST /api/uploads": [201, intent],
        "POST /api/uploads/up-1/complete": [400, { code: "invalid_file", message: "This is not a PDF." }],
      }),
    );
    const failure = uploadFile("product-file", pdf(1000));
    await expect(failure).rejects.toMatchObject({ title: "Invalid file", message: "This is not a PDF." });
    await vi.waitFor(() => expect(calls.at(-1)).toEqual({ method: "DELETE", url: "/api/uploads/up-1" }));
  });

  it("reads a storage refusal of the PUT and deletes the intent", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "POST /api/uploads": [201, intent] }));
    putStatus = 413;
    putBody = JSON.stringify({ code: "file_too_large", message: "Too many bytes." });
    await expect(uploadFile("product-file", pdf(1000))).rejects.toMatchObject({ title: "File too large" });
    await vi.waitFor(() => expect(calls.at(-1)).toEqual({ method: "DELETE", url: "/api/uploads/up-1" }));
  });

  it("shows a full storage's message, not a server error, at the PUT or at completion", async () => {
    const storageFull = { code: "storage_full", message: UPLOAD_MESSAGES.storageFull };
    vi.stubGlobal("fetch", fakeFetch({ "POST /api/uploads": [201, intent] }));
    putStatus = 507;
    putBody = JSON.stringify(storageFull);
    await expect(uploadFile("product-file", pdf(1000))).rejects.toMatchObject({
      title: "Upload failed",
      message: "Storage is full right now. Please try again later.",
    });

    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "POST /api/uploads": [201, intent],
        "POST /api/uploads/up-1/complete": [507, storageFull],
      }),
    );
    putStatus = 200;
    const atCompletion = uploadFile("product-file", pdf(1000));
    await expect(atCompletion).rejects.toBeInstanceOf(UploadError);
    await expect(atCompletion).rejects.toThrow(UPLOAD_MESSAGES.storageFull);
    expect(toastError).not.toHaveBeenCalled();
  });

  it("refuses a program's name before sending anything, whatever type the browser gives it", async () => {
    vi.stubGlobal("fetch", fakeFetch({}));
    const script = new File([new Uint8Array(100)], "invoice.bat", { type: "application/pdf" });
    await expect(uploadFile("product-file", script)).rejects.toMatchObject({
      title: "Invalid file",
      message: ".BAT files are programs or scripts, which can't be uploaded here.",
    });
    expect(calls).toEqual([]);
  });
});
