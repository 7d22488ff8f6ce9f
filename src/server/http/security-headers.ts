import type { IncomingMessage, ServerResponse } from "node:http";
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

/** Security headers as a plain object of lower-case names, to add to an answer in one step. */
export type HeaderSet = Readonly<Record<string, string>>;

/**
 * Helmet's security headers on every answer, with our Content Security Policy. They depend on nothing
 * in the request, so Helmet runs once per policy at start-up and every request gets the same object:
 * Helmet setting its 12 headers one by one with `setHeader` was a sixth of a small route's CPU.
 */
export function registerSecurityHeaders(app: FastifyInstance, deps: { formActionOrigins: string[] }): void {
  const headers = securityHeaders(deps);
  const frameableHeaders = securityHeaders({ ...deps, frameable: true });
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.routeOptions.config.frameable ? frameableHeaders : headers);
    done();
  });
}

/** The headers Helmet sets with our policy, read once from what it does to a response. */
export function securityHeaders(deps: { formActionOrigins: string[]; frameable?: boolean }): HeaderSet {
  const frameAncestors = deps.frameable ? ["*"] : ["'none'"];
  const helmetMiddleware = helmet({
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
    ...(deps.frameable
      ? { xFrameOptions: false, crossOriginResourcePolicy: { policy: "cross-origin" as const } }
      : {}),
  });
  const set: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      set[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete set[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmetMiddleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed;
  return Object.freeze(set);
}
