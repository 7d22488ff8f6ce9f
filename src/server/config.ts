import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The only reader of process.env. Each part of the app gets its production adapter when its
 * variables are set, else the embedded default (PGlite, local disk, the Stripe emulator, the
 * dev mailbox). A bad value stops boot with a message naming the variable.
 */
const optionalUrl = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .pipe(z.string().url().optional())
  .optional();
const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("127.0.0.1"),
    APP_URL: optionalUrl,
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: optionalUrl,
    DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false"]).default("true"),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default("Flatfee <no-reply@flatfee.local>"),
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_PUBLIC_URL: optionalUrl,
    CLAMD_URL: optionalString.pipe(
      z
        .string()
        .regex(/^tcp:\/\/[^/]+$/, "must look like tcp://host:3310")
        .optional(),
    ),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_CONNECT_WEBHOOK_SECRET: optionalString,
    STRIPE_EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(12111),
    AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    TRUST_PROXY: z
      .string()
      .trim()
      .default("false")
      .transform((value) => (value === "true" ? true : value === "false" ? false : value)),
    WEBHOOK_ALLOW_PRIVATE_HOSTS: optionalString,
    JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    VAT_CHECK: z.enum(["vies", "local"]).optional(),
    METRICS_TOKEN: optionalString.pipe(z.string().min(24, "must be at least 24 characters").optional()),
    BUYER_COUNTRY_HEADER: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9-]+$/, "must be a header name, e.g. cf-ipcountry")
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.STRIPE_SECRET_KEY && (!env.STRIPE_WEBHOOK_SECRET || !env.STRIPE_CONNECT_WEBHOOK_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message:
          "STRIPE_WEBHOOK_SECRET and STRIPE_CONNECT_WEBHOOK_SECRET are required with STRIPE_SECRET_KEY",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.SMTP_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message: "is required with STRIPE_SECRET_KEY: real buyers need their receipts and download links",
      });
    }
    if (env.STRIPE_SECRET_KEY && env.WEBHOOK_ALLOW_PRIVATE_HOSTS) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_ALLOW_PRIVATE_HOSTS"],
        message: "is for local development only: sellers' webhooks must never reach the app's own network",
      });
    }
    if (env.S3_BUCKET && !(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_ACCESS_KEY_ID"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET",
      });
    }
  });

export type DatabaseConfig =
  | { kind: "postgres"; url: string; preparedStatements: boolean }
  | { kind: "pglite"; directory: string };
export type MailConfig = { kind: "smtp"; url: string; from: string } | { kind: "mailbox"; from: string };
export type PaymentsConfig =
  | { kind: "stripe"; secretKey: string; webhookSecret: string; connectWebhookSecret: string }
  | { kind: "emulator"; port: number; webhookSecret: string; connectWebhookSecret: string };

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  logLevel: string;
  /** Behind a reverse proxy, which client address to believe (X-Forwarded-For); rate limits key on it. */
  trustProxy: boolean | string;
  authSecret: string;
  database: DatabaseConfig;
  mail: MailConfig;
  payments: PaymentsConfig;
  s3?: {
    endpoint?: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    publicBaseUrl?: string;
  };
  clamdUrl?: string;
  /**
   * Sellers' webhook URLs: https only with real Stripe (production); private addresses only for the
   * hosts named in WEBHOOK_ALLOW_PRIVATE_HOSTS, which the local setup defaults to this machine's names.
   */
  webhooks: { requireHttps: boolean; allowPrivateHosts: string[] };
  /** How long a background job of an instance that died waits before another instance runs it. */
  jobLeaseMs: number;
  /** Who checks buyers' EU VAT numbers: VIES (production) or the local stand-in (no internet). */
  vatCheck: "vies" | "local";
  /** The header a proxy or CDN puts the buyer's country in (CF-IPCountry...), when there is one. */
  buyerCountryHeader?: string;
  /** The operator's bearer token for /metrics from another machine (METRICS_TOKEN); localhost needs none. */
  metricsToken?: string;
}

/** The local setup (the Stripe emulator) lets webhooks reach a receiver on this machine. */
const LOCAL_WEBHOOK_HOSTS = ["localhost", "127.0.0.1", "::1"];

export class ConfigError extends Error {}

