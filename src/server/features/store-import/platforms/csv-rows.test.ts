import { describe, expect, it } from "vitest";
import type { ImportItem } from "../import-records";
import {
  amount,
  looksLikeFormula,
  RowRejected,
  requiredEmail,
  stripFormulaGuard,
  timestamp,
  unixSeconds,
} from "./cells";
import { type CsvFormat, MAX_CELL_CHARS, openCsv } from "./csv-rows";
import { bodyOf, countStreamed, generatedCsv, importError, readAll } from "./reader-testing";
import { readJsonDocument } from "./text-input";

const FORMAT: CsvFormat = { label: "test CSV", known: ["Name", "Amount"], required: ["Name"] };

async function rowsOf(content: string | Uint8Array, format = FORMAT) {
  const table = await openCsv("test.csv", bodyOf(content), format);
  const rows = [];
  for await (const row of table.rows) rows.push(row);
  return { table, rows };
}

function reason(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof RowRejected) return error.message;
    throw error;
  }
  throw new Error("expected a RowRejected");
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

describe("openCsv", () => {
  it("reads rows by header name, with a BOM, CRLF, quoted commas, doubled quotes and line breaks", async () => {
    const csv =
      '\uFEFFName,Amount,Extra\r\n"O\'Neil, ""Bobby"" Jr.",25.0,x\r\n\r\n"two\r\nlines",1,y\r\nZoë,2,z\r\n';
    const { table, rows } = await rowsOf(csv);
    expect(table.header).toEqual(["Name", "Amount", "Extra"]);
    expect(table.unknownColumns).toEqual(["Extra"]);
    expect(rows).toEqual([
      { line: 2, cells: { Name: 'O\'Neil, "Bobby" Jr.', Amount: "25.0" } },
      { line: 4, cells: { Name: "two\r\nlines", Amount: "1" } },
      { line: 6, cells: { Name: "Zoë", Amount: "2" } },
    ]);
  });

  it("reads the first of repeated columns and says which repeat", async () => {
    const { table, rows } = await rowsOf("Name,Amount,Name\nfirst,1,second\n");
    expect(table.repeatedColumns).toEqual(["Name"]);
    expect(rows).toEqual([{ line: 2, cells: { Name: "first", Amount: "1" } }]);
  });

  it("reports a row with too few or too many cells, and goes on", async () => {
    const { rows } = await rowsOf("Name,Amount\nshort\nA,1\nB,2,3\n");
    expect(rows).toEqual([
      {
        kind: "problem",
        origin: { file: "test.csv", line: 2 },
        reason:
          "This row has 1 cells but the header has 2 columns: it may be cut short or have a stray comma, so it is not read.",
      },
      { line: 3, cells: { Name: "A", Amount: "1" } },
      expect.objectContaining({ kind: "problem", origin: { file: "test.csv", line: 4 } }),
    ]);
  });

  it("caps a known cell at 10,000 characters (a row problem), not the cells of unknown columns", async () => {
    const long = "x".repeat(MAX_CELL_CHARS + 1);
    const { rows } = await rowsOf(`Name,Amount,Review\n${long},1,ok\nAna,2,${long}\n`);
    expect(rows).toEqual([
      {
        kind: "problem",
        origin: { file: "test.csv", line: 2 },
        reason: "Name is longer than 10,000 characters, so the row is not read.",
      },
      { line: 3, cells: { Name: "Ana", Amount: "2" } },
    ]);
  });

  it("keeps a stray quote inside an unquoted cell as text", async () => {
    const { rows } = await rowsOf('Name,Amount\nThe "Best" Pack,1\n');
    expect(rows).toEqual([{ line: 2, cells: { Name: 'The "Best" Pack', Amount: "1" } }]);
  });

  it("refuses a CSV whose quote is never closed, naming where it starts", async () => {
    const error = await importError(rowsOf('Name,Amount\nAna,1\n"Bob,2\nCid,3\n'));
    expect(error.message).toBe(
      '"test.csv" is not valid CSV: a quoted cell that starts after line 2 is never closed, so the rest of the file can\'t be read. Fix it in a text editor, or export the file again.',
    );
  });

  it("refuses an unclosed quote in a large file without holding the rest of it", async () => {
    const progress = { produced: 0 };
    const body = generatedCsv('Name,Amount\n"open', (i) => `row ${i},1`, 200_000, progress);
    const error = await importError(
      openCsv("big.csv", body, FORMAT).then((table) => readAll(table.rows as AsyncIterable<never>)),
    );
    expect(error.message).toContain("longer than 1,000,000 characters");
    expect(progress.produced).toBeLessThan(200_000);
  });

  it("refuses a PNG renamed .csv, a non-UTF-8 file, a UTF-16 file and an empty one", async () => {
    const png = await importError(rowsOf(PNG));
    expect(png.message).toBe(
      '"test.csv" is not a text export: it looks like an image, a spreadsheet or another binary file. Upload the CSV or JSON file exactly as the platform gave it.',
    );
    const latin1 = await importError(
      rowsOf(Uint8Array.from(Buffer.from("Name,Amount\nJos\xe9,1\n", "latin1"))),
    );
    expect(latin1.message).toContain("is not UTF-8 text");
    const utf16 = await importError(rowsOf(Uint8Array.from(Buffer.from("\uFEFFName,Amount\n", "utf16le"))));
    expect(utf16.message).toContain("it is saved as UTF-16");
    const empty = await importError(rowsOf(""));
    expect(empty.message).toBe('"test.csv" is empty: it has no header row.');
  });

  it("refuses a file that is not the expected export", async () => {
    const error = await importError(
      rowsOf("Email,Total\na@example.com,1\n", {
        label: "test CSV",
        known: [],
        required: ["Name", ["Amount", "Price"]],
      }),
    );
    expect(error.message).toBe(
      '"test.csv" is not a test CSV: its header lacks the columns "Name", "Amount" (or "Price").',
    );
  });

  it("decodes a UTF-8 character split across chunks", async () => {
    const bytes = Buffer.from("Name,Amount\nZoë,1\n");
    const split = bytes.indexOf(0xc3) + 1;
    const { Readable } = await import("node:stream");
    const table = await openCsv(
      "t.csv",
      Readable.from([bytes.subarray(0, split), bytes.subarray(split)]),
      FORMAT,
    );
    expect(await readAll(table.rows as AsyncIterable<never>)).toEqual([
      { line: 2, cells: { Name: "Zoë", Amount: "1" } },
    ]);
  });

  it("streams: the first row comes out long before the last is produced", async () => {
    const progress = { produced: 0 };
    const table = await openCsv(
      "big.csv",
      generatedCsv("Name,Amount", (i) => `n${i},1`, 100_000, progress),
      FORMAT,
    );
    let rows = 0;
    let producedAtFirst = 0;
    let lastLine = 0;
    for await (const row of table.rows) {
      if (rows === 0) producedAtFirst = progress.produced;
      if (!("kind" in row)) {
        rows += 1;
        lastLine = row.line;
      }
    }
    expect(rows).toBe(100_000);
    expect(lastLine).toBe(100_001);
    expect(producedAtFirst).toBeLessThan(10_000);
  });

  it("counts streamed items with countStreamed (the helper the readers' tests use)", async () => {
    const progress = { produced: 0 };
    const items = (async function* (): AsyncGenerator<ImportItem> {
      yield { kind: "notice", file: "f", unknownColumns: [], notes: [] };
      progress.produced = 5;
      yield { kind: "problem", origin: { file: "f", line: 2 }, reason: "r" };
    })();
    const { counts, producedAtFirstRecord } = await countStreamed(items, progress);
    expect(Object.fromEntries(counts)).toEqual({ notice: 1, problem: 1 });
    expect(producedAtFirstRecord).toBe(5);
  });
});

