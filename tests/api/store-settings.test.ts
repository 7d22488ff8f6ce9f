import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_SETTINGS_MESSAGES } from "../../src/contracts/store-settings";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const save = (cookie: string, body: object) =>
  t.request({ method: "PUT", url: "/api/store-settings", cookie, body });
const read = async (cookie: string) =>
  (await t.request({ method: "GET", url: "/api/store-settings", cookie })).json();

describe("saving one store text alone", () => {
  it("keeps the texts left out, and clears one sent empty or null", async () => {
    const { cookie } = await signUp(t);
    await save(cookie, {
      storeName: "Old Name",
      storeTagline: "Paint with light",
      storeDescription: "Prints",
    });

    // What the dashboard's "Name your store" sends: the name and nothing else.
    const named = await save(cookie, { storeName: "  Ada's Prints " });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({
      storeName: "Ada's Prints",
      storeTagline: "Paint with light",
      storeDescription: "Prints",
      profilePictureUrl: null,
    });

    await save(cookie, { storeTagline: "", storeDescription: null });
    expect(await read(cookie)).toEqual({
      storeName: "Ada's Prints",
      storeTagline: null,
      storeDescription: null,
      profilePictureUrl: null,
    });
  });

  it("refuses a name over 100 characters and changes nothing", async () => {
    const { cookie } = await signUp(t);
    await save(cookie, { storeName: "Kept" });
    const refused = await save(cookie, { storeName: "x".repeat(101) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(STORE_SETTINGS_MESSAGES.nameTooLong);
    expect((await read(cookie)).storeName).toBe("Kept");
  });

  it("changes only the signed-in seller's store", async () => {
    const [ada, bob] = [await signUp(t), await signUp(t)];
    await save(bob.cookie, { storeName: "Bob's" });
    await save(ada.cookie, { storeName: "Ada's" });
    expect((await read(bob.cookie)).storeName).toBe("Bob's");
    expect((await read(ada.cookie)).storeName).toBe("Ada's");
  });
});
