import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MEMBERSHIP_MESSAGES } from "../../src/contracts/memberships";
import type { LibraryMembership } from "../../src/contracts/orders";
import { POST_LIMITS, POST_MESSAGES, type SellerPost } from "../../src/contracts/posts";
import { BILLING_MESSAGES } from "../../src/contracts/seller";
import { buyerLinkKey, libraryToken } from "../../src/server/features/orders/buyer-links";
import { queueNextPostBatch } from "../../src/server/features/posts/queue-post-emails";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { createProduct, readySeller, upload } from "./support/sellers";
import { APP_URL, createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

const AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // A post's emails are queued when the test runs the jobs (t.app.jobs.runDue()).
  t = await createTestApp({ listen: true, jobsInBackground: false });
  [seller, other] = [await readySeller(t), await readySeller(t)];
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

let counter = 0;
const memberEmail = (name: string) => `${name}-${Date.now()}-${++counter}@example.com`;
const post = (url: string, body: unknown, cookie = seller.cookie) =>
  t.request({ method: "POST", url, body, cookie });

interface Club {
  id: string;
  tiers: { id: string; name: string }[];
  files: { id: string; name: string }[];
}

/** A membership with tiers Fan (the first file) and Patron (both files), made as the seller's form does. */
async function club(cookie = seller.cookie, title = "The Club"): Promise<Club> {
  const uploads = [
    await upload(t, cookie, "product-file", "basics.pdf", minimalPdf(501)),
    await upload(t, cookie, "product-file", "bonus.pdf", minimalPdf(502)),
  ];
  const response = await post(
    "/api/products",
    {
      kind: "membership",
      title,
      files: uploads.map((uploadId) => ({ uploadId })),
      tiers: [
        { name: "Fan", monthlyPrice: "5", files: [{ uploadId: uploads[0] }] },
        { name: "Patron", monthlyPrice: "15", files: uploads.map((uploadId) => ({ uploadId })) },
      ],
    },
    cookie,
  );
  expect(response.statusCode, response.body).toBe(201);
  const product = response.json();
  const detail = (await t.request({ method: "GET", url: `/api/products/${product.id}`, cookie })).json();
  return {
    id: product.id,
    tiers: product.tiers,
    files: detail.files.map((file: { id: string; name: string }) => ({ id: file.id, name: file.name })),
  };
}

/** A membership as Stripe's events would have made it (status, period, access), without the round trip. */
async function member(
  product: Club,
  tier: "Fan" | "Patron",
  email: string,
  fields: Partial<{
    status: string;
    post_emails: boolean;
    current_period_end: Date;
    past_due_since: Date | null;
    access_revoked_at: Date | null;
  }> = {},
) {
  const now = t.clock.now();
  const id = `mem_${randomBytes(8).toString("hex")}`;
  const tierRow = product.tiers.find((candidate) => candidate.name === tier)!;
  await t.db
    .insertInto("memberships")
    .values({
      id,
      seller_id: seller.userId,
      product_id: product.id,
      product_title: "The Club",
      tier_id: tierRow.id,
      tier_name: tier,
      stripe_account_id: seller.account,
      stripe_subscription_id: `sub_${id}`,
      stripe_customer_id: `cus_${id}`,
      customer_email: email,
      billing_interval: "month",
      amount_cents: tier === "Fan" ? 500 : 1500,
      status: fields.status ?? "active",
      current_period_start: new Date(now.getTime() - DAY_MS),
      current_period_end: fields.current_period_end ?? new Date(now.getTime() + 29 * DAY_MS),
      past_due_since: fields.past_due_since ?? null,
      access_revoked_at: fields.access_revoked_at ?? null,
      post_emails: fields.post_emails ?? true,
      started_at: now,
      synced_at: now,
    })
    .execute();
  return id;
}

const createPost = (body: Record<string, unknown>, cookie = seller.cookie) =>
  post("/api/posts", body, cookie);
async function publish(product: Club, body: Record<string, unknown>): Promise<SellerPost> {
  const response = await createPost({ productId: product.id, tierIds: [product.tiers[0]!.id], ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const mailTo = (email: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", email).orderBy("id").execute();
const subjectsTo = async (email: string) => (await mailTo(email)).map((mail) => mail.subject);
const libraryTokenOf = (email: string) => libraryToken(buyerLinkKey(AUTH_SECRET), email, t.clock.now());
async function libraryOf(email: string, token = libraryTokenOf(email)): Promise<LibraryMembership[]> {
  const response = await t.request({ method: "GET", url: `/api/library?token=${encodeURIComponent(token)}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().memberships;
}

describe("the seller's posts", () => {
  it("creates, lists, edits and deletes posts of their own membership", async () => {
    const product = await club();
    const created = await createPost({
      productId: product.id,
      title: "  Welcome, members  ",
      body: "Hello **all**.",
      tierIds: [product.tiers[1]!.id, product.tiers[0]!.id, product.tiers[0]!.id],
      fileIds: [product.files[1]!.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = created.json() as SellerPost;
    expect(first).toMatchObject({
      productId: product.id,
      title: "Welcome, members",
      body: "Hello **all**.",
      tierIds: [product.tiers[0]!.id, product.tiers[1]!.id],
      files: [{ id: product.files[1]!.id, name: "bonus.pdf" }],
      emails: { status: "sending", count: 0 },
    });
    expect(first.publishedAt).not.toBeNull();
    t.clock.advance(1000);
    const draft = await createPost({
      productId: product.id,
      title: "Next month",
      body: "Soon.",
      tierIds: [product.tiers[0]!.id],
      publish: false,
    });
    expect(draft.json()).toMatchObject({ publishedAt: null, emails: { status: "none", count: 0 } });

    const list = await t.request({
      method: "GET",
      url: `/api/posts?productId=${product.id}`,
      cookie: seller.cookie,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().posts.map((p: SellerPost) => p.title)).toEqual(["Next month", "Welcome, members"]);

    const products = (
      await t.request({ method: "GET", url: "/api/posts/products", cookie: seller.cookie })
    ).json();
    expect(products.products.find((p: { id: string }) => p.id === product.id)).toEqual({
      id: product.id,
      title: "The Club",
      postCount: 2,
      tiers: [
        { id: product.tiers[0]!.id, name: "Fan", removed: false },
        { id: product.tiers[1]!.id, name: "Patron", removed: false },
      ],
      files: product.files,
    });

    const edited = await t.request({
      method: "PATCH",
      url: `/api/posts/${first.id}`,
      cookie: seller.cookie,
      body: { title: "Welcome!", body: "Edited.", tierIds: [product.tiers[1]!.id], fileIds: [] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      title: "Welcome!",
      body: "Edited.",
      tierIds: [product.tiers[1]!.id],
      files: [],
      publishedAt: first.publishedAt,
    });

    const deleted = await t.request({
      method: "DELETE",
      url: `/api/posts/${first.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    const again = await t.request({ method: "DELETE", url: `/api/posts/${first.id}`, cookie: seller.cookie });
    expect(again.statusCode).toBe(404);
    const after = (
      await t.request({ method: "GET", url: `/api/posts?productId=${product.id}`, cookie: seller.cookie })
    ).json();
    expect(after.posts.map((p: SellerPost) => p.id)).toEqual([draft.json().id]);
  });

  it("answers 404 for another seller's product or post, and needs a session", async () => {
    const mine = await club();
    const theirs = await club(other.cookie, "Their Club");
    const theirPost = (
      await createPost(
        { productId: theirs.id, title: "Theirs", body: "x", tierIds: [theirs.tiers[0]!.id] },
        other.cookie,
      )
    ).json() as SellerPost;

    const onTheirs = await createPost({
      productId: theirs.id,
      title: "Mine?",
      body: "x",
      tierIds: [theirs.tiers[0]!.id],
    });
    expect(onTheirs.statusCode).toBe(404);
    expect(onTheirs.json().message).toBe(POST_MESSAGES.productNotFound);
    const listTheirs = await t.request({
      method: "GET",
      url: `/api/posts?productId=${theirs.id}`,
      cookie: seller.cookie,
    });
    expect(listTheirs.statusCode).toBe(404);
    const editTheirs = await t.request({
      method: "PATCH",
      url: `/api/posts/${theirPost.id}`,
      cookie: seller.cookie,
      body: { title: "Taken", body: "x", tierIds: [mine.tiers[0]!.id] },
    });
    expect(editTheirs.statusCode).toBe(404);
    const deleteTheirs = await t.request({
      method: "DELETE",
      url: `/api/posts/${theirPost.id}`,
      cookie: seller.cookie,
    });
    expect(deleteTheirs.statusCode).toBe(404);
    const stillThere = await t.db
      .selectFrom("membership_posts")
      .select("title")
      .where("id", "=", theirPost.id)
      .executeTakeFirst();
    expect(stillThere?.title).toBe("Theirs");
    const products = (
      await t.request({ method: "GET", url: "/api/posts/products", cookie: seller.cookie })
    ).json();
    expect(products.products.map((p: { id: string }) => p.id)).not.toContain(theirs.id);

    const anonymous = await t.request({ method: "GET", url: "/api/posts/products" });
    expect(anonymous.statusCode).toBe(401);
    const anonymousCreate = await t.request({
      method: "POST",
      url: "/api/posts",
      body: { productId: mine.id, title: "x", body: "x", tierIds: [mine.tiers[0]!.id] },
    });
    expect(anonymousCreate.statusCode).toBe(401);
  });

  it("refuses a product sold once, tiers or files of another product, and says why", async () => {
    const product = await club();
    const another = await club(seller.cookie, "Another Club");
    const oneTime = await createProduct(t, seller.cookie, {}, { cover: false });

    const notMembership = await createPost({
      productId: oneTime.id,
      title: "x",
      body: "x",
      tierIds: [product.tiers[0]!.id],
    });
    expect(notMembership.statusCode).toBe(400);
    expect(notMembership.json()).toMatchObject({
      code: "not_a_membership",
      message: POST_MESSAGES.notAMembership,
    });
    const listOneTime = await t.request({
      method: "GET",
      url: `/api/posts?productId=${oneTime.id}`,
      cookie: seller.cookie,
    });
    expect(listOneTime.statusCode).toBe(400);

    const foreignTier = await createPost({
      productId: product.id,
      title: "x",
      body: "x",
      tierIds: [product.tiers[0]!.id, another.tiers[0]!.id],
    });
    expect(foreignTier.statusCode).toBe(400);
    expect(foreignTier.json()).toMatchObject({
      message: POST_MESSAGES.unknownTier,
      details: { field: "tierIds" },
    });

    const foreignFile = await createPost({
      productId: product.id,
      title: "x",
      body: "x",
      tierIds: [product.tiers[0]!.id],
      fileIds: [another.files[0]!.id],
    });
    expect(foreignFile.statusCode).toBe(400);
    expect(foreignFile.json()).toMatchObject({
      message: POST_MESSAGES.unknownFile,
      details: { field: "fileIds" },
    });

    const mine = await publish(product, { title: "Mine", body: "x" });
    const moveTiers = await t.request({
      method: "PATCH",
      url: `/api/posts/${mine.id}`,
      cookie: seller.cookie,
      body: { title: "Mine", body: "x", tierIds: [another.tiers[0]!.id] },
    });
    expect(moveTiers.statusCode).toBe(400);
    expect(moveTiers.json().message).toBe(POST_MESSAGES.unknownTier);

    const count = await t.db
      .selectFrom("membership_posts")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("seller_id", "=", seller.userId)
      .where("title", "=", "x")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("keeps to the limits, with the contract's messages", async () => {
    const product = await club();
    const base = { productId: product.id, title: "Title", body: "Body", tierIds: [product.tiers[0]!.id] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: "t".repeat(POST_LIMITS.titleMax + 1) }, POST_MESSAGES.titleTooLong],
      [{ title: "   " }, POST_MESSAGES.titleMissing],
      [{ body: "b".repeat(POST_LIMITS.bodyMax + 1) }, POST_MESSAGES.bodyTooLong],
      [{ body: " \n " }, POST_MESSAGES.bodyMissing],
      [{ tierIds: [] }, POST_MESSAGES.tiersMissing],
      [{ fileIds: Array.from({ length: 11 }, (_, i) => `file_${i}`) }, POST_MESSAGES.tooManyFiles],
    ];
    for (const [change, message] of cases) {
      const response = await createPost({ ...base, ...change });
      expect(response.statusCode, message).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const longest = await createPost({
      ...base,
      title: "t".repeat(POST_LIMITS.titleMax),
      body: "b".repeat(POST_LIMITS.bodyMax),
    });
    expect(longest.statusCode, longest.body).toBe(201);
  });

  it("needs the plan to write to members (403), not to delete", async () => {
    const unpaid = await signUp(t);
    const refused = await post(
      "/api/posts",
      { productId: "prod_x", title: "Hi", body: "x", tierIds: ["tier_x"] },
      unpaid.cookie,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: "subscription_required",
      message: BILLING_MESSAGES.subscriptionRequired,
    });

    // A seller whose plan ended long ago, with a membership and a post from before.
    const lapsed = await readySeller(t);
    const product = await club(lapsed.cookie, "Lapsed Club");
    const before = (
      await createPost(
        { productId: product.id, title: "Before", body: "x", tierIds: [product.tiers[0]!.id] },
        lapsed.cookie,
      )
    ).json() as SellerPost;
    await t.db
      .updateTable("subscriptions")
      .set({ status: "canceled", canceled_at: new Date(t.clock.now().getTime() - 90 * DAY_MS) })
      .where("user_id", "=", lapsed.userId)
      .execute();
    const create = await createPost(
      { productId: product.id, title: "After", body: "x", tierIds: [product.tiers[0]!.id] },
      lapsed.cookie,
    );
    expect(create.statusCode).toBe(403);
    const edit = await t.request({
      method: "PATCH",
      url: `/api/posts/${before.id}`,
      cookie: lapsed.cookie,
      body: { title: "Edited", body: "x", tierIds: [product.tiers[0]!.id], publish: true },
    });
    expect(edit.statusCode).toBe(403);
    const remove = await t.request({
      method: "DELETE",
      url: `/api/posts/${before.id}`,
      cookie: lapsed.cookie,
    });
    expect(remove.statusCode).toBe(204);
  });
});

describe("a post's emails", () => {
  it("go once to each member with access of the post's tiers who wants them, and to no one else", async () => {
    const product = await club();
    const otherClub = await club(seller.cookie, "Other Club");
    const now = t.clock.now();
    const fan = memberEmail("fan");
    const patron = memberEmail("patron");
    const twice = memberEmail("twice");
    const pastDueInGrace = memberEmail("grace");
    const optedOut = memberEmail("optout");
    const unsubscribed = memberEmail("unsub");
    const ended = memberEmail("ended");
    const lapsed = memberEmail("lapsed");
    const revoked = memberEmail("revoked");
    const pastDueLong = memberEmail("pastdue");
    const otherProduct = memberEmail("otherproduct");
    await member(product, "Fan", fan);
    await member(product, "Patron", patron);
    // One person, two memberships (an ended one and a new one, the address typed differently): one email.
    await member(product, "Fan", twice, { status: "canceled" });
    await member(product, "Fan", twice.toUpperCase());
    await member(product, "Fan", pastDueInGrace, {
      status: "past_due",
      past_due_since: new Date(now.getTime() - DAY_MS),
    });
    await member(product, "Fan", optedOut, { post_emails: false });
    await member(product, "Fan", unsubscribed);
    await t.db
      .insertInto("email_unsubscribes")
      .values({ seller_id: seller.userId, email: unsubscribed })
      .execute();
    await member(product, "Fan", ended, { status: "canceled" });
    // Paid through a period that ended (and its grace days) without a renewal.
    await member(product, "Fan", lapsed, { current_period_end: new Date(now.getTime() - 4 * DAY_MS) });
    await member(product, "Fan", revoked, { access_revoked_at: now });
    await member(product, "Fan", pastDueLong, {
      status: "past_due",
      past_due_since: new Date(now.getTime() - 4 * DAY_MS),
    });
    await member(otherClub, "Fan", otherProduct);

    const published = await publish(product, {
      title: "April <notes>",
      body: "Hello <script>alert(1)</script> **members**: [notes](javascript:alert(1)) and [site](https://example.com).",
      tierIds: [product.tiers[0]!.id, product.tiers[1]!.id],
      fileIds: [product.files[1]!.id],
    });
    await t.app.jobs.runDue();

    const reached = (
      await t.db
        .selectFrom("outbox_emails")
        .select("to_address")
        .where("subject", "=", "The Club: April <notes>")
        .execute()
    ).map((row) => row.to_address);
    expect(reached.sort()).toEqual([fan, patron, twice, pastDueInGrace].sort());
    const stored = await t.db
      .selectFrom("membership_posts")
      .select(["emails_status", "emails_count"])
      .where("id", "=", published.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ emails_status: "sent", emails_count: 4 });

    const [email] = await mailTo(fan);
    expect(email!.headers).toMatchObject({
      "List-Unsubscribe": expect.stringMatching(/^<http:\/\/localhost:3000\/unsubscribe\/[\w.-]+>$/),
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(email!.html).not.toContain("<script>");
    expect(email!.html).toContain("Hello &lt;script&gt;alert(1)&lt;/script&gt; <strong>members</strong>");
    expect(email!.html).not.toMatch(/href="javascript/i);
    expect(email!.html).toContain('<a href="https://example.com/" rel="noopener nofollow" target="_blank"');
    expect(email!.html).toContain("April &lt;notes&gt;");
    expect(email!.text).toContain("1 file attached: bonus.pdf");
    expect(email!.text).toMatch(/Open in your library: http:\/\/localhost:3000\/library\?token=\S+/);

    // The one-click unsubscribe in that email stops the next post's email.
    const unsubscribeUrl = /<http:\/\/localhost:3000(\/unsubscribe\/[\w.-]+)>/.exec(
      String((email!.headers as Record<string, string>)["List-Unsubscribe"]),
    )![1]!;
    const oneClick = await t.app.server.inject({
      method: "POST",
      url: unsubscribeUrl,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    await publish(product, { title: "May", body: "Again." });
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual(["The Club: April <notes>"]);
    expect(await subjectsTo(twice)).toEqual(["The Club: April <notes>", "The Club: May"]);
    for (const left of [optedOut, unsubscribed, ended, lapsed, revoked, pastDueLong, otherProduct]) {
      expect(await subjectsTo(left), left).toEqual([]);
    }
  });

  it("is never sent again by an edit; a draft is emailed when published, once", async () => {
    const product = await club();
    const fan = memberEmail("fan");
    await member(product, "Fan", fan);
    const published = await publish(product, { title: "One", body: "x" });
    await t.app.jobs.runDue();
    const edit = (body: Record<string, unknown>, id = published.id) =>
      t.request({
        method: "PATCH",
        url: `/api/posts/${id}`,
        cookie: seller.cookie,
        body: { title: "One, edited", body: "y", tierIds: [product.tiers[0]!.id], ...body },
      });
    expect((await edit({})).statusCode).toBe(200);
    expect((await edit({ publish: true })).statusCode).toBe(200);
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual(["The Club: One"]);

    const draft = await publish(product, { title: "Draft", body: "x", publish: false });
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual(["The Club: One"]);
    const edited = await edit({ title: "Draft, done", publish: false }, draft.id);
    expect(edited.json().publishedAt).toBeNull();
    const live = await edit({ title: "Draft, done", publish: true }, draft.id);
    expect(live.json().publishedAt).not.toBeNull();
    await edit({ title: "Draft, done", publish: true }, draft.id);
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual(["The Club: One", "The Club: Draft, done"]);
  });

  it("are queued in bounded batches that resume where they stopped, and stop when the post is deleted", async () => {
    const product = await club();
    const members = [1, 2, 3, 4, 5].map((n) => memberEmail(`batch${n}`)).sort();
    for (const email of members) await member(product, "Fan", email);
    const published = await publish(product, { title: "Batched", body: "x" });
    const deps = {
      db: t.db,
      outbox: t.outbox,
      appUrl: APP_URL,
      unsubscribeKey: "k",
      linkKey: buyerLinkKey(AUTH_SECRET),
      now: t.clock.now,
    };
    const queued = async () =>
      (
        await t.db
          .selectFrom("outbox_emails")
          .select("to_address")
          .where("subject", "=", "The Club: Batched")
          .orderBy("id")
          .execute()
      ).map((row) => row.to_address);
    expect(await queueNextPostBatch(deps, published.id, 2)).toBe(true);
    expect(await queued()).toEqual(members.slice(0, 2));
    expect(await queueNextPostBatch(deps, published.id, 2)).toBe(true);
    expect(await queued()).toEqual(members.slice(0, 4));
    // Deleted before its last batch: nothing more goes.
    await t.request({ method: "DELETE", url: `/api/posts/${published.id}`, cookie: seller.cookie });
    expect(await queueNextPostBatch(deps, published.id, 2)).toBe(false);
    await t.app.jobs.runDue();
    expect(await queued()).toEqual(members.slice(0, 4));

    const whole = await publish(product, { title: "Whole", body: "x" });
    expect(await queueNextPostBatch(deps, whole.id, 5)).toBe(true);
    expect(await queueNextPostBatch(deps, whole.id, 5)).toBe(false);
    const row = await t.db
      .selectFrom("membership_posts")
      .select(["emails_status", "emails_count"])
      .where("id", "=", whole.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ emails_status: "sent", emails_count: 5 });
  });
});

describe("posts in a member's library", () => {
  it("shows the posts of the member's tier while it gives access, newest first, rendered and escaped", async () => {
    const product = await club();
    const fan = memberEmail("fan");
    const membershipId = await member(product, "Fan", fan);
    const first = await publish(product, { title: "First", body: "Hi <img src=x onerror=alert(1)> *there*" });
    t.clock.advance(1000);
    const second = await publish(product, {
      title: "Second",
      body: "## Plan\n- one\n- [two](https://example.com/two)",
      tierIds: [product.tiers[0]!.id, product.tiers[1]!.id],
    });
    await publish(product, { title: "Patrons only", body: "x", tierIds: [product.tiers[1]!.id] });
    await publish(product, { title: "A draft", body: "x", publish: false });

    const [membership] = await libraryOf(fan);
    expect(membership).toMatchObject({ id: membershipId, postEmails: true, hasAccess: true });
    expect(membership!.posts.map((p) => p.title)).toEqual(["Second", "First"]);
    expect(membership!.posts[1]).toEqual({
      id: first.id,
      title: "First",
      html: "<p>Hi &lt;img src=x onerror=alert(1)&gt; <em>there</em></p>",
      publishedAt: first.publishedAt,
      attachments: [],
    });
    expect(membership!.posts[0]!.html).toBe(
      '<h3>Plan</h3>\n<ul><li>one</li><li><a href="https://example.com/two" rel="noopener nofollow" target="_blank">two</a></li></ul>',
    );

    // An edit shows at once; a deleted post leaves the library.
    await t.request({
      method: "PATCH",
      url: `/api/posts/${first.id}`,
      cookie: seller.cookie,
      body: { title: "First, edited", body: "New words", tierIds: [product.tiers[0]!.id] },
    });
    await t.request({ method: "DELETE", url: `/api/posts/${second.id}`, cookie: seller.cookie });
    const [after] = await libraryOf(fan);
    expect(after!.posts.map((p) => [p.title, p.html])).toEqual([["First, edited", "<p>New words</p>"]]);

    // Without access (ended), no posts.
    await t.db
      .updateTable("memberships")
      .set({ status: "canceled" })
      .where("id", "=", membershipId)
      .execute();
    const [ended] = await libraryOf(fan);
    expect(ended).toMatchObject({ hasAccess: false, posts: [] });
  });

  it("shows at most the newest 50 posts of a tier", async () => {
    const product = await club();
    const fan = memberEmail("fan");
    await member(product, "Fan", fan);
    const postId = (n: number) => `post_many_${String(n).padStart(2, "0")}_${product.id}`;
    const now = t.clock.now().getTime();
    for (let n = 0; n < POST_LIMITS.libraryPosts + 5; n++) {
      await t.db
        .insertInto("membership_posts")
        .values({
          id: postId(n),
          seller_id: seller.userId,
          product_id: product.id,
          title: `Post ${n}`,
          body: "x",
          published_at: new Date(now - (100 - n) * 60_000),
          emails_status: "sent",
          emails_last_email: null,
        })
        .execute();
      await t.db
        .insertInto("membership_post_tiers")
        .values({ post_id: postId(n), tier_id: product.tiers[0]!.id })
        .execute();
    }
    const [membership] = await libraryOf(fan);
    expect(membership!.posts).toHaveLength(POST_LIMITS.libraryPosts);
    expect(membership!.posts[0]!.title).toBe(`Post ${POST_LIMITS.libraryPosts + 4}`);
    expect(membership!.posts.at(-1)!.title).toBe("Post 5");
  });

  it("lets a member download a post's files through their period, only while the post is there", async () => {
    const product = await club();
    // A real member: Stripe Checkout, the first invoice paid, its period an order.
    const email = memberEmail("downloader");
    const subscribe = await t.request({
      method: "POST",
      url: "/api/checkout/subscribe",
      body: { productId: product.id, tierId: product.tiers[0]!.id, interval: "month" },
    });
    expect(subscribe.statusCode, subscribe.body).toBe(200);
    await control(t.emulator).payCheckout(
      new URL(subscribe.json().url).pathname.split("/").pop()!,
      "4242424242424242",
      email,
    );
    await eventually(async () => expect((await libraryOf(email))[0]?.period).toBeTruthy());

    // The Patron-only file, attached to a post for Fans.
    const bonus = product.files[1]!;
    const withFile = await publish(product, { title: "Bonus for fans", body: "Enjoy.", fileIds: [bonus.id] });
    const [membership] = await libraryOf(email);
    // The period lists the tier's files only; the post carries its attachment.
    expect(membership!.period!.files.map((file) => file.name)).toEqual(["basics.pdf"]);
    expect(membership!.posts[0]!.attachments).toEqual([
      { id: bonus.id, name: "bonus.pdf", sizeBytes: expect.any(Number), downloadsRemaining: 3 },
    ]);
    const token = membership!.period!.downloadPath!.split("/").pop()!;
    const download = () =>
      t.request({ method: "POST", url: `/api/downloads/${token}`, body: { fileId: bonus.id } });
    const started = await download();
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().downloadsRemaining).toBe(2);
    expect((await libraryOf(email))[0]!.posts[0]!.attachments[0]!.downloadsRemaining).toBe(2);
    // The download page still lists the tier's files only.
    const page = await t.request({ method: "GET", url: `/api/downloads/${token}` });
    expect(page.json().purchase.files.map((file: { name: string }) => file.name)).toEqual(["basics.pdf"]);

    // Deleted, the post takes its attachment with it.
    await t.request({ method: "DELETE", url: `/api/posts/${withFile.id}`, cookie: seller.cookie });
    const refused = await download();
    expect(refused.statusCode).toBe(403);
  });

  it("lets the library link's holder turn post emails off and on, for their own membership only", async () => {
    const product = await club();
    const fan = memberEmail("fan");
    const stranger = memberEmail("stranger");
    const membershipId = await member(product, "Fan", fan);
    await member(product, "Fan", stranger);
    const toggle = (enabled: boolean, token = libraryTokenOf(fan)) =>
      post(`/api/library/memberships/${membershipId}/post-emails`, { token, enabled }, "");

    const off = await toggle(false);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ postEmails: false });
    expect((await libraryOf(fan))[0]!.postEmails).toBe(false);
    await publish(product, { title: "Quiet", body: "x" });
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual([]);
    expect(await subjectsTo(stranger)).toEqual(["The Club: Quiet"]);
    // Still in the library.
    expect((await libraryOf(fan))[0]!.posts.map((p) => p.title)).toEqual(["Quiet"]);

    expect((await toggle(true)).json()).toEqual({ postEmails: true });
    await publish(product, { title: "Loud", body: "x" });
    await t.app.jobs.runDue();
    expect(await subjectsTo(fan)).toEqual(["The Club: Loud"]);

    const foreign = await toggle(false, libraryTokenOf(stranger));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(MEMBERSHIP_MESSAGES.membershipNotFound);
    const forged = await toggle(false, `${libraryTokenOf(fan)}x`);
    expect(forged.statusCode).toBe(400);
    const expired = await toggle(false, libraryToken(buyerLinkKey(AUTH_SECRET), fan, new Date(0)));
    expect(expired.statusCode).toBe(410);
    expect((await libraryOf(fan))[0]!.postEmails).toBe(true);
  });
});
