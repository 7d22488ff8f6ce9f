import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { PageSpinner } from "../../components/ui/spinner";
import { type SessionUser, useSession } from "../../lib/session";

/** Signed-in sellers only: others go to /auth (product rules, Roles and permissions). Children may ask for the user. */
export function RequireAuth({ children }: { children: ReactNode | ((user: SessionUser) => ReactNode) }) {
  const { user, isPending } = useSession();
  if (isPending) return <PageSpinner label="Checking your session" />;
  if (!user) return <Navigate to="/auth" replace />;
  return typeof children === "function" ? children(user) : children;
}
