import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api";
import { asUploadError, UploadError, uploadErrorFromBody } from "./upload-error";

describe("upload errors", () => {
  it("titles each code as the spec does", () => {
    expect(new UploadError("invalid_file", "x").title).toBe("Invalid file");
    expect(new UploadError("file_too_large", "x").title).toBe("File too large");
    expect(new UploadError("storage_limit_reached", "x").title).toBe("Storage limit reached");
    expect(new UploadError("upload_interrupted", "x").title).toBe("Upload failed");
  });

  it("turns an API 4xx into an upload error and leaves other failures alone", () => {
    const converted = asUploadError(new ApiError(400, "invalid_file", "Not a PDF"));
    expect(converted).toBeInstanceOf(UploadError);
    expect((converted as UploadError).message).toBe("Not a PDF");
    const serverError = new ApiError(500, "internal", "Internal error");
    expect(asUploadError(serverError)).toBe(serverError);
    const network = new TypeError("Failed to fetch");
    expect(asUploadError(network)).toBe(network);
  });

  it("reads the storage's JSON error, or says the status for anything else", () => {
    const fromJson = uploadErrorFromBody(413, JSON.stringify({ code: "file_too_large", message: "Too big" }));
    expect([fromJson.title, fromJson.message]).toEqual(["File too large", "Too big"]);
    const fromXml = uploadErrorFromBody(403, "<Error><Code>AccessDenied</Code></Error>");
    expect(fromXml.title).toBe("Upload failed");
    expect(fromXml.message).toContain("403");
  });
});
