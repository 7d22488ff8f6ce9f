import { z } from "zod";
import { closeDispute, updateDispute } from "../actions/disputes.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { paginate } from "../lists.js";
import { EVIDENCE_FIELDS, EVIDENCE_FILE_FIELDS, type EvidenceField } from "../objects/dispute.js";
import { boolean, inRange, listParams, metadata, parseParams, range, text } from "../params.js";
import { isEvidenceFile } from "./files.js";

const listSchema = z.strictObject({
  ...listParams,
  charge: text().optional(),
  payment_intent: text().optional(),
  created: range().optional(),
});

/** Every evidence field is text, or the id of a file upload (checked against the account's files below). */
const evidenceFields = Object.fromEntries(
  EVIDENCE_FIELDS.map((field) => [field, text().optional()]),
) as Record<EvidenceField, z.ZodOptional<z.ZodString>>;

const evidenceSchema = z.strictObject({
  ...evidenceFields,
  // Real parameters the emulator does not keep (no enhanced evidence programs, no appeals): refused
  // with a message saying so rather than as unknown.
  enhanced_evidence: z.unknown().optional(),
  appeal: z.unknown().optional(),
});

const updateSchema = z.strictObject({
  evidence: evidenceSchema.optional(),
  metadata: metadata().optional(),
  submit: boolean().optional(),
  intended_submission_method: z
    .enum(["manual", "prefer_manual", "prefer_smart_disputes", "smart_disputes"])
    .optional(),
});

/** Disputes: opened by the control API (the cardholder's bank), answered through the API. */
export function registerDisputes(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.get("/v1/disputes/:id", ({ account, id }) => store.get("disputes", account, id, "dispute"));

  routes.get("/v1/disputes", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const disputes = store
      .list("disputes", account)
      .filter(
        (dispute) =>
          (input.charge === undefined || dispute.charge === input.charge) &&
          (input.payment_intent === undefined || dispute.payment_intent === input.payment_intent) &&
          inRange(dispute.created, input.created),
      );
    return paginate(disputes, input, "/v1/disputes", "dispute");
  });

  routes.post("/v1/disputes/:id", ({ account, id, params, origin }) => {
    const input = parseParams(updateSchema, params);
    const dispute = store.get("disputes", account, id, "dispute");
    for (const unsupported of ["enhanced_evidence", "appeal"] as const) {
      if (input.evidence?.[unsupported] !== undefined) {
        throw invalidRequest(
          `evidence[${unsupported}] is not emulated: the emulator keeps only the text and file evidence fields.`,
          `evidence[${unsupported}]`,
        );
      }
    }
    // A file field names a file uploaded for dispute evidence on this account (POST /v1/files).
    for (const field of EVIDENCE_FILE_FIELDS) {
      const value = input.evidence?.[field];
      if (value && !isEvidenceFile(emulator, account, value))
        throw resourceMissing("file upload", value, `evidence[${field}]`);
    }
    return updateDispute(emulator, account, dispute, input, origin);
  });

  routes.post("/v1/disputes/:id/close", ({ account, id, params, origin }) => {
    parseParams(z.strictObject({}), params);
    const dispute = store.get("disputes", account, id, "dispute");
    return closeDispute(emulator, account, dispute, origin);
  });
}
