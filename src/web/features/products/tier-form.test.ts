import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../../contracts/currencies";
import { MEMBERSHIP_MESSAGES, type Tier } from "../../../contracts/memberships";
import type { FileItem } from "./product-file-list";
import {
  canAddTier,
  moveTier,
  newTier,
  pendingTierInputs,
  type TierFormValues,
  tierFormValues,
  tierInputs,
  tierProblem,
  yearlySavingLabel,
} from "./tier-form";

const saved: FileItem = {
  key: "row-1",
  kind: "existing",
  id: "pf_saved",
  name: "Basics.pdf",
  originalName: "basics.pdf",
  sizeBytes: 1000,
};
const added: FileItem = {
  key: "row-2",
  kind: "new",
  file: new File(["%PDF-"], "pro.pdf", { type: "application/pdf" }),
  name: "pro.pdf",
};
const files = [saved, added];

const tier = (values: Partial<TierFormValues>): TierFormValues => ({
  ...newTier(),
  name: "Basic",
  monthlyPrice: "5",
  ...values,
});

describe("tierInputs", () => {
  it("sends each tier with its files: a saved file by id, a file uploaded with this save by its uploadId", () => {
    const tiers = [
      tier({ description: "The basics", trialDays: "7", fileKeys: ["row-1"] }),
      tier({ name: "Pro", monthlyPrice: "12.50", yearlyPrice: "120", fileKeys: ["row-2", "row-1"] }),
    ];
    expect(tierInputs(tiers, files, ["upl_pro"])).toEqual([
      {
        name: "Basic",
        description: "The basics",
        monthlyPrice: "5",
        yearlyPrice: null,
        trialDays: 7,
        closed: false,
        files: [{ id: "pf_saved" }],
        prices: [],
      },
      {
        name: "Pro",
        description: "",
        monthlyPrice: "12.50",
        yearlyPrice: "120",
        trialDays: 0,
        closed: false,
        // In the product's file order, whatever order they were ticked in.
        files: [{ id: "pf_saved" }, { uploadId: "upl_pro" }],
        prices: [],
      },
    ]);
  });

  it("sends a tier's other prices, with their yearly amounts only while the tier has a yearly price", () => {
    const prices = [{ key: "p1", currency: "eur", price: " 4.50 ", yearly: "45" }];
    const [yearly] = tierInputs([tier({ yearlyPrice: "50", prices })], [], []);
    expect(yearly?.prices).toEqual([{ currency: "eur", monthly: "4.50", yearly: "45" }]);
    const [monthly] = tierInputs([tier({ yearlyPrice: "", prices })], [], []);
    expect(monthly?.prices).toEqual([{ currency: "eur", monthly: "4.50", yearly: null }]);
  });

  it("keeps a saved tier's id, leaves out files no longer in the list, and passes a bad trial on to be refused", () => {
    const [input] = tierInputs(
      [tier({ id: "tier_1", closed: true, trialDays: "3.5", fileKeys: ["row-gone", "row-1"] })],
      [saved],
      [],
    );
    expect(input).toMatchObject({
      id: "tier_1",
      closed: true,
      trialDays: "3.5",
      files: [{ id: "pf_saved" }],
    });
    expect(tierInputs([tier({ trialDays: " " })], [], [])[0]?.trialDays).toBe(0);
  });

  it("checks files not uploaded yet by placeholder uploads", () => {
    expect(pendingTierInputs([tier({ fileKeys: ["row-2"] })], files)[0]?.files).toEqual([
      { uploadId: "pending-0" },
    ]);
  });
});

describe("tierFormValues", () => {
  it("shows a saved tier's prices in dollars and its files by the rows of the form's list", () => {
    const tiers: Tier[] = [
      {
        id: "tier_1",
        name: "Pro",
        description: "All of it",
        monthlyPriceCents: 1250,
        yearlyPriceCents: 12000,
        trialDays: 7,
        closed: true,
        fileIds: ["pf_saved", "pf_removed_meanwhile"],
        currency: "usd",
        prices: [],
      },
      {
        id: "tier_2",
        name: "Basic",
        description: "",
        monthlyPriceCents: 500,
        yearlyPriceCents: null,
        trialDays: 0,
        closed: false,
        fileIds: [],
        currency: "usd",
        prices: [],
      },
    ];
    const [pro, basic] = tierFormValues(tiers, [saved], "usd");
    expect(pro).toMatchObject({
      id: "tier_1",
      name: "Pro",
      monthlyPrice: "12.50",
      yearlyPrice: "120.00",
      trialDays: "7",
      closed: true,
      fileKeys: ["row-1"],
    });
    expect(basic).toMatchObject({ id: "tier_2", yearlyPrice: "", trialDays: "0", fileKeys: [] });
    // A yen store's prices are whole yen: 1250 is ¥1,250, shown as "1250".
    expect(tierFormValues(tiers, [saved], "jpy")[0]).toMatchObject({
      monthlyPrice: "1250",
      yearlyPrice: "12000",
    });
    // Sent back unchanged, the saved tier is the same tier.
    expect(tierInputs([pro!], [saved], [])[0]).toMatchObject({
      id: "tier_1",
      monthlyPrice: "12.50",
      yearlyPrice: "120.00",
      files: [{ id: "pf_saved" }],
    });
  });
});

