import { countOf } from "../../../contracts/plural";
import {
  type PostField,
  type PostInput,
  type PostProduct,
  postInputSchema,
  type SellerPost,
} from "../../../contracts/posts";

/** What the composer holds while the seller writes. */
export interface ComposerValues {
  title: string;
  body: string;
  tierIds: string[];
  fileIds: string[];
}
export type ComposerErrors = Partial<Record<PostField, string>>;

/**
 * A new post starts addressed to every tier still offered (a removed tier, kept for its members, is
 * chosen on purpose); an edit starts from the post as saved.
 */
export function initialComposerValues(product: PostProduct, post: SellerPost | null): ComposerValues {
  if (post) {
    return {
      title: post.title,
      body: post.body,
      tierIds: post.tierIds,
      fileIds: post.files.map((f) => f.id),
    };
  }
  return {
    title: "",
    body: "",
    tierIds: product.tiers.filter((tier) => !tier.removed).map((tier) => tier.id),
    fileIds: [],
  };
}

/** Checks or unchecks one id, keeping the order of `all` (the product's tiers or files). */
export function toggleId(all: readonly { id: string }[], chosen: readonly string[], id: string, on: boolean) {
  const next = new Set(chosen);
  if (on) next.add(id);
  else next.delete(id);
  return all.map((item) => item.id).filter((itemId) => next.has(itemId));
}

/** The composer's values checked with the server's own schema: the request, or a message per field. */
export function checkComposer(
  productId: string,
  values: ComposerValues,
  publish: boolean,
): { input: PostInput } | { errors: ComposerErrors } {
  const parsed = postInputSchema.safeParse({ productId, ...values, publish });
  if (parsed.success) return { input: parsed.data };
  const errors: ComposerErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (
      (field === "title" || field === "body" || field === "tierIds" || field === "fileIds") &&
      !errors[field]
    ) {
      errors[field] = issue.message;
    }
  }
  return { errors };
}

/** The server's refusal of a tier or file names its field (`details.field`); anything else is general. */
export function fieldOfRefusal(details: Record<string, unknown>): PostField | null {
  const field = details.field;
  return field === "tierIds" || field === "fileIds" ? field : null;
}

/** The composer's buttons: a new post or a draft is published or kept a draft; a published post is saved. */
export function composerActions(post: SellerPost | null): Array<{ publish: boolean; label: string }> {
  if (post?.publishedAt) return [{ publish: false, label: "Save changes" }];
  return [
    { publish: true, label: "Publish" },
    { publish: false, label: "Save draft" },
  ];
}

/** What publishing (or saving) will do, said before the seller clicks. */
export function composerNote(post: SellerPost | null): string {
  if (post?.publishedAt)
    return "Saving changes updates the post in your members' libraries. It is not emailed again.";
  return "Publishing shows the post in the library of members of the chosen tiers and emails it to those who get post emails. A draft stays private.";
}

/** The short formatting help under the body: what to type, and what it becomes. */
export const FORMATTING_HELP: ReadonlyArray<readonly [string, string]> = [
  ["**bold**", "bold"],
  ["*italic*", "italic"],
  ["[text](https://…)", "link"],
  ["- item", "bulleted list"],
  ["1. item", "numbered list"],
  ["## Heading", "heading"],
];

/** A post's state in the seller's list. */
export function postStateLabel(post: SellerPost): { label: string; tone: "neutral" | "success" | "warning" } {
  if (!post.publishedAt) return { label: "Draft", tone: "neutral" };
  if (post.emails.status === "sending") return { label: "Sending emails", tone: "warning" };
  return { label: "Published", tone: "success" };
}

/** "Fan, Patron · emailed to 12 members · 1 file": who it is for and what went out. */
export function postSummary(post: SellerPost, product: PostProduct): string {
  const tierNames = post.tierIds
    .map((id) => product.tiers.find((tier) => tier.id === id)?.name)
    .filter((name): name is string => name !== undefined);
  const parts = [tierNames.length > 0 ? tierNames.join(", ") : "No tier"];
  if (post.publishedAt) parts.push(`emailed to ${countOf(post.emails.count, "member")}`);
  if (post.files.length > 0) parts.push(countOf(post.files.length, "file"));
  return parts.join(" · ");
}
