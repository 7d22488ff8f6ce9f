import { z } from "zod";
import { actionReasonSchema } from "./operator";

/**
 * Enforcement (docs/operator.md, "Enforcement"): what operators do about a seller or a product, what the
 * seller sees of it (their Standing page) and their appeals. Shared by the server and the web app.
 */

/** The public page explaining all of this, linked from every enforcement email and the Standing page. */
export const ENFORCEMENT_POLICY_PATH = "/policy/enforcement";
export const STANDING_PATH = "/settings/standing";

/** What a buyer reads (translated on buyer pages through contracts/i18n/buyer-messages.ts). */
export const ENFORCEMENT_BUYER_MESSAGES = {
  storeUnavailable: "This store is unavailable.",
  productUnavailable: "This product is unavailable.",
  downloadsRevoked: "Downloads from this store have been stopped.",
} as const;

/** What sellers and operators read (English, as the dashboard is). */
export const ENFORCEMENT_MESSAGES = {
  restricted:
    "Your store is restricted: you can't add products or take new sales. See Settings → Standing for why and how to appeal.",
  suspended:
    "Your store is suspended: you can't add products or take new sales. See Settings → Standing for why and how to appeal.",
  goodStanding: "This seller is in good standing: there is nothing to reinstate.",
  notTakenDown: "This product isn't taken down: there is nothing to reinstate.",
  alreadyTakenDown: "This product is already taken down.",
  alreadyInForce: "The seller is already under this action.",
  sellerNotFound: "Seller not found.",
  productNotFound: "Product not found.",
  appealNotFound: "Appeal not found.",
  actionNotFound: "This action isn't one you can appeal.",
  appealOpen: "You already have an open appeal of this action. We'll answer it before you can send another.",
  appealAnswered: "This appeal has already been answered.",
  appealRequired: "Tell us why this action should be lifted.",
  appealTooLong: "Keep your appeal under 5,000 characters.",
} as const;

