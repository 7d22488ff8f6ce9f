import { z } from "zod";

/** A creator's posts to the members of a membership (docs/memberships.md, "Posts"). */
export const POST_LIMITS = {
  titleMax: 200,
  bodyMax: 50_000,
  /** Files of the product one post may attach. */
  attachmentsMax: 10,
  /** Posts a member's library shows per membership, newest first. */
  libraryPosts: 50,
  /** Posts the seller's list shows per product, newest first. */
  sellerListMax: 200,
} as const;

export const POST_MESSAGES = {
  sectionTitle: "Posts",
  titleMissing: "Give the post a title.",
  titleTooLong: `Titles can be at most ${POST_LIMITS.titleMax} characters.`,
  bodyMissing: "Write something in the post.",
  bodyTooLong: `A post can be at most ${POST_LIMITS.bodyMax.toLocaleString("en-US")} characters.`,
  tiersMissing: "Choose at least one tier whose members see this post.",
  unknownTier: "One of these tiers is not part of this membership. Reload the page and try again.",
  tooManyFiles: `A post can attach at most ${POST_LIMITS.attachmentsMax} files.`,
  unknownFile: "One of the attached files is not one of this product's files. Reload the page and try again.",
  productNotFound: "Product not found",
  notAMembership: "Posts are for membership products: this product is sold once.",
  postNotFound: "Post not found",
  deleteConfirm:
    "Members no longer see it in their library, at once. Emails already sent stay in their inboxes.",
  published: "Post published",
  publishedEmailing: "Your members with post emails on get it by email.",
  saved: "Post saved",
  draftSaved: "Draft saved",
  deleted: "Post deleted",
  noMembershipProducts: "Posts are for memberships. Create a membership product to write to its members.",
  postEmailsOn: "You will get new posts by email.",
  postEmailsOff: "New posts will only show here, without an email.",
  postEmailsNeedLink:
    "To change post emails or manage this membership, open your library from the link in a membership email.",
} as const;

const title = z
  .string({ error: POST_MESSAGES.titleMissing })
  .trim()
  .min(1, POST_MESSAGES.titleMissing)
  .max(POST_LIMITS.titleMax, POST_MESSAGES.titleTooLong);
const body = z
  .string({ error: POST_MESSAGES.bodyMissing })
  .max(POST_LIMITS.bodyMax, POST_MESSAGES.bodyTooLong)
  .refine((text) => text.trim() !== "", POST_MESSAGES.bodyMissing);
const tierIds = z
  .array(z.string().min(1).max(64), { error: POST_MESSAGES.tiersMissing })
  .min(1, POST_MESSAGES.tiersMissing)
  // 5 tiers offered, plus removed ones kept for their members.
  .max(20, POST_MESSAGES.unknownTier);
const fileIds = z
  .array(z.string().min(1).max(64))
  .max(POST_LIMITS.attachmentsMax, POST_MESSAGES.tooManyFiles)
  .default([]);

/**
 * A post as the composer sends it. `publish` false keeps it a draft (no member sees it, no email);
 * publishing (on create, or an edit of a draft) shows it to members and emails them once.
 */
export const postInputSchema = z.object({
  productId: z.string().min(1).max(64),
  title,
  body,
  tierIds,
  fileIds,
  publish: z.boolean().default(true),
});
export type PostInput = z.input<typeof postInputSchema>;

/** An edit: the same fields but the product. Publishing a draft is `publish: true`; a post never goes back to draft. */
export const postUpdateSchema = postInputSchema.omit({ productId: true }).extend({
  publish: z.boolean().default(false),
});
export type PostUpdate = z.input<typeof postUpdateSchema>;

/** The composer's fields the server checks, each with its message (the composer shows them at the field). */
export type PostField = "title" | "body" | "tierIds" | "fileIds";

export const postFileSchema = z.object({ id: z.string(), name: z.string() });

/** A post as its seller sees it. */
export const sellerPostSchema = z.object({
  id: z.string(),
  productId: z.string(),
  title: z.string(),
  /** As written, in the posts' markup (contracts/post-markup.ts). */
  body: z.string(),
  tierIds: z.array(z.string()),
  files: z.array(postFileSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Null while a draft. */
  publishedAt: z.string().nullable(),
  /** The publication's emails: queued so far, and whether every member has been queued. */
  emails: z.object({ status: z.enum(["none", "sending", "sent"]), count: z.number() }),
});
export type SellerPost = z.infer<typeof sellerPostSchema>;

/** A membership product as the Posts section offers it: its tiers and files to choose from. */
export const postProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  tiers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** Removed from the product but kept for its members: posts may still go to them. */
      removed: z.boolean(),
    }),
  ),
  files: z.array(postFileSchema),
  postCount: z.number(),
});
export type PostProduct = z.infer<typeof postProductSchema>;

export const postProductsSchema = z.object({ products: z.array(postProductSchema) });
export type PostProducts = z.infer<typeof postProductsSchema>;

export const postListQuerySchema = z.object({ productId: z.string().min(1).max(64) });
export const postListSchema = z.object({ posts: z.array(sellerPostSchema) });
export type PostList = z.infer<typeof postListSchema>;

/** One file attached to a post, as a member sees it: downloaded through their current period. */
export const libraryPostAttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  sizeBytes: z.number().nullable(),
  /** Downloads left of it in the current period; null when there is no period to download through. */
  downloadsRemaining: z.number().nullable(),
});

/** One post in a member's library: its rendered, escaped HTML. */
export const libraryPostSchema = z.object({
  id: z.string(),
  title: z.string(),
  html: z.string(),
  publishedAt: z.string(),
  attachments: z.array(libraryPostAttachmentSchema),
});
export type LibraryPost = z.infer<typeof libraryPostSchema>;

/** A member's "Email me new posts", authorized by their library link. */
export const postEmailsRequestSchema = z.object({
  token: z.string().min(1).max(2000),
  enabled: z.boolean(),
});
export const postEmailsSchema = z.object({ postEmails: z.boolean() });