describe("formula-looking cells", () => {
  it("flags text a spreadsheet would run, not plain numbers", () => {
    for (const text of ["=1+1", "+cmd", "-Wr9==", "@SUM(A1)", "\t1", "\rx", '=HYPERLINK("x")']) {
      expect(looksLikeFormula(text)).toBe(true);
    }
    for (const text of ["-5", "+5.25", "25.0", "Ana", "'=1+1", ""])
      expect(looksLikeFormula(text)).toBe(false);
  });

  it("takes Gumroad's guard apostrophe off, once, only before a formula character", () => {
    expect(stripFormulaGuard("'-Wr9bD5vR8sT4xZ1cE7fG6m==")).toBe("-Wr9bD5vR8sT4xZ1cE7fG6m==");
    expect(stripFormulaGuard("'=1+1")).toBe("=1+1");
    expect(stripFormulaGuard("''=x")).toBe("''=x");
    expect(stripFormulaGuard("'til dawn")).toBe("'til dawn");
    expect(stripFormulaGuard("O'Neil")).toBe("O'Neil");
  });

  it("never reads a formula as an amount", () => {
    expect(reason(() => amount("=1+1", "Sale Price ($)", "usd"))).toBe(
      "Sale Price ($) looks like a spreadsheet formula, not an amount: '=1+1'",
    );
    expect(reason(() => amount("-5.0", "Sale Price ($)", "usd"))).toBe(
      "Sale Price ($) is not an amount: '-5.0'",
    );
  });
});

