import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { ErrorCode } from "../../contracts/error-codes";
import type { ApiErrorBody } from "../../contracts/errors";
import { isDatabaseUnavailable } from "../db/unavailable";

/** The one error type business code throws: a stable code, an HTTP status and a message a person can read. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly userMessage: string,
    /** Extra facts the client may use (never internals), e.g. which product an expired link was for. */
    readonly details?: Record<string, unknown>,
  ) {
    super(userMessage);
    this.name = "AppError";
  }
}

export const notFound = (message = "Not found") => new AppError("not_found", 404, message);
export const unauthorized = (message = "User not authenticated") =>
  new AppError("unauthorized", 401, message);
export const badRequest = (message: string, code: ErrorCode = "bad_request") =>
  new AppError(code, 400, message);

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
const RETRY_AFTER_SECONDS = 5;

/**
 * One handler: 4xx say what was wrong; a database outage (restart, failover) is a 503 to retry; other
 * 5xx are logged and say only "Internal error". Every 5xx carries the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // An explained 5xx (a full disk) is still the operator's to fix.
      if (error.status >= 500) request.log.error({ err: error }, "request failed");
      return reply.status(error.status).send({
        code: error.code,
        message: error.userMessage,
        ...(error.details ? { details: error.details } : {}),
      } satisfies ApiErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.message ?? "Invalid request";
      return reply.status(400).send({ code: "validation_error", message } satisfies ApiErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({
        code: error.code?.toLowerCase() ?? "bad_request",
        message: error.message,
      } satisfies ApiErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", String(RETRY_AFTER_SECONDS))
        .send({
          code: "unavailable",
          message: "The service is briefly unavailable. Please try again in a moment.",
          requestId: String(request.id),
        } satisfies ApiErrorBody);
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({
      code: "internal",
      message: "Internal error",
      requestId: String(request.id),
    } satisfies ApiErrorBody);
  });
}
