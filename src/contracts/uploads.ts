import { z } from "zod";

/** Sizes are counted in binary megabytes, as the browser's File.size / 1024 / 1024. */
export const BYTES_PER_MB = 1024 * 1024;
export const MAX_PRODUCT_FILE_MB = 250;
export const MAX_COVER_IMAGE_MB = 10;
/** Profile pictures must be strictly under this. */
export const MAX_PROFILE_PICTURE_MB = 5;
export const STORAGE_QUOTA_MB = 5 * 1024;
export const STORAGE_QUOTA_BYTES = STORAGE_QUOTA_MB * BYTES_PER_MB;
/** Recommended cover size (Open Graph), also the size the server renders covers at. */
export const COVER_IMAGE_SIZE = { width: 1200, height: 630 } as const;

export const UPLOAD_PURPOSES = ["product-file", "product-cover", "profile-picture"] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** Allowed extensions and the browser types that go with them (a file passes on either). */
export const PRODUCT_FILE_FORMATS = {
  pdf: ["application/pdf"],
  zip: ["application/zip", "application/x-zip-compressed", "application/x-zip"],
  mp3: ["audio/mpeg", "audio/mp3"],
  mp4: ["video/mp4"],
  epub: ["application/epub+zip"],
  doc: ["application/msword"],
  docx: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
} as const satisfies Record<string, readonly string[]>;
export const COVER_IMAGE_FORMATS = {
  jpg: ["image/jpeg"],
  jpeg: ["image/jpeg"],
  png: ["image/png"],
  webp: ["image/webp"],
  gif: ["image/gif"],
  svg: ["image/svg+xml"],
} as const satisfies Record<string, readonly string[]>;
export type ProductFileFormat = keyof typeof PRODUCT_FILE_FORMATS;
export type CoverImageFormat = keyof typeof COVER_IMAGE_FORMATS;

/**
 * Names that run code when opened (programs, scripts, installers, shortcuts), on any platform. They are
 * refused whatever the content or declared type, inside ZIPs too: a buyer's computer goes by the name.
 */
export const PROGRAM_EXTENSIONS: ReadonlySet<string> = new Set([
  // Windows programs, libraries and installers
  ...["exe", "dll", "com", "scr", "pif", "cpl", "ocx", "xll", "msi", "msp", "mst", "msix", "msixbundle"],
  ...["appx", "appxbundle", "application", "appref-ms", "gadget", "diagcab"],
  // Windows scripts, and the hosts and consoles that run them
  ...["bat", "cmd", "ps1", "psm1", "psd1", "ps1xml", "psc1", "vbs", "vbe", "vb", "js", "jse", "wsf", "wsh"],
  ...["wsc", "ws", "sct", "hta", "chm", "msc"],
  // Windows shortcuts and settings that launch or change other programs
  ...["lnk", "url", "scf", "reg", "settingcontent-ms"],
  // macOS
  ...["app", "command", "tool", "pkg", "mpkg", "dmg", "scpt", "workflow", "action", "terminal"],
  // Linux and other Unix
  ...["sh", "bash", "zsh", "csh", "ksh", "run", "elf", "so", "dylib", "deb", "rpm", "appimage", "desktop"],
  // Java, Android, iOS
  ...["jar", "jnlp", "class", "apk", "xapk", "aab", "dex", "ipa"],
]);

const formatList = (formats: object) => Object.keys(formats).join(", ").toUpperCase();
const inMb = (bytes: number) => (bytes / BYTES_PER_MB).toFixed(2);

export const UPLOAD_MESSAGES = {
  productFileTooLarge: (bytes: number) =>
    `File size exceeds ${MAX_PRODUCT_FILE_MB}MB limit. Your file is ${inMb(bytes)}MB`,
  coverImageTooLarge: (bytes: number) =>
    `File size exceeds ${MAX_COVER_IMAGE_MB}MB limit. Your file is ${inMb(bytes)}MB`,
  profilePictureTooLarge: `Profile picture must be less than ${MAX_PROFILE_PICTURE_MB}MB`,
  productFileInvalidType: `Invalid files. Allowed formats: ${formatList(PRODUCT_FILE_FORMATS)}`,
  coverImageInvalidType: `Invalid files. Allowed formats: ${formatList(COVER_IMAGE_FORMATS)}`,
  profilePictureNotImage: "Profile picture must be an image file",
  emptyFile: "This file is empty. Please choose another file.",
  programFile: (extension: string) =>
    `.${extension.toUpperCase()} files are programs or scripts, which can't be uploaded here.`,
  storageLimitReached: (usedBytes: number) =>
    `Storage limit reached: ${(usedBytes / (1024 * BYTES_PER_MB)).toFixed(2)} GB of 5 GB used. Delete a product or choose a smaller file.`,
  storageFull: "Storage is full right now. Please try again later.",
} as const;

/** What the server answers when its storage has no room for a write (a full disk, not the seller's quota). */
export const STORAGE_FULL_STATUS = 507;

