import { access, constants, mkdir } from "node:fs/promises";

/** Where product files and covers live. The foundation only needs its health; uploads come with products. */
export interface Storage {
  readonly kind: "local" | "s3";
  isHealthy(): Promise<boolean>;
}

export async function localDiskStorage(root: string): Promise<Storage> {
  await mkdir(root, { recursive: true });
  return {
    kind: "local",
    async isHealthy() {
      return access(root, constants.W_OK).then(
        () => true,
        () => false,
      );
    },
  };
}
