/** Magic numbers of programs, checked on the first bytes of a file or of a ZIP entry. */

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
// Class ids the Windows Installer writes into the root entry of .msi (000C1084) and .msp (000C1086) files.
const MSI_CLASS_IDS = [0x84, 0x86].map((byte) =>
  Buffer.from([
    byte,
    0x10,
    0x0c,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0xc0,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x46,
  ]),
);

const SIGNATURES: { magic: Buffer; kind: string }[] = [
  { magic: Buffer.from([0x7f, 0x45, 0x4c, 0x46]), kind: "a Linux program (ELF)" },
  { magic: Buffer.from("MZ"), kind: "a Windows program (EXE/DLL)" },
  { magic: Buffer.from([0xfe, 0xed, 0xfa, 0xce]), kind: "a macOS program (Mach-O)" },
  { magic: Buffer.from([0xfe, 0xed, 0xfa, 0xcf]), kind: "a macOS program (Mach-O)" },
  { magic: Buffer.from([0xce, 0xfa, 0xed, 0xfe]), kind: "a macOS program (Mach-O)" },
  { magic: Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), kind: "a macOS program (Mach-O)" },
  // Fat (universal) Mach-O binaries share this magic with Java class files: both are programs.
  { magic: Buffer.from([0xca, 0xfe, 0xba, 0xbe]), kind: "a macOS universal program or Java class" },
  { magic: Buffer.from([0xca, 0xfe, 0xba, 0xbf]), kind: "a macOS universal program" },
  { magic: Buffer.from([0xbe, 0xba, 0xfe, 0xca]), kind: "a macOS universal program" },
  { magic: Buffer.from("dex\n"), kind: "an Android program (DEX)" },
  { magic: Buffer.from("#!"), kind: "a script (it starts with #!)" },
];

/** What kind of program these first bytes belong to, or undefined when they are not a program's. */
export function executableKind(head: Buffer): string | undefined {
  const match = SIGNATURES.find(({ magic }) => head.subarray(0, magic.length).equals(magic));
  if (match) return match.kind;
  if (head.subarray(0, OLE_MAGIC.length).equals(OLE_MAGIC) && MSI_CLASS_IDS.some((id) => head.includes(id))) {
    return "a Windows installer (MSI)";
  }
  return undefined;
}

// Built from two halves so this source file is not itself flagged by virus scanners.
const EICAR = Buffer.from(
  ["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"].join(""),
);

/** The EICAR anti-virus test signature, which every scanner must treat as a virus. */
export const containsEicar = (bytes: Buffer): boolean => bytes.includes(EICAR);

/** A ZIP (or a format built on one: docx, epub…) starts with a local file header or, when empty, the end record. */
export const isZipContainer = (head: Buffer): boolean =>
  head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ||
  head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

// Types file-type recognises that are programs, installers or launchers, whatever the file is called.
const PROGRAM_TYPES = new Set([
  ...["exe", "elf", "macho", "msi", "apk", "jar", "dex", "deb", "rpm", "dmg", "class", "wasm", "lnk"],
  ...["chm", "reg", "crx", "xpi", "alias"],
]);

// Archives we cannot open to look inside; one inside a ZIP could hide a program from every check.
const UNOPENABLE_ARCHIVE_TYPES = new Set([
  ...["7z", "rar", "tar", "gz", "bz2", "xz", "zst", "lz", "lz4", "Z", "cab", "ar", "cpio", "lzh", "arj"],
  ...["ace", "asar"],
]);

/** What the first bytes of a file (or of a ZIP entry) say it is. */
export interface SniffedContent {
  /** file-type's name for the format (its usual extension), when it recognises one. */
  format?: string;
  /** Set when the content is a program, e.g. "a Linux program (ELF)". */
  program?: string;
  /** Set when the content is an archive we cannot look inside, e.g. "RAR". */
  unopenableArchive?: string;
}

/** Recognises programs by their magic numbers first, then anything else file-type knows. */
export async function sniffContent(head: Buffer): Promise<SniffedContent> {
  const kind = executableKind(head);
  if (kind) return { program: kind };
  // Loaded on the first upload, not at start.
  const { fileTypeFromBuffer } = await import("file-type");
  const format = (await fileTypeFromBuffer(head))?.ext;
  if (!format) return {};
  if (PROGRAM_TYPES.has(format))
    return { format, program: `a program or installer (${format.toUpperCase()})` };
  if (UNOPENABLE_ARCHIVE_TYPES.has(format)) return { format, unopenableArchive: format.toUpperCase() };
  return { format };
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
export const CENTRAL_DIRECTORY_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
const END_RECORD_BYTES = 22;

/**
 * The ZIP end records in the last bytes of a file (`tailStart` is the tail's offset in the file), each
 * with the offsets where a ZIP reader may look for its central directory: right before the record
 * (readers that allow data in front of the archive, as when a ZIP is appended to a PDF) or at the offset
 * the record states. A ZIP64 record is only found through its locator, which is proof enough by itself.
 * Records that list no entries are left out: they describe nothing that could be opened.
 */
export function zipEndRecords(tail: Buffer, tailStart: number): { zip64: boolean; directoryAt: number[] }[] {
  const records: { zip64: boolean; directoryAt: number[] }[] = [];
  for (let at = tail.length - END_RECORD_BYTES; at >= 0; at -= 1) {
    if (tail.readUInt32LE(at) !== END_OF_CENTRAL_DIRECTORY) continue;
    if (at >= 20 && tail.readUInt32LE(at - 20) === ZIP64_END_LOCATOR) {
      records.push({ zip64: true, directoryAt: [] });
      continue;
    }
    const entries = tail.readUInt16LE(at + 10);
    if (entries === 0) continue;
    const directorySize = tail.readUInt32LE(at + 12);
    const statedOffset = tail.readUInt32LE(at + 16);
    const beforeRecord = tailStart + at - directorySize;
    records.push({
      zip64: false,
      directoryAt: [beforeRecord, statedOffset].filter((offset) => offset >= 0 && offset < tailStart + at),
    });
  }
  return records;
}
