import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachmentDisposition } from "./objects";
import { s3Storage } from "./s3";
import { isOutOfSpace } from "./storage";

describe("isOutOfSpace", () => {
  it("recognises a full disk and an exhausted disk quota, and nothing else", () => {
    const fsError = (code: string) => Object.assign(new Error(`${code}: write`), { code });
    expect(isOutOfSpace(fsError("ENOSPC"))).toBe(true);
    expect(isOutOfSpace(fsError("EDQUOT"))).toBe(true);
    expect(isOutOfSpace(fsError("ENOENT"))).toBe(false);
    expect(isOutOfSpace(new Error("no code"))).toBe(false);
    expect(isOutOfSpace("ENOSPC")).toBe(false);
  });

  describe("an S3-compatible store that is full", () => {
    // What MinIO answers once its drives pass their free-space threshold.
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(507, { "content-type": "application/xml" });
        response.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code>' +
            "<Message>Storage backend has reached its minimum free drive threshold.</Message></Error>",
        );
      });
    });
    let endpoint = "";
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("is out of space for the S3 driver, through the official client", async () => {
      const storage = s3Storage({
        endpoint,
        bucket: "flatfee",
        region: "us-east-1",
        accessKeyId: "key",
        secretAccessKey: "secret",
      });
      const failure = await storage
        .write("product-covers", "seller/cover.jpg", Readable.from([Buffer.from("jpeg")]))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(Error);
      expect(isOutOfSpace(failure)).toBe(true);
    });
  });
});

describe("attachmentDisposition", () => {
  it("never carries a path separator, in the fallback or the UTF-8 name", () => {
    const header = attachmentDisposition("../../../../tmp/x.zip");
    expect(header).toBe(
      `attachment; filename=".._.._.._.._tmp_x.zip"; filename*=UTF-8''.._.._.._.._tmp_x.zip`,
    );
    const windows = attachmentDisposition("..\\..\\évil.pdf");
    expect(windows).not.toMatch(/[\\/]|%2F|%5C/i);
    expect(windows).toContain(`filename*=UTF-8''.._.._%C3%A9vil.pdf`);
  });

  it("keeps an ordinary name as it is and quotes what would break the header", () => {
    expect(attachmentDisposition('Chapter "1" 100%.pdf')).toBe(
      `attachment; filename="Chapter _1_ 100_.pdf"; filename*=UTF-8''Chapter%20%221%22%20100%25.pdf`,
    );
  });
});
