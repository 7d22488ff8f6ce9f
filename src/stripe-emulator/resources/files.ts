import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import { z } from "zod";
import { type ApiRoutes, authenticatedAccount, sendApiError } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterInvalid, parameterMissing, resourceMissing } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { inRange, listParams, parseParams, range } from "../params.js";

/** A part of a multipart/form-data body: a field's text, or a file with its name and type. */
export type MultipartValue = string | { filename: string; contentType: string; data: Buffer };

/** Stripe takes dispute evidence files of at most 5 MB, as PDF, JPEG or PNG. */
const DISPUTE_EVIDENCE_MAX_BYTES = 5 * 1024 * 1024;
const KINDS: Array<{ type: string; magic: number[] }> = [
  { type: "pdf", magic: [0x25, 0x50, 0x44, 0x46] },
  { type: "png", magic: [0x89, 0x50, 0x4e, 0x47] },
  { type: "jpg", magic: [0xff, 0xd8, 0xff] },
];

/** Splits a multipart/form-data body (as the SDK's `files.create` sends it) into its fields. */
export function parseMultipart(body: Buffer, contentType: string): Record<string, MultipartValue> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw invalidRequest("The multipart/form-data body has no boundary.");
  const delimiter = Buffer.from(`--${marker}`);
  const fields: Record<string, MultipartValue> = {};
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    // Each part: CRLF, headers, a blank line, the content, CRLF before the next delimiter.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const data = part.subarray(headerEnd + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim();
      if (name !== undefined) {
        fields[decodeURIComponent(name)] =
          filename !== undefined
            ? {
                filename: filename.replace(/%22/g, '"'),
                contentType: type ?? "application/octet-stream",
                data: Buffer.from(data),
              }
            : data.toString("utf8");
      }
    }
    start = next;
  }
  return fields;
}

const listSchema = z.strictObject({
  ...listParams,
  purpose: z.string().optional(),
  created: range().optional(),
});

const FILE_PURPOSES = [
  "account_requirement",
  "additional_verification",
  "business_icon",
  "business_logo",
  "customer_signature",
  "dispute_evidence",
  "identity_document",
  "issuing_regulatory_reporting",
  "pci_document",
  "tax_document_user_upload",
  "terminal_reader_splashscreen",
];

/**
 * The Files API (`POST /v1/files`, multipart like Stripe's `files.stripe.com`), for dispute evidence only:
 * a PDF, JPEG or PNG of at most 5 MB becomes a `file_…` object of the caller's account, whose bytes
 * `GET /v1/files/:id/contents` answers and whose id the dispute evidence's file fields take.
 */
export function registerFiles(app: FastifyInstance, routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.post("/v1/files", ({ account, params }) => {
    const { purpose, file, ...rest } = params as Record<string, unknown>;
    const unknown = Object.keys(rest).filter((key) => !key.startsWith("file_link_data"));
    if (unknown[0])
      throw parameterInvalid(unknown[0], `Received unknown parameter: ${unknown[0]}`, "parameter_unknown");
    if (purpose === undefined) throw parameterMissing("purpose");
    if (typeof purpose !== "string" || !FILE_PURPOSES.includes(purpose)) {
      throw parameterInvalid(
        "purpose",
        `Invalid purpose: must be one of ${FILE_PURPOSES.join(", ")}`,
        "parameter_invalid_string",
      );
    }
    if (purpose !== "dispute_evidence") {
      throw invalidRequest(
        `Files with purpose ${purpose} are not emulated: only dispute_evidence.`,
        "purpose",
      );
    }
    if (file === undefined) throw parameterMissing("file");
    if (typeof file !== "object" || file === null || !("data" in file)) {
      throw parameterInvalid(
        "file",
        "Invalid file: the file must be sent as a multipart/form-data file part.",
        "parameter_invalid_string",
      );
    }
    const upload = file as { filename: string; data: Buffer };
    const kind = KINDS.find((candidate) =>
      candidate.magic.every((byte, index) => upload.data[index] === byte),
    );
    if (!kind)
      throw invalidRequest("Invalid file: must be one of the following types: pdf, jpeg, png.", "file");
    if (upload.data.length > DISPUTE_EVIDENCE_MAX_BYTES) {
      throw invalidRequest(
        `File size exceeds maximum of ${DISPUTE_EVIDENCE_MAX_BYTES} bytes for dispute evidence.`,
        "file",
        "file_too_large",
      );
    }
    const id = newId("file");
    const object: Stripe.File = {
      id,
      object: "file",
      created: emulator.now(),
      expires_at: null,
      filename: upload.filename,
      links: { object: "list", data: [], has_more: false, url: `/v1/file_links?file=${id}` },
      purpose: "dispute_evidence",
      size: upload.data.length,
      title: null,
      type: kind.type,
      url: `${emulator.publicUrl}/v1/files/${id}/contents`,
    };
    store.put("files", account, object);
    store.set("fileContents", id, upload.data.toString("base64"));
    return object;
  });

  routes.get("/v1/files/:id", ({ account, id }) => store.get("files", account, id, "file"));

  routes.get("/v1/files", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const files = store
      .list("files", account)
      .filter(
        (file) =>
          (input.purpose === undefined || file.purpose === input.purpose) &&
          inRange(file.created, input.created),
      );
    return paginate(files, input, "/v1/files", "file");
  });

  app.get<{ Params: { id: string } }>("/v1/files/:id/contents", async (request, reply) => {
    try {
      const account = authenticatedAccount(emulator, request);
      const file = store.find("files", account, request.params.id);
      const contents = file && store.state.fileContents[file.id];
      if (!file || contents === undefined) throw resourceMissing("file", request.params.id);
      const type = file.type === "pdf" ? "application/pdf" : file.type === "png" ? "image/png" : "image/jpeg";
      return reply.type(type).send(Buffer.from(contents, "base64"));
    } catch (error) {
      return sendApiError(reply, error);
    }
  });
}

/** Whether a dispute evidence file field names a file of this account uploaded for dispute evidence. */
export function isEvidenceFile(emulator: Emulator, account: string | null, id: string): boolean {
  return emulator.store.find("files", account, id)?.purpose === "dispute_evidence";
}
