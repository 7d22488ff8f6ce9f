import { crc32, deflateRawSync } from "node:zlib";
import sharp from "sharp";

/** Small files made in code for the upload tests (no binary fixtures in the repository). */

export const minimalPdf = (padding = 0) =>
  Buffer.concat([
    Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"),
    Buffer.alloc(padding, 0x20),
    Buffer.from("trailer\n<< /Root 1 0 R >>\n%%EOF\n"),
  ]);

export const elfProgram = () =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);

export const windowsProgram = () => Buffer.concat([Buffer.from("MZ"), Buffer.alloc(126, 0x90)]);

// Assembled at run time so this file is not itself flagged by a virus scanner.
export const eicar = () =>
  Buffer.from(["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"].join(""));

export const pngImage = (width = 800, height = 400) =>
  sharp({ create: { width, height, channels: 3, background: "#3366ff" } })
    .png()
    .toBuffer();

export const svgWithScript = () =>
  Buffer.from(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="240" height="126">' +
      "<script>alert(document.cookie)</script>" +
      '<rect width="240" height="126" fill="#ff3366"/></svg>',
  );

export interface ZipFixtureEntry {
  name: string;
  data: Buffer;
  /** Stored as is under this compression method number (0: stored); deflated (8) when absent. */
  method?: number;
  /** Marks the entry as password-protected (general purpose flag bit 0). */
  encrypted?: boolean;
  /** The uncompressed size the headers claim, when it is to lie (a ZIP bomb's); the real one otherwise. */
  declaredSize?: number;
}

/** A ZIP archive, written by hand (local headers, central directory, end record). */
export function zipArchive(entries: ZipFixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, method = 8, encrypted = false, declaredSize = data.length } of entries) {
    const fileName = Buffer.from(name);
    const compressed = method === 8 ? deflateRawSync(data) : data;
    const checksum = crc32(data);
    const flags = 0x0800 | (encrypted ? 1 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(declaredSize, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(declaredSize, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, compressed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** `count` small text files, `file-1.txt`…: a ZIP as long as a test needs. */
export const harmlessEntries = (count: number): ZipFixtureEntry[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `file-${index + 1}.txt`,
    data: Buffer.from(`Page ${index + 1}`),
  }));
