import { describe, expect, it } from "vitest";
import { POST_LIMITS, POST_MESSAGES, type PostProduct, type SellerPost } from "../../../contracts/posts";
import {
  checkComposer,
  composerActions,
  fieldOfRefusal,
  initialComposerValues,
  postStateLabel,
  postSummary,
  toggleId,
} from "./composer-logic";

const product: PostProduct = {
  id: "prod_1",
  title: "The Club",
  tiers: [
    { id: "tier_fan", name: "Fan", removed: false },
    { id: "tier_old", name: "Founder", removed: true },
    { id: "tier_patron", name: "Patron", removed: false },
  ],
  files: [
    { id: "file_a", name: "a.pdf" },
    { id: "file_b", name: "b.pdf" },
  ],
  postCount: 1,
};

const published: SellerPost = {
  id: "post_1",
  productId: "prod_1",
  title: "Hello",
  body: "Hi **all**",
  tierIds: ["tier_patron"],
  files: [{ id: "file_b", name: "b.pdf" }],
  createdAt: "2026-03-01T00:00:00Z",
  updatedAt: "2026-03-01T00:00:00Z",
  publishedAt: "2026-03-01T00:00:00Z",
  emails: { status: "sent", count: 12 },
};

describe("the post composer's logic", () => {
  it("starts a new post for every tier still offered, an edit from the post", () => {
    expect(initialComposerValues(product, null)).toEqual({
      title: "",
      body: "",
      tierIds: ["tier_fan", "tier_patron"],
      fileIds: [],
    });
    expect(initialComposerValues(product, published)).toEqual({
      title: "Hello",
      body: "Hi **all**",
      tierIds: ["tier_patron"],
      fileIds: ["file_b"],
    });
  });

  it("checks and unchecks ids in the product's order", () => {
    expect(toggleId(product.tiers, ["tier_patron"], "tier_fan", true)).toEqual(["tier_fan", "tier_patron"]);
    expect(toggleId(product.tiers, ["tier_fan", "tier_patron"], "tier_fan", false)).toEqual(["tier_patron"]);
    expect(toggleId(product.files, [], "file_b", true)).toEqual(["file_b"]);
  });

  it("checks the fields with the server's schema and says what is wrong with each", () => {
    const good = checkComposer(
      "prod_1",
      { title: " Hi ", body: "Text", tierIds: ["tier_fan"], fileIds: [] },
      true,
    );
    expect(good).toEqual({
      input: {
        productId: "prod_1",
        title: "Hi",
        body: "Text",
        tierIds: ["tier_fan"],
        fileIds: [],
        publish: true,
      },
    });
    const bad = checkComposer(
      "prod_1",
      {
        title: "t".repeat(POST_LIMITS.titleMax + 1),
        body: "   ",
        tierIds: [],
        fileIds: Array.from({ length: POST_LIMITS.attachmentsMax + 1 }, (_, i) => `f${i}`),
      },
      false,
    );
    expect(bad).toEqual({
      errors: {
        title: POST_MESSAGES.titleTooLong,
        body: POST_MESSAGES.bodyMissing,
        tierIds: POST_MESSAGES.tiersMissing,
        fileIds: POST_MESSAGES.tooManyFiles,
      },
    });
    expect(
      checkComposer(
        "prod_1",
        { title: "x", body: "b".repeat(POST_LIMITS.bodyMax + 1), tierIds: ["t"], fileIds: [] },
        true,
      ),
    ).toEqual({ errors: { body: POST_MESSAGES.bodyTooLong } });
  });

  it("offers Publish and Save draft for a new post or a draft, Save changes once published", () => {
    expect(composerActions(null)).toEqual([
      { publish: true, label: "Publish" },
      { publish: false, label: "Save draft" },
    ]);
    expect(composerActions({ ...published, publishedAt: null })).toHaveLength(2);
    expect(composerActions(published)).toEqual([{ publish: false, label: "Save changes" }]);
  });

  it("puts a server's refusal on its field", () => {
    expect(fieldOfRefusal({ field: "tierIds" })).toBe("tierIds");
    expect(fieldOfRefusal({ field: "fileIds" })).toBe("fileIds");
    expect(fieldOfRefusal({})).toBeNull();
  });

  it("describes a post in the list: its state, tiers, emails and files", () => {
    expect(postStateLabel(published)).toEqual({ label: "Published", tone: "success" });
    expect(postStateLabel({ ...published, publishedAt: null, emails: { status: "none", count: 0 } })).toEqual(
      {
        label: "Draft",
        tone: "neutral",
      },
    );
    expect(postStateLabel({ ...published, emails: { status: "sending", count: 3 } }).label).toBe(
      "Sending emails",
    );
    expect(postSummary(published, product)).toBe("Patron · emailed to 12 members · 1 file");
    expect(postSummary({ ...published, publishedAt: null, files: [], tierIds: [] }, product)).toBe("No tier");
  });
});
