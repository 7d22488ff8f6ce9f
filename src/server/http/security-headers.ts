import type { FastifyInstance } from "fastify";
import helmet from "helmet";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Any site may frame this route's answers (the embeddable buy button's overlay page): its policy says
     * `frame-ancestors *` and it has no X-Frame-Options. Every other route keeps `frame-ancestors 'none'`.
     */
    frameable?: boolean;
  }
}

/**
 * Helmet's security headers on every answer, with our Content Security Policy. The middleware is built
 * once: the Fastify plugin built it again on every request, about a tenth of the CPU of a small route.
 */
export function registerSecurityHeaders(app: FastifyInstance, deps: { formActionOrigins: string[] }): void {
  const headers = (frameAncestors: string[]) =>
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", "data:", "blob:", "https:"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          connectSrc: ["'self'"],
          frameAncestors,
          // Browsers apply form-action to a form's redirect too: Buy Now's 303 goes to Checkout.
          formAction: ["'self'", ...deps.formActionOrigins],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // A frameable page may also be framed by a site that isolates itself (COEP require-corp).
      ...(frameAncestors.includes("*")
        ? { xFrameOptions: false, crossOriginResourcePolicy: { policy: "cross-origin" as const } }
        : {}),
    });
  const applyHeaders = headers(["'none'"]);
  const applyFrameableHeaders = headers(["*"]);
  app.addHook("onRequest", (request, reply, next) => {
    const apply = request.routeOptions.config.frameable ? applyFrameableHeaders : applyHeaders;
    apply(request.raw, reply.raw, (error) => next(error instanceof Error ? error : undefined));
  });
}
