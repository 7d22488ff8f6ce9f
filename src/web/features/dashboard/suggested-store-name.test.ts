import { describe, expect, it } from "vitest";
import { suggestedStoreName } from "./suggested-store-name";

const from = (name: string, email = `${name}@example.com`) => suggestedStoreName({ name, email });

describe("suggestedStoreName", () => {
  it("makes a store name from the seller's name, in words", () => {
    expect(from("ada.lovelace")).toBe("Ada Lovelace's Store");
    expect(from("grace_hopper-1906")).toBe("Grace Hopper's Store");
    expect(from("Zoë")).toBe("Zoë's Store");
  });

  it("falls back to the email, then to 'My Store'", () => {
    expect(from("", "marie.curie@example.com")).toBe("Marie Curie's Store");
    expect(from("12345")).toBe("My Store");
    expect(from("x")).toBe("My Store");
  });

  it("stays within the store name limit", () => {
    expect(from("a".repeat(200)).length).toBe(100);
  });
});
