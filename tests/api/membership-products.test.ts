import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBERSHIP_MESSAGES } from "../../src/contracts/memberships";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const create = (body: Record<string, unknown>) =>
  t.request({ method: "POST", url: "/api/products", cookie: seller.cookie, body });
const edit = (id: string, body: Record<string, unknown>) =>
  t.request({ method: "PATCH", url: `/api/products/${id}`, cookie: seller.cookie, body });
const countOf = async (table: "products" | "membership_tiers" | "membership_tier_files") =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function twoFiles() {
  return [
    { uploadId: await upload(t, seller.cookie, "product-file", "basics.pdf", minimalPdf(301)) },
    { uploadId: await upload(t, seller.cookie, "product-file", "pro.pdf", minimalPdf(302)) },
  ];
}

describe("membership products", () => {
  it("are created with tiers choosing their files, priced from the lowest open monthly price", async () => {
    const files = await twoFiles();
    const response = await create({
      kind: "membership",
      title: "The Studio",
      description: "Monthly lessons",
      files,
      tiers: [
        {
          name: "Basic",
          description: "The basics",
          monthlyPrice: "5",
          trialDays: 7,
          files: [{ uploadId: files[0]!.uploadId }],
        },
        {
          name: "Pro",
          monthlyPrice: "12.50",
          yearlyPrice: "120",
          files: [{ uploadId: files[0]!.uploadId }, { uploadId: files[1]!.uploadId }],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const product = response.json();
    expect(product.kind).toBe("membership");
    expect(product.priceCents).toBe(500);
    expect(product.inventoryType).toBe("unlimited");
    expect(product.tiers.map((tier: { name: string }) => tier.name)).toEqual(["Basic", "Pro"]);
    expect(product.tiers[0]).toMatchObject({ monthlyPriceCents: 500, yearlyPriceCents: null, trialDays: 7 });
    expect(product.tiers[1]).toMatchObject({
      monthlyPriceCents: 1250,
      yearlyPriceCents: 12000,
      trialDays: 0,
    });
    expect(product.tiers[0].fileIds).toHaveLength(1);
    expect(product.tiers[1].fileIds).toHaveLength(2);

    const publicProduct = (
      await t.request({ method: "GET", url: `/api/public/products/${product.id}` })
    ).json();
    expect(publicProduct.tiers.map((tier: { name: string }) => tier.name)).toEqual(["Basic", "Pro"]);
  });

  it("refuse bad tiers with a clear message and create nothing", async () => {
    const before = await Promise.all([countOf("products"), countOf("membership_tiers")]);
    const files = await twoFiles();
    const cases: [Record<string, unknown>[] | undefined, string][] = [
      [undefined, MEMBERSHIP_MESSAGES.tiersMissing],
      [[], MEMBERSHIP_MESSAGES.tiersMissing],
      [
        Array.from({ length: 6 }, (_, i) => ({ name: `T${i}`, monthlyPrice: "5" })),
        MEMBERSHIP_MESSAGES.tooManyTiers,
      ],
      [[{ name: " ", monthlyPrice: "5" }], MEMBERSHIP_MESSAGES.tierNameMissing],
      [[{ name: "A", monthlyPrice: "" }], MEMBERSHIP_MESSAGES.monthlyPriceMissing],
      [[{ name: "A", monthlyPrice: "0.20" }], MEMBERSHIP_MESSAGES.priceTooLow],
      [[{ name: "A", monthlyPrice: "5", trialDays: 31 }], MEMBERSHIP_MESSAGES.trialInvalid],
      [
        [
          { name: "Same", monthlyPrice: "5" },
          { name: "same", monthlyPrice: "6" },
        ],
        MEMBERSHIP_MESSAGES.tierNameTwice,
      ],
      [[{ name: "A", monthlyPrice: "5", closed: true }], MEMBERSHIP_MESSAGES.allTiersClosed],
      [[{ name: "A", monthlyPrice: "5", files: [{ id: "pf_other" }] }], MEMBERSHIP_MESSAGES.tierFileUnknown],
    ];
    for (const [tiers, message] of cases) {
      const response = await create({ kind: "membership", title: "Bad", files, tiers });
      expect(response.statusCode, JSON.stringify(tiers)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const flexible = await create({
      kind: "membership",
      title: "Bad",
      files,
      priceMode: "flexible",
      tiers: [{ name: "A", monthlyPrice: "5" }],
    });
    expect(flexible.json().message).toBe(MEMBERSHIP_MESSAGES.noPayWhatYouWant);
    expect(await Promise.all([countOf("products"), countOf("membership_tiers")])).toEqual(before);
  });

  it("are edited as a whole tier list: kept tiers keep their id, new ones are added, left-out ones go", async () => {
    const files = await twoFiles();
    const product = (
      await create({
        kind: "membership",
        title: "Edited",
        files,
        tiers: [
          { name: "One", monthlyPrice: "5" },
          { name: "Two", monthlyPrice: "9" },
        ],
      })
    ).json();
    const [one] = product.tiers;
    const edited = await edit(product.id, {
      tiers: [
        { id: one.id, name: "One renamed", monthlyPrice: "7", closed: true },
        { name: "Three", monthlyPrice: "11", files: [{ id: product.tiers[0].fileIds[0] ?? "x" }] },
      ],
    });
    // The tier list names a file id the product has only if the tier had one: this one had none.
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(MEMBERSHIP_MESSAGES.tierFileUnknown);

    const detail = (
      await t.request({ method: "GET", url: `/api/products/${product.id}`, cookie: seller.cookie })
    ).json();
    const fileId = detail.files[1].id;
    const ok = await edit(product.id, {
      tiers: [
        { id: one.id, name: "One renamed", monthlyPrice: "7", closed: true },
        { name: "Three", monthlyPrice: "11", files: [{ id: fileId }] },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const tiers = ok.json().tiers;
    expect(tiers.map((tier: { name: string }) => tier.name)).toEqual(["One renamed", "Three"]);
    expect(tiers[0].id).toBe(one.id);
    expect(tiers[1].fileIds).toEqual([fileId]);
    // Priced from the open tiers: "One renamed" is closed to new members.
    expect(ok.json().priceCents).toBe(1100);
    const publicTiers = (await t.request({ method: "GET", url: `/api/public/products/${product.id}` })).json()
      .tiers;
    expect(publicTiers.map((tier: { name: string }) => tier.name)).toEqual(["Three"]);
  });

  it("refuse a price, stock or pay what you want, and a one-time product refuses tiers", async () => {
    const files = await twoFiles();
    const membership = (
      await create({ kind: "membership", title: "M", files, tiers: [{ name: "A", monthlyPrice: "5" }] })
    ).json();
    expect((await edit(membership.id, { price: "3" })).json().message).toBe(MEMBERSHIP_MESSAGES.kindFixed);
    expect(
      (await edit(membership.id, { inventoryType: "limited", quantityAvailable: 3 })).json().message,
    ).toBe(MEMBERSHIP_MESSAGES.kindFixed);
    const [own] = await twoFiles();
    const created = await create({ title: "Once", price: "5", inventoryType: "unlimited", files: [own] });
    expect(created.statusCode, created.body).toBe(201);
    const oneTime = created.json();
    const refused = await edit(oneTime.id, { tiers: [{ name: "A", monthlyPrice: "5" }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MEMBERSHIP_MESSAGES.notAMembership);
  });
});