export const SELLER_ACTIONS = ["warn", "restrict", "suspend", "reinstate"] as const;
export type SellerAction = (typeof SELLER_ACTIONS)[number];
export const ACTION_KINDS = ["warn", "restrict", "suspend", "take-down"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** In words, for the seller's emails, the Standing page and the console. */
export const ACTION_LABELS: Record<ActionKind, string> = {
  warn: "Warning",
  restrict: "Restriction",
  suspend: "Suspension",
  "take-down": "Product taken down",
};

const reportIdSchema = z.string().trim().min(1).max(100).optional();

export const sellerActionBodySchema = z.object({
  action: z.enum(SELLER_ACTIONS),
  reason: actionReasonSchema,
  reportId: reportIdSchema,
  /** Suspend only: buyers' download links stop working too (kept by default). */
  revokeDownloads: z.boolean().optional(),
});
export type SellerActionBody = z.infer<typeof sellerActionBodySchema>;

export const productActionBodySchema = z.object({
  reason: actionReasonSchema,
  reportId: reportIdSchema,
});
export type ProductActionBody = z.infer<typeof productActionBodySchema>;

export const sellerIdParamsSchema = z.object({ sellerId: z.string().min(1).max(100) });
export const productIdParamsSchema = z.object({ productId: z.string().min(1).max(100) });
export const appealIdParamsSchema = z.object({ appealId: z.string().min(1).max(100) });

/** The seller's state: in good standing, restricted (no new products, no sales) or suspended (pages off too). */
export const sellerStateSchema = z.enum(["good", "restricted", "suspended"]);
export type SellerState = z.infer<typeof sellerStateSchema>;

export const appealSchema = z.object({
  id: z.string(),
  actionId: z.string(),
  body: z.string(),
  status: z.enum(["open", "reinstated", "upheld", "closed"]),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  answerReason: z.string().nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

export const enforcementActionSchema = z.object({
  id: z.string(),
  kind: z.enum(ACTION_KINDS),
  productId: z.string().nullable(),
  productTitle: z.string().nullable(),
  reason: z.string(),
  reportId: z.string().nullable(),
  revokeDownloads: z.boolean(),
  createdAt: z.string(),
  /** Null while in force. */
  liftedAt: z.string().nullable(),
  liftedReason: z.string().nullable(),
  appeals: z.array(appealSchema),
});
export type EnforcementAction = z.infer<typeof enforcementActionSchema>;

/** The seller's Standing page (and the console's view of it). */
export const standingSchema = z.object({
  state: sellerStateSchema,
  /** What is in force now: the restriction or suspension, and each product taken down. */
  inForce: z.array(enforcementActionSchema),
  /** Everything else: warnings, and actions lifted since. Newest first. */
  past: z.array(enforcementActionSchema),
});
export type Standing = z.infer<typeof standingSchema>;

export const appealBodySchema = z.object({
  actionId: z.string().min(1).max(100),
  body: z
    .string()
    .trim()
    .min(1, ENFORCEMENT_MESSAGES.appealRequired)
    .max(5000, ENFORCEMENT_MESSAGES.appealTooLong),
});
export type AppealBody = z.infer<typeof appealBodySchema>;

export const appealAnswerSchema = z.object({
  outcome: z.enum(["reinstate", "uphold"]),
  reason: actionReasonSchema,
});
export type AppealAnswer = z.infer<typeof appealAnswerSchema>;

/** One open appeal in the operators' queue. */
export const queuedAppealSchema = appealSchema.extend({
  sellerId: z.string(),
  sellerEmail: z.string(),
  storeName: z.string().nullable(),
  action: enforcementActionSchema.omit({ appeals: true }),
});
export type QueuedAppeal = z.infer<typeof queuedAppealSchema>;
export const appealQueueSchema = z.object({ appeals: z.array(queuedAppealSchema) });

/** Amounts of one currency: never added to another's. */
export const currencyAmountSchema = z.object({ currency: z.string(), amountCents: z.number().int() });
export type CurrencyAmount = z.infer<typeof currencyAmountSchema>;

export const platformFiguresSchema = z.object({
  payingSellers: z.number().int(),
  /** The $10 plan's monthly recurring revenue: paying sellers × the plan's price, in US cents. */
  mrrCents: z.number().int(),
  storageBytes: z.number(),
  months: z.array(
    z.object({
      /** YYYY-MM, UTC. */
      month: z.string(),
      newSellers: z.number().int(),
      churnedSellers: z.number().int(),
      /** Completed orders' settlement, one entry per store currency. */
      gmv: z.array(currencyAmountSchema),
    }),
  ),
});
export type PlatformFigures = z.infer<typeof platformFiguresSchema>;

export const sellerSearchQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  /** The previous page's last row (keyset paging). */
  after: z.string().max(200).optional(),
});
export const sellerRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  storeName: z.string().nullable(),
  createdAt: z.string(),
  planStatus: z.string().nullable(),
  state: sellerStateSchema,
});
export type SellerRow = z.infer<typeof sellerRowSchema>;
export const sellerSearchPageSchema = z.object({
  sellers: z.array(sellerRowSchema),
  nextAfter: z.string().nullable(),
});
export type SellerSearchPage = z.infer<typeof sellerSearchPageSchema>;

export const operatorSellerSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  storeName: z.string().nullable(),
  storeCurrency: z.string(),
  createdAt: z.string(),
  plan: z.object({
    standing: z.string(),
    status: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
  }),
  connect: z.object({ accountId: z.string().nullable(), onboardingComplete: z.boolean() }),
  products: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      isActive: z.boolean(),
      priceCents: z.number().int(),
      takenDown: z.boolean(),
    }),
  ),
  sales: z.object({ count: z.number().int(), volume: z.array(currencyAmountSchema) }),
  storageBytes: z.number(),
  /** Null until the reports feature lands on this branch (reports are built in parallel). */
  reportsCount: z.number().int(),
  standing: standingSchema,
});
export type OperatorSeller = z.infer<typeof operatorSellerSchema>;

export const actionResultSchema = z.object({ standing: standingSchema });
