import { authClient } from "./auth-client";

export type SessionUser = { id: string; email: string; name: string };

/**
 * The signed-in user (or null), kept fresh by Better Auth. `isPending` while we do not know yet:
 * the first check, and the re-check right after signing in (so guards do not bounce a new user).
 */
export function useSession(): { user: SessionUser | null; isPending: boolean } {
  const { data, isPending, isRefetching } = authClient.useSession();
  const user = data?.user ?? null;
  return { user, isPending: isPending || (user === null && isRefetching) };
}

export async function signOut(): Promise<void> {
  await authClient.signOut();
}