describe("amounts", () => {
  it("reads decimals into the currency's minor unit, never through a float", () => {
    expect(amount("25.0", "x", "usd")).toBe(2500);
    expect(amount("0.29", "x", "usd")).toBe(29);
    expect(amount("28.56", "x", "eur")).toBe(2856);
    expect(amount("1500", "x", "jpy")).toBe(1500);
    expect(amount("5.125", "x", "kwd")).toBe(5125);
  });

  it("names the column and the value it could not read", () => {
    expect(reason(() => amount("abc", "Sale Price ($)", "usd"))).toBe(
      "Sale Price ($) is not an amount: 'abc'",
    );
    expect(reason(() => amount("", "Sale Price ($)", "usd"))).toBe("Sale Price ($) is empty");
    expect(reason(() => amount("1500.5", "Buyer Total", "jpy"))).toBe(
      "Buyer Total has more decimals than JPY has: '1500.5'",
    );
  });
});

describe("timestamps", () => {
  it("reads each export's form with its zone into UTC", () => {
    expect(timestamp("2025-11-03T14:22:05.123456+00:00", "t", "refuse")).toBe("2025-11-03T14:22:05.123Z");
    expect(timestamp("2025-11-03T14:22:05+02:00", "t", "refuse")).toBe("2025-11-03T12:22:05.000Z");
    expect(timestamp("2021-08-17T09:45:53.000000Z", "t", "refuse")).toBe("2021-08-17T09:45:53.000Z");
    expect(timestamp("2025-11-03 14:22:05 +0000", "t", "refuse")).toBe("2025-11-03T14:22:05.000Z");
    expect(timestamp("2025-11-03 14:22:05 -0530", "t", "refuse")).toBe("2025-11-03T19:52:05.000Z");
    expect(timestamp("2025-12-10 16:20:00 UTC", "t", "refuse")).toBe("2025-12-10T16:20:00.000Z");
  });

  it("reads a time with no zone as UTC only where the format says so, and refuses it elsewhere", () => {
    expect(timestamp("2024-01-01 00:00:00", "Subscribed Time", "utc")).toBe("2024-01-01T00:00:00.000Z");
    expect(timestamp("2025-11-03", "Purchase Date", "utc")).toBe("2025-11-03T00:00:00.000Z");
    expect(reason(() => timestamp("2025-11-03T14:22:05", "Created At", "refuse"))).toBe(
      "Created At has no time zone: '2025-11-03T14:22:05'. Export the file again without editing its dates.",
    );
  });

  it("refuses what is not a real date and time", () => {
    expect(reason(() => timestamp("03/11/2025", "Created At", "refuse"))).toBe(
      "Created At is not a date and time: '03/11/2025'",
    );
    expect(reason(() => timestamp("2025-02-30T10:00:00Z", "Created At", "refuse"))).toBe(
      "Created At is not a real date: '2025-02-30T10:00:00Z'",
    );
    expect(reason(() => timestamp("2025-11-03T25:00:00Z", "Created At", "refuse"))).toBe(
      "Created At is not a real date: '2025-11-03T25:00:00Z'",
    );
    expect(reason(() => timestamp("2025-11-03T10:00:00+15:00", "Created At", "refuse"))).toBe(
      "Created At has an impossible time zone: '2025-11-03T10:00:00+15:00'",
    );
  });

  it("reads Unix seconds", () => {
    expect(unixSeconds(1762179725, "date")).toBe("2025-11-03T14:22:05.000Z");
    expect(unixSeconds("1762179725", "date")).toBe("2025-11-03T14:22:05.000Z");
    expect(reason(() => unixSeconds("yesterday", "date"))).toBe(
      "date is not a time in Unix seconds: 'yesterday'",
    );
    expect(reason(() => unixSeconds(1.5, "date"))).toBe("date is not a time in Unix seconds: '1.5'");
  });
});

describe("emails", () => {
  it("keeps UTF-8 addresses as exported and refuses what is not an address", () => {
    expect(requiredEmail(" zoë.follower@example.com ", "Email")).toBe("zoë.follower@example.com");
    expect(reason(() => requiredEmail("", "Purchase Email"))).toBe("Purchase Email is empty");
    expect(reason(() => requiredEmail("ana at example", "Purchase Email"))).toBe(
      "Purchase Email is not an email address: 'ana at example'",
    );
  });
});

describe("JSON documents", () => {
  it("refuses invalid JSON, binary files and documents over the size cap", async () => {
    const broken = await importError(readJsonDocument("a.json", bodyOf('{"data": [')));
    expect(broken.message).toMatch(/^"a\.json" is not valid JSON \(.+\)\. Save the API's answer as it came/);
    const png = await importError(readJsonDocument("a.json", bodyOf(PNG)));
    expect(png.message).toContain("is not a text export");
    const large = await importError(
      readJsonDocument("a.json", bodyOf(`[${"1,".repeat(1024 * 1024)}1]`), 1024 * 1024),
    );
    expect(large.message).toBe(
      '"a.json" is larger than 1 MB, more than one page of an API list. Download the list in smaller pages and upload each page.',
    );
  });
});