describe("tierProblem", () => {
  it("points at the tier's other price a refusal is about", () => {
    const prices = [
      { key: "p1", currency: "eur", price: "4.50", yearly: "" },
      { key: "p2", currency: "gbp", price: "0.10", yearly: "" },
    ];
    const tiers = [tier({ name: "Basic" }), tier({ name: "Fan", prices })];
    expect(tierProblem(tiers, [], "usd")).toEqual({
      message: CURRENCY_MESSAGES.priceTooLow("gbp"),
      index: 1,
      field: "prices",
      row: 1,
    });
    const twice = [tier({ prices: [prices[0]!, { ...prices[0]!, key: "p3" }] })];
    expect(tierProblem(twice, [], "usd")).toMatchObject({ field: "prices", row: 1 });
  });

  it("accepts good tiers", () => {
    expect(tierProblem([tier({}), tier({ name: "Pro", yearlyPrice: "50" })], files, "usd")).toBeUndefined();
  });

  it("says what the server would, at the tier and field it is about", () => {
    const cases: [TierFormValues[], ReturnType<typeof tierProblem>][] = [
      [[], { message: MEMBERSHIP_MESSAGES.tiersMissing }],
      [
        Array.from({ length: 6 }, (_, i) => tier({ name: `T${i}` })),
        { message: MEMBERSHIP_MESSAGES.tooManyTiers },
      ],
      [
        [tier({}), tier({ name: " " })],
        { message: MEMBERSHIP_MESSAGES.tierNameMissing, index: 1, field: "name" },
      ],
      [
        [tier({ name: "x".repeat(81) })],
        { message: MEMBERSHIP_MESSAGES.tierNameTooLong, index: 0, field: "name" },
      ],
      [
        [tier({ description: "x".repeat(2001) })],
        { message: MEMBERSHIP_MESSAGES.tierDescriptionTooLong, index: 0, field: "description" },
      ],
      [
        [tier({ monthlyPrice: "" })],
        { message: MEMBERSHIP_MESSAGES.monthlyPriceMissing, index: 0, field: "monthlyPrice" },
      ],
      [
        [tier({ monthlyPrice: "0.20" })],
        { message: MEMBERSHIP_MESSAGES.priceTooLow, index: 0, field: "monthlyPrice" },
      ],
      [
        [tier({}), tier({ name: "Pro", yearlyPrice: "4.999" })],
        { message: MEMBERSHIP_MESSAGES.priceInvalid, index: 1, field: "yearlyPrice" },
      ],
      [
        [tier({ yearlyPrice: "20000" })],
        { message: MEMBERSHIP_MESSAGES.priceTooHigh, index: 0, field: "yearlyPrice" },
      ],
      [
        [tier({ trialDays: "31" })],
        { message: MEMBERSHIP_MESSAGES.trialInvalid, index: 0, field: "trialDays" },
      ],
      [
        [tier({}), tier({ name: "Pro" }), tier({ name: " pro " })],
        { message: MEMBERSHIP_MESSAGES.tierNameTwice, index: 2, field: "name" },
      ],
      [
        [tier({ closed: true }), tier({ name: "Pro", closed: true })],
        { message: MEMBERSHIP_MESSAGES.allTiersClosed },
      ],
    ];
    for (const [tiers, problem] of cases) expect(tierProblem(tiers, files, "usd")).toEqual(problem);
  });

  it("reads the prices in the store currency: whole yen in a yen store", () => {
    expect(tierProblem([tier({ monthlyPrice: "500", yearlyPrice: "5000" })], files, "jpy")).toBeUndefined();
    expect(tierProblem([tier({ monthlyPrice: "500", yearlyPrice: "49.50" })], files, "jpy")).toEqual({
      message: "Enter a whole amount in JPY, like 1500",
      index: 0,
      field: "yearlyPrice",
    });
  });
});

describe("the tier list's helpers", () => {
  it("shows the yearly saving only when the year saves something", () => {
    expect(yearlySavingLabel("5", "50", "usd")).toBe("Save 16%");
    expect(yearlySavingLabel("12.50", "120", "usd")).toBe("Save 20%");
    expect(yearlySavingLabel("5", "60", "usd")).toBeUndefined();
    expect(yearlySavingLabel("5", "", "usd")).toBeUndefined();
    expect(yearlySavingLabel("", "50", "usd")).toBeUndefined();
    expect(yearlySavingLabel("5", "abc", "usd")).toBeUndefined();
    expect(yearlySavingLabel("500", "5000", "jpy")).toBe("Save 16%");
    // Yen has no decimals: "12.50" is not an amount of it.
    expect(yearlySavingLabel("12.50", "120", "jpy")).toBeUndefined();
  });

  it("moves tiers within the list and stops at five", () => {
    const [a, b, c] = [tier({ name: "A" }), tier({ name: "B" }), tier({ name: "C" })];
    expect(moveTier([a!, b!, c!], c!.key, -1).map((t) => t.name)).toEqual(["A", "C", "B"]);
    expect(moveTier([a!, b!, c!], a!.key, -1).map((t) => t.name)).toEqual(["A", "B", "C"]);
    expect(moveTier([a!, b!, c!], a!.key, 1).map((t) => t.name)).toEqual(["B", "A", "C"]);
    expect(canAddTier([a!, b!, c!])).toBe(true);
    expect(canAddTier(Array.from({ length: 5 }, () => tier({})))).toBe(false);
  });
});
