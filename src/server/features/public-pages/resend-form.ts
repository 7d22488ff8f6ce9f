import type { FastifyRequest } from "fastify";
import { ORDER_MESSAGES, resendLinkSchema } from "../../../contracts/orders";
import type { ResendAnswer } from "../../../web/server-rendered";
import { requestedLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { resendDownloadLink } from "../downloads";

/**
 * A posted 'Resend my download link' form (product page, expired download page): the same rules as the
 * JSON route, and what to show in the form when the page is rendered again, with its status.
 */
export async function answerResendForm(
  deps: Parameters<typeof resendDownloadLink>[0],
  request: FastifyRequest,
  productId: string,
  now: Date,
): Promise<{ status: number; answer: ResendAnswer }> {
  const email = String((request.body as Record<string, unknown> | undefined)?.email ?? "");
  const parsed = resendLinkSchema.safeParse({ productId, email });
  if (!parsed.success) {
    return {
      status: 400,
      answer: { email, problem: parsed.error.issues[0]?.message ?? "Please enter a valid email" },
    };
  }
  try {
    await resendDownloadLink(deps, { ...parsed.data, ip: request.ip, locale: requestedLocale(request) }, now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, answer: { email, problem: error.userMessage } };
  }
  return { status: 200, answer: { email, sent: ORDER_MESSAGES.resendSent } };
}