/** Error codes of the upload API, with the toast title the web app shows for each. */
export const UPLOAD_ERROR_TITLES = {
  invalid_file: "Invalid file",
  file_too_large: "File too large",
  storage_limit_reached: "Storage limit reached",
} as const;
export type UploadErrorCode = keyof typeof UPLOAD_ERROR_TITLES;
export const uploadErrorTitle = (code: string): string =>
  UPLOAD_ERROR_TITLES[code as UploadErrorCode] ?? "Upload failed";

export interface FileChoice {
  name: string;
  size: number;
  /** The browser's File.type; often empty for unusual files. */
  type: string;
}
export interface FileChoiceProblem {
  code: UploadErrorCode;
  message: string;
}

/**
 * The extension as an operating system sees it: Windows drops trailing dots and spaces, so
 * `invoice.bat.` is a .bat file. A name that is only an extension (`.bat`) has one too.
 */
export const fileExtension = (name: string): string => {
  const trimmed = name.replace(/[\s.]+$/, "");
  const dot = trimmed.lastIndexOf(".");
  return dot >= 0 ? trimmed.slice(dot + 1).toLowerCase() : "";
};

export const isProgramName = (name: string): boolean => PROGRAM_EXTENSIONS.has(fileExtension(name));

/** The allowed format a file claims to be: by its extension first, else by its type. */
export function claimedFormat<F extends string>(
  formats: Record<F, readonly string[]>,
  file: Pick<FileChoice, "name" | "type">,
): F | undefined {
  const extension = fileExtension(file.name);
  if (Object.hasOwn(formats, extension)) return extension as F;
  const type = file.type.toLowerCase();
  return (Object.keys(formats) as F[]).find((format) => formats[format].includes(type));
}

const isImageChoice = (file: FileChoice) =>
  file.type.toLowerCase().startsWith("image/") || claimedFormat(COVER_IMAGE_FORMATS, file) !== undefined;

/**
 * The rules checked before any byte is sent, by the browser for quick feedback and again by the server.
 * (The server checks the real content after upload.) Undefined when the file may be uploaded.
 */
export function checkFileChoice(purpose: UploadPurpose, file: FileChoice): FileChoiceProblem | undefined {
  if (purpose === "profile-picture") {
    if (!isImageChoice(file))
      return { code: "invalid_file", message: UPLOAD_MESSAGES.profilePictureNotImage };
    if (file.size >= MAX_PROFILE_PICTURE_MB * BYTES_PER_MB) {
      return { code: "file_too_large", message: UPLOAD_MESSAGES.profilePictureTooLarge };
    }
  } else if (purpose === "product-cover") {
    if (!claimedFormat(COVER_IMAGE_FORMATS, file)) {
      return { code: "invalid_file", message: UPLOAD_MESSAGES.coverImageInvalidType };
    }
    if (file.size > MAX_COVER_IMAGE_MB * BYTES_PER_MB) {
      return { code: "file_too_large", message: UPLOAD_MESSAGES.coverImageTooLarge(file.size) };
    }
  } else {
    if (!claimedFormat(PRODUCT_FILE_FORMATS, file)) {
      return { code: "invalid_file", message: UPLOAD_MESSAGES.productFileInvalidType };
    }
    if (file.size > MAX_PRODUCT_FILE_MB * BYTES_PER_MB) {
      return { code: "file_too_large", message: UPLOAD_MESSAGES.productFileTooLarge(file.size) };
    }
  }
  // A type the format lists accept does not make `invoice.bat` a document: the name decides what runs it.
  if (isProgramName(file.name)) {
    return { code: "invalid_file", message: UPLOAD_MESSAGES.programFile(fileExtension(file.name)) };
  }
  if (file.size === 0) return { code: "invalid_file", message: UPLOAD_MESSAGES.emptyFile };
  return undefined;
}

export const createUploadRequestSchema = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  fileName: z
    .string()
    .trim()
    .min(1, "File name is required")
    .max(255, "File name must be under 255 characters"),
  sizeBytes: z.number().int().nonnegative(),
  contentType: z.string().trim().max(255).default(""),
});
export type CreateUploadRequest = z.input<typeof createUploadRequestSchema>;

export const uploadIntentSchema = z.object({
  uploadId: z.string(),
  method: z.literal("PUT"),
  /** Where the browser sends the bytes, with exactly these headers. */
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
export type UploadIntent = z.infer<typeof uploadIntentSchema>;

export const completedUploadSchema = z.object({
  uploadId: z.string(),
  key: z.string(),
  sizeBytes: z.number(),
  contentType: z.string(),
  originalName: z.string(),
  /** Covers and profile pictures: the public image (the 1200x630 Open Graph image for covers). */
  publicUrl: z.string().optional(),
  thumbnailUrl: z.string().optional(),
});
export type CompletedUpload = z.infer<typeof completedUploadSchema>;

export const storageUsageSchema = z.object({ usedBytes: z.number(), quotaBytes: z.number() });
export type StorageUsage = z.infer<typeof storageUsageSchema>;
