import path from "node:path";
import helmet from "@fastify/helmet";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type Stripe from "stripe";
import type { Outbox } from "./adapters/mail/outbox";
import type { Storage } from "./adapters/storage/storage";
import type { Database } from "./db/database";
import { type Auth, createAuth } from "./features/auth/auth";
import { registerAuthRoutes } from "./features/auth/routes";
import { registerDevMailbox } from "./features/dev-mailbox/routes";
import { registerStatusRoutes } from "./features/status/routes";
import { registerErrorHandling } from "./http/errors";
import { registerWebApp } from "./http/web-app";

export interface AppDeps {
  appUrl: string;
  authSecret: string;
  db: Database;
  outbox: Outbox;
  stripe: Stripe;
  storage: Storage;
  /** Built web app to serve; defaults to dist/web. */
  webDistDir?: string;
  /** Omit for silence (tests). */
  logger?: Logger;
  trustProxy?: boolean;
}

export interface App {
  server: FastifyInstance;
  auth: Auth;
}

/** The whole HTTP app from its dependencies. main.ts passes real adapters; tests pass their own. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const server: FastifyInstance = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
  });
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  await server.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  registerErrorHandling(server);

  const auth = createAuth({ db: deps.db, outbox: deps.outbox, appUrl: deps.appUrl, secret: deps.authSecret });
  registerAuthRoutes(server, { auth, db: deps.db });
  registerStatusRoutes(server, {
    db: deps.db,
    storage: deps.storage,
    stripe: deps.stripe,
    mailTransport: deps.outbox.transport,
  });
  if (deps.outbox.transport.kind === "mailbox") registerDevMailbox(server, { db: deps.db });
  await registerWebApp(server, deps.webDistDir ?? path.resolve("dist/web"));

  return { server, auth };
}
