import { AppError } from "../../http/errors";

/** A 404 read as "nothing there" (null); any other error is thrown on. */
export function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
}