const stripeSetupSchema = z.object({
  STRIPE_SECRET_KEY: z
    .string({ error: "is required: the secret key of the Stripe account to set up" })
    .trim()
    .min(1, "is required: the secret key of the Stripe account to set up"),
  APP_URL: z
    .string({ error: "is required: the app's public URL, e.g. https://shop.example.com" })
    .trim()
    .pipe(z.string().url("must be the app's public URL, e.g. https://shop.example.com")),
});

/** `npm run stripe:setup` runs before the webhook secrets exist: it needs only the key and the public URL. */
export function loadStripeSetupConfig(env: NodeJS.ProcessEnv = process.env): {
  secretKey: string;
  appUrl: string;
} {
  const parsed = stripeSetupSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return { secretKey: parsed.data.STRIPE_SECRET_KEY, appUrl: parsed.data.APP_URL.replace(/\/$/, "") };
}

/** What `npm run backup` and `restore` read first (envSchema's variables; a refined schema cannot be picked from). */
const backupEnvSchema = z.object({
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalUrl,
  S3_BUCKET: optionalString,
});

/**
 * Where the data is and which mode is configured, for `npm run backup` and `restore`, read before anything
 * else: loading the whole config creates the embedded secrets in DATA_DIR, which a restore needs empty and
 * which PostgreSQL mode (told to use pg_dump) never needed.
 */
export function loadBackupConfig(env: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  postgres: boolean;
  s3: boolean;
} {
  const parsed = backupEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return {
    dataDir: path.resolve(parsed.data.DATA_DIR),
    postgres: Boolean(parsed.data.DATABASE_URL),
    s3: Boolean(parsed.data.S3_BUCKET),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = parsed.data;
  const clamd = e.CLAMD_URL ? { clamdUrl: e.CLAMD_URL } : {};
  const dataDir = path.resolve(e.DATA_DIR);
  const localSecrets = () => readOrCreateLocalSecrets(dataDir);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    appUrl,
    dataDir,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    vatCheck: e.VAT_CHECK ?? (e.STRIPE_SECRET_KEY ? "vies" : "local"),
    ...(e.BUYER_COUNTRY_HEADER ? { buyerCountryHeader: e.BUYER_COUNTRY_HEADER.toLowerCase() } : {}),
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    ...clamd,
    webhooks: {
      requireHttps: Boolean(e.STRIPE_SECRET_KEY),
      allowPrivateHosts: e.WEBHOOK_ALLOW_PRIVATE_HOSTS
        ? e.WEBHOOK_ALLOW_PRIVATE_HOSTS.split(",")
            .map((host) => host.trim().toLowerCase())
            .filter(Boolean)
        : // Only a copy running on this machine for its own user may send to this machine by default: a
          // demo or staging server on the Stripe emulator must not let sellers reach its loopback services.
          !e.STRIPE_SECRET_KEY &&
            LOCAL_WEBHOOK_HOSTS.includes(new URL(appUrl).hostname.replace(/^\[|\]$/g, ""))
          ? LOCAL_WEBHOOK_HOSTS
          : [],
    },
    authSecret: e.AUTH_SECRET ?? localSecrets().authSecret,
    database: e.DATABASE_URL
      ? {
          kind: "postgres",
          url: e.DATABASE_URL,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS === "true",
        }
      : { kind: "pglite", directory: path.join(dataDir, "db") },
    mail: e.SMTP_URL
      ? { kind: "smtp", url: e.SMTP_URL, from: e.MAIL_FROM }
      : { kind: "mailbox", from: e.MAIL_FROM },
    payments: e.STRIPE_SECRET_KEY
      ? {
          kind: "stripe",
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
          connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET!,
        }
      : {
          kind: "emulator",
          port: e.STRIPE_EMULATOR_PORT,
          webhookSecret: localSecrets().webhookSecret,
          connectWebhookSecret: localSecrets().connectWebhookSecret,
        },
    ...(e.S3_BUCKET
      ? {
          s3: {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            publicBaseUrl: e.S3_PUBLIC_URL,
          },
        }
      : {}),
  };
}

interface LocalSecrets {
  authSecret: string;
  webhookSecret: string;
  connectWebhookSecret: string;
}

/** Embedded mode has no operator to set secrets, so it makes them once and keeps them in DATA_DIR. */
function readOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "local-secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as LocalSecrets;
  const secrets: LocalSecrets = {
    authSecret: randomBytes(32).toString("hex"),
    webhookSecret: `whsec_${randomBytes(24).toString("hex")}`,
    connectWebhookSecret: `whsec_${randomBytes(24).toString("hex")}`,
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
