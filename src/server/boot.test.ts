import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailAndStorage } from "./boot";
import { loadConfig } from "./config";

let directory: string;
let s3rver: S3rver;
let s3Endpoint: string;
let smtp: SMTPServer;
let smtpPort: number;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "flatfee-boot-"));
  s3rver = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(directory, "s3"),
    configureBuckets: [{ name: "flatfee-boot" }],
  });
  s3Endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`;
  smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"] });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await s3rver.close();
  await rm(directory, { recursive: true, force: true });
});

describe("mail and storage at boot", () => {
  it("are the local outbox and disk when nothing is configured", async () => {
    const { mailTransport, storage } = await mailAndStorage(loadConfig({ DATA_DIR: directory }));
    expect(mailTransport.kind).toBe("mailbox");
    expect(await storage.isHealthy()).toBe(true);
    expect(storage.publicUrl("seller/cover.webp")).toMatch(/^\/files\/public\//);
  });

  it("load SMTP and S3 when they are configured, and reach them", async () => {
    const { mailTransport, storage } = await mailAndStorage(
      loadConfig({
        DATA_DIR: directory,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
        S3_ENDPOINT: s3Endpoint,
        S3_BUCKET: "flatfee-boot",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        S3_PUBLIC_URL: `${s3Endpoint}/flatfee-boot`,
      }),
    );
    expect(mailTransport.kind).toBe("smtp");
    expect(await mailTransport.isHealthy()).toBe(true);
    expect(await storage.isHealthy()).toBe(true);
    expect(storage.publicUrl("seller/cover.webp")).toMatch(new RegExp(`^${s3Endpoint}/flatfee-boot/`));
  });
});
