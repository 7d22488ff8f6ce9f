import { describe, expect, it } from "vitest";
import {
  CENTRAL_DIRECTORY_HEADER,
  containsEicar,
  executableKind,
  isZipContainer,
  sniffContent,
  zipEndRecords,
} from "./file-signatures";
import { eicar, elfProgram, minimalPdf, pngImage, windowsProgram, zipArchive } from "./test-fixtures";

const bytes = (...values: number[]) => Buffer.concat([Buffer.from(values), Buffer.alloc(60)]);

describe("executableKind", () => {
  it("recognises programs of every platform by their first bytes", () => {
    expect(executableKind(elfProgram())).toMatch(/ELF/);
    expect(executableKind(windowsProgram())).toMatch(/Windows program/);
    for (const magic of [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
    ]) {
      expect(executableKind(bytes(...magic))).toMatch(/Mach-O/);
    }
    expect(executableKind(bytes(0xca, 0xfe, 0xba, 0xbe))).toMatch(/universal/);
    expect(executableKind(Buffer.from("#!/usr/bin/env python\nprint(1)"))).toMatch(/script/);
    expect(executableKind(Buffer.from("dex\n035\0"))).toMatch(/DEX/);
  });

  it("tells a Windows installer from an ordinary Office document (both OLE files)", () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const msiClassId = Buffer.from([0x84, 0x10, 0x0c, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0x46]);
    expect(executableKind(Buffer.concat([ole, Buffer.alloc(1000), msiClassId]))).toMatch(/installer \(MSI\)/);
    expect(executableKind(Buffer.concat([ole, Buffer.alloc(1000)]))).toBeUndefined();
  });

  it("leaves documents alone", () => {
    expect(executableKind(minimalPdf())).toBeUndefined();
    expect(executableKind(zipArchive([{ name: "a.txt", data: Buffer.from("a") }]))).toBeUndefined();
    expect(executableKind(Buffer.from("# A heading\n#! not at the start"))).toBeUndefined();
  });
});

describe("containsEicar and isZipContainer", () => {
  it("finds the EICAR signature anywhere in a buffer", () => {
    expect(containsEicar(Buffer.concat([Buffer.alloc(100), eicar(), Buffer.alloc(100)]))).toBe(true);
    expect(containsEicar(minimalPdf())).toBe(false);
  });

  it("recognises ZIP containers, including an empty one", () => {
    expect(isZipContainer(zipArchive([{ name: "a", data: Buffer.from("a") }]))).toBe(true);
    expect(isZipContainer(zipArchive([]))).toBe(true);
    expect(isZipContainer(minimalPdf())).toBe(false);
  });
});

describe("sniffContent", () => {
  it("names programs, archives it cannot open, and other formats", async () => {
    expect(await sniffContent(windowsProgram())).toEqual({ program: "a Windows program (EXE/DLL)" });
    const rar = Buffer.concat([Buffer.from("Rar!\x1a\x07\x00"), Buffer.alloc(100)]);
    expect(await sniffContent(rar)).toEqual({ format: "rar", unopenableArchive: "RAR" });
    const registry = Buffer.from("REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\Software\\Run]\r\n");
    expect((await sniffContent(registry)).program).toMatch(/REG/);
    expect(await sniffContent(await pngImage(20, 20))).toEqual({ format: "png" });
    expect(await sniffContent(Buffer.from("plain words"))).toEqual({});
  });
});

describe("zipEndRecords", () => {
  it("finds a ZIP appended to a document, and where its central directory is", () => {
    const document = minimalPdf(1000);
    const zip = zipArchive([{ name: "setup.exe", data: windowsProgram() }]);
    const file = Buffer.concat([document, zip]);
    const [record] = zipEndRecords(file, 0);
    const directoryAt = record?.directoryAt ?? [];
    expect(directoryAt.some((at) => file.subarray(at, at + 4).equals(CENTRAL_DIRECTORY_HEADER))).toBe(true);
    // The same tail read from further into the file gives the same offsets in the file.
    const tailStart = file.length - 200;
    expect(zipEndRecords(file.subarray(tailStart), tailStart)).toEqual(zipEndRecords(file, 0));
  });

  it("ignores records that list no entries, and finds ZIP64 ones by their locator", () => {
    expect(zipEndRecords(zipArchive([]), 0)).toEqual([]);
    expect(zipEndRecords(minimalPdf(), 0)).toEqual([]);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    expect(zipEndRecords(Buffer.concat([minimalPdf(), locator, end]), 0)).toEqual([
      { zip64: true, directoryAt: [] },
    ]);
  });
});
