import { type BroadcastDraft, broadcastDraftSchema } from "../../../contracts/audience";

export type DraftField = "subject" | "message" | "productId";
export type DraftErrors = Partial<Record<DraftField, string>>;

/** The draft checked with the server's own schema: the draft, or a message per wrong field. */
export function checkDraft(draft: unknown): { draft: BroadcastDraft } | { errors: DraftErrors } {
  const parsed = broadcastDraftSchema.safeParse(draft);
  if (parsed.success) return { draft: parsed.data };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === "subject" || field === "message" || field === "productId") && !errors[field]) {
      errors[field] = issue.message;
    }
  }
  return { errors };
}
