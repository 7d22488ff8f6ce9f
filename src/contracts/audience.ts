import { z } from "zod";

/** Customers (one row per buyer email) and the seller's emails to them (broadcasts). */
export const AUDIENCE_LIMITS = {
  customersPageSize: 25,
  searchMaxLength: 254,
  subjectMaxLength: 120,
  /** A product update's subject is "New in {product}: {headline}". */
  headlineMaxLength: 100,
  messageMaxLength: 5000,
  /** Emails to buyers a seller can send per 24 hours (product updates included). */
  broadcastsPerDay: 3,
  /** Product update emails per product per 24 hours. */
  productUpdatesPerDay: 1,
} as const;

export const AUDIENCE_MESSAGES = {
  customersTitle: "Customers",
  customersLoadFailed: "Error loading customers",
  noCustomers: "No customers yet",
  noMatches: "No customer matches this search",
  emailTitle: "Email your customers",
  subjectRequired: "Enter a subject",
  subjectTooLong: `The subject can be at most ${AUDIENCE_LIMITS.subjectMaxLength} characters`,
  headlineRequired: "Say what is new",
  headlineTooLong: `Keep it to ${AUDIENCE_LIMITS.headlineMaxLength} characters`,
  messageRequired: "Write a message",
  messageTooLong: `The message can be at most ${AUDIENCE_LIMITS.messageMaxLength.toLocaleString("en-US")} characters`,
  productRequired: "Choose a product",
  productNotFound: "Product not found",
  noRecipients: "No one to email: these buyers have refunded or unsubscribed, or there are none yet.",
  dailyLimit: `You can send ${AUDIENCE_LIMITS.broadcastsPerDay} emails to your buyers per 24 hours. Try again later.`,
  productUpdateLimit: "You already sent an update email for this product in the last 24 hours.",
  sentTitle: "Email on its way",
  unsubscribeInvalid: "This unsubscribe link is not valid. Use the link from the latest email you received.",
} as const;

export const customerSchema = z.object({
  email: z.string(),
  firstPurchaseAt: z.string(),
  lastPurchaseAt: z.string(),
  ordersCount: z.number(),
  totalCents: z.number(),
  products: z.array(z.string()),
  unsubscribed: z.boolean(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customersPageSchema = z.object({
  customers: z.array(customerSchema),
  /** Customers of the seller (all of them, whatever the search). */
  total: z.number(),
  nextCursor: z.string().nullable(),
});
export type CustomersPage = z.infer<typeof customersPageSchema>;

export const customersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(AUDIENCE_LIMITS.customersPageSize),
  before: z.string().max(400).optional(),
  q: z.string().trim().max(AUDIENCE_LIMITS.searchMaxLength).optional(),
});

export const customersCsvFileName = (now: Date, timeZone: string) =>
  `customers-${new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now)}.csv`;

const subject = z
  .string({ error: AUDIENCE_MESSAGES.subjectRequired })
  .trim()
  .min(1, AUDIENCE_MESSAGES.subjectRequired)
  .max(AUDIENCE_LIMITS.subjectMaxLength, AUDIENCE_MESSAGES.subjectTooLong);
const message = z
  .string({ error: AUDIENCE_MESSAGES.messageRequired })
  .trim()
  .min(1, AUDIENCE_MESSAGES.messageRequired)
  .max(AUDIENCE_LIMITS.messageMaxLength, AUDIENCE_MESSAGES.messageTooLong);
const productId = z
  .string({ error: AUDIENCE_MESSAGES.productRequired })
  .min(1, AUDIENCE_MESSAGES.productRequired)
  .max(64);

/**
 * What the seller writes: a message to all buyers or one product's buyers, or a product update
 * ("New in {product}: {headline}") to that product's buyers.
 */
export const broadcastDraftSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("message"),
    audience: z.enum(["all", "product"]),
    productId: productId.optional(),
    subject,
    message,
  }),
  z.object({
    kind: z.literal("product-update"),
    productId,
    subject: z
      .string({ error: AUDIENCE_MESSAGES.headlineRequired })
      .trim()
      .min(1, AUDIENCE_MESSAGES.headlineRequired)
      .max(AUDIENCE_LIMITS.headlineMaxLength, AUDIENCE_MESSAGES.headlineTooLong),
    message,
  }),
]);
export type BroadcastDraft = z.infer<typeof broadcastDraftSchema>;

export const productUpdateSubject = (productTitle: string, headline: string) =>
  `New in ${productTitle}: ${headline}`;

export const broadcastPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  recipients: z.number(),
});
export type BroadcastPreview = z.infer<typeof broadcastPreviewSchema>;

export const broadcastSchema = z.object({
  id: z.string(),
  kind: z.enum(["message", "product-update"]),
  /** null: all products' buyers. */
  productTitle: z.string().nullable(),
  subject: z.string(),
  status: z.enum(["sending", "sent"]),
  recipients: z.number(),
  createdAt: z.string(),
});
export type Broadcast = z.infer<typeof broadcastSchema>;

export const broadcastListSchema = z.object({
  broadcasts: z.array(broadcastSchema),
  /** Emails left to send in the last 24 hours, and when the next one frees up if none. */
  remainingToday: z.number(),
  nextAvailableAt: z.string().nullable(),
});
export type BroadcastList = z.infer<typeof broadcastListSchema>;

/** The product edit page's card: how many buyers an update email reaches, and whether one can go now. */
export const productUpdateStatusSchema = z.object({
  buyers: z.number(),
  /** When the next update email for this product can go (one per 24 hours), or null if now. */
  nextAvailableAt: z.string().nullable(),
  lastSentAt: z.string().nullable(),
});
export type ProductUpdateStatus = z.infer<typeof productUpdateStatusSchema>;
