import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEuVatNumber } from "../../../contracts/tax";
import { localVatChecker, viesVatChecker } from "./vat-checker";

// VIES is on the internet, which tests cannot reach: a local server answers in its REST shape (the one
// double at the edge), and the adapter is checked against what VIES says for a known, an unknown and a
// failing number.
const NOW = new Date("2026-11-27T10:00:00Z");
let url: string;
const requests: unknown[] = [];
const server = createServer(async (request: IncomingMessage, response) => {
  let body = "";
  for await (const chunk of request) body += chunk;
  const asked = JSON.parse(body) as { countryCode: string; vatNumber: string };
  requests.push(asked);
  if (asked.vatNumber === "111111111") {
    response.writeHead(500).end();
    return;
  }
  if (asked.vatNumber === "222222222") {
    // A member state's service down: VIES answers 200 with an error code and no verdict.
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE" }] }));
    return;
  }
  const valid = asked.vatNumber === "303265045";
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      countryCode: asked.countryCode,
      vatNumber: asked.vatNumber,
      valid,
      name: valid ? "ATELIER SARL" : "---",
      requestIdentifier: valid ? "WAPIAAAAXYZ" : "",
      userError: valid ? "VALID" : "INVALID",
    }),
  );
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check-vat-number`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const vat = (text: string) => parseEuVatNumber(text)!;

describe("the VIES adapter", () => {
  it("asks VIES with the prefix and the number, and keeps its name and reference", async () => {
    const check = await viesVatChecker(url).check(vat("FR 303 265 045"), NOW);
    expect(requests.at(-1)).toEqual({ countryCode: "FR", vatNumber: "303265045" });
    expect(check).toEqual({
      status: "valid",
      service: "vies",
      checkedAt: NOW.toISOString(),
      name: "ATELIER SARL",
      reference: "WAPIAAAAXYZ",
    });
  });

  it("says invalid only when VIES says so, and unavailable when it cannot answer", async () => {
    const checker = viesVatChecker(url);
    expect((await checker.check(vat("DE999999999"), NOW)).status).toBe("invalid");
    expect((await checker.check(vat("DE111111111"), NOW)).status).toBe("unavailable");
    expect((await checker.check(vat("DE222222222"), NOW)).status).toBe("unavailable");
    expect((await viesVatChecker("http://127.0.0.1:1/nothing").check(vat("DE303265045"), NOW)).status).toBe(
      "unavailable",
    );
  });
});

describe("the local stand-in", () => {
  it("knows every well-formed number except the documented unknown (…000) and down (…999) ones", async () => {
    expect((await localVatChecker.check(vat("DE123456789"), NOW)).status).toBe("valid");
    expect((await localVatChecker.check(vat("DE123456000"), NOW)).status).toBe("invalid");
    expect((await localVatChecker.check(vat("DE123456999"), NOW)).status).toBe("unavailable");
  });
});

describe("parseEuVatNumber", () => {
  it("takes spaces, dots and dashes, Greece as EL, and refuses what is not an EU number", () => {
    expect(parseEuVatNumber("fr 40-303.265.045")).toEqual({
      prefix: "FR",
      number: "40303265045",
      country: "FR",
    });
    expect(parseEuVatNumber("EL123456789")).toMatchObject({ prefix: "EL", country: "GR" });
    expect(parseEuVatNumber("GR123456789")).toBeUndefined();
    expect(parseEuVatNumber("US123456789")).toBeUndefined();
    expect(parseEuVatNumber("DE1")).toBeUndefined();
  });
});
