import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { exportSalesCsv, fileNameOf } from "./export-csv";

function deps(response: Response) {
  return {
    fetchCsv: vi.fn(async () => response),
    save: vi.fn(),
    today: () => new Date(2026, 10, 22, 9, 30),
  };
}

const csv = (headers: Record<string, string> = {}) =>
  new Response("Customer Email,Product,Amount,Date\n", { status: 200, headers });

describe("exportSalesCsv", () => {
  it("exports nothing when there are no sales, without asking the server", async () => {
    const d = deps(csv());
    await expect(exportSalesCsv(0, "Europe/Paris", d)).resolves.toBe("empty");
    expect(d.fetchCsv).not.toHaveBeenCalled();
    expect(d.save).not.toHaveBeenCalled();
  });

  it("asks for the CSV in the browser's time zone and saves it under the server's file name", async () => {
    const d = deps(csv({ "content-disposition": 'attachment; filename="customer-sales-2026-11-21.csv"' }));
    await expect(exportSalesCsv(3, "America/New_York", d)).resolves.toBe("downloaded");
    expect(d.fetchCsv).toHaveBeenCalledWith("/api/orders/export.csv?tz=America%2FNew_York");
    expect(d.save).toHaveBeenCalledWith(expect.any(Blob), "customer-sales-2026-11-21.csv");
  });

  it("names the file after today when the server does not", async () => {
    const d = deps(csv());
    await exportSalesCsv(1, "UTC", d);
    expect(d.save).toHaveBeenCalledWith(expect.any(Blob), "customer-sales-2026-11-22.csv");
  });

  it("turns a refusal into an ApiError with the server's message", async () => {
    const refusal = new Response(JSON.stringify({ code: "bad_request", message: "Unknown time zone" }), {
      status: 400,
    });
    const error = await exportSalesCsv(1, "Mars/Base", deps(refusal)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: "Unknown time zone" });
  });
});

describe("fileNameOf", () => {
  it("reads quoted and bare file names", () => {
    expect(fileNameOf('attachment; filename="a.csv"')).toBe("a.csv");
    expect(fileNameOf("attachment; filename=b.csv")).toBe("b.csv");
    expect(fileNameOf("attachment")).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
