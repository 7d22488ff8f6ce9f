import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { ApiErrorBody } from "../../contracts/errors";

/** The one error type business code throws: a stable code, an HTTP status and a message a person can read. */
export class AppError extends Error {
  constructor(
    readonly code: string,
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
export const badRequest = (message: string, code = "bad_request") => new AppError(code, 400, message);

/** One handler: 4xx say what was wrong; 5xx are logged and say only "Internal error" plus the request id. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
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
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({
      code: "internal",
      message: "Internal error",
      requestId: String(request.id),
    } satisfies ApiErrorBody);
  });
}
