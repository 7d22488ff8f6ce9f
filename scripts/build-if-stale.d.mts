// Types for build-if-stale.mjs (plain JavaScript so `npm start` runs it without a compiler).

export interface BuildTarget {
  name: string;
  /** The file whose absence means the target was never built (relative to the repository). */
  output: string;
  /** Touched with the time its last successful build started. */
  stamp: string;
  /** Files and folders it is made from. */
  inputs: string[];
  ignore?: (relativePath: string) => boolean;
  /** False when this start has no use for the target. */
  wanted?: () => boolean;
  build(): unknown;
}

export const targets: BuildTarget[];
export function newestModification(
  root: string,
  inputs: string[],
  ignore?: (relativePath: string) => boolean,
): number;
export function reasonToBuild(
  root: string,
  target: Pick<BuildTarget, "output" | "stamp" | "inputs" | "ignore">,
): "missing" | "sources changed" | undefined;
/** Builds `target` and stamps it with the time the build started (none is left by a failed build). */
export function build(target: Pick<BuildTarget, "stamp" | "build">): Promise<void>;
