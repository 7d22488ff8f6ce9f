import { z } from "zod";

export const API_KEY_LIMITS = {
  /** Active keys a seller may hold at once (revoke one to make another). */
  maxKeysPerSeller: 10,
  nameMax: 100,
  /** Calls per key per minute (a sliding window); more answer 429 with Retry-After. */
  requestsPerMinute: 120,
  /** The latest calls settings shows. */
  requestLogShown: 50,
  /** Calls are logged this long, then dropped by maintenance (so are keys revoked that long ago). */
  requestLogDays: 30,
  /** "Last used" is written at most this often per key, so a busy key does not write on every call. */
  lastUsedEverySeconds: 60,
} as const;

/** Every key starts with this, so it is recognisable in code, logs and secret scanners. */
export const API_KEY_PREFIX = "ff_live_";
/** Base62 characters after the prefix: a lookup id (shown), then the secret (never shown again). */
export const API_KEY_LOOKUP_LENGTH = 10;
export const API_KEY_SECRET_LENGTH = 32;
export const API_KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[A-Za-z0-9]{${API_KEY_LOOKUP_LENGTH + API_KEY_SECRET_LENGTH}}$`,
);

export const API_KEY_MESSAGES = {
  nameRequired: "Give the key a name, like the tool that will use it",
  nameTooLong: `Name must be under ${API_KEY_LIMITS.nameMax} characters`,
  tooMany: `You can have at most ${API_KEY_LIMITS.maxKeysPerSeller} API keys. Revoke one you no longer use first.`,
  notFound: "API key not found",
  createdTitle: "API key created",
  copyNow: "Copy it now: for your security it won't be shown again.",
  copied: "API key copied",
  revokedTitle: "API key revoked",
  revoked: "Requests with it are refused from now on.",
  revokeConfirm:
    "Anything using this key stops working at once: its requests are refused. This can't be undone.",
  // What /api/v1 answers when the key is the problem.
  missing: "An API key is required. Send it as: Authorization: Bearer ff_live_…",
  malformed: "The Authorization header must be: Bearer followed by an API key that starts with ff_live_.",
  invalid: "This API key is not valid: it may have been revoked. Create a new one in Settings.",
  rateLimited: `Too many requests with this API key (at most ${API_KEY_LIMITS.requestsPerMinute} a minute). Wait and try again.`,
  tooManyInvalid: "Too many requests with API keys that are not valid. Wait a minute and try again.",
} as const;

export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, API_KEY_MESSAGES.nameRequired)
    .max(API_KEY_LIMITS.nameMax, API_KEY_MESSAGES.nameTooLong),
});
export type CreateApiKey = z.infer<typeof createApiKeySchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The start of the key (`ff_live_` and its lookup id), enough to recognise it; never the secret. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema), maxKeys: z.number() });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to creating a key: the only time the whole key is sent. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiRequestLogEntrySchema = z.object({
  id: z.number(),
  keyName: z.string(),
  keyPrefix: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  createdAt: z.string(),
});
export type ApiRequestLogEntry = z.infer<typeof apiRequestLogEntrySchema>;
export const apiRequestLogSchema = z.object({ requests: z.array(apiRequestLogEntrySchema) });
