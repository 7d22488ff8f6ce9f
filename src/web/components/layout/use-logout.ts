import { useState } from "react";
import { useNavigate } from "react-router";
import { signOut } from "../../lib/session";

/**
 * Goes to the landing page, then signs out. In that order: signing out first would let a
 * signed-in-only page redirect to /auth before we could leave it.
 */
export function useLogout(): { logout: () => Promise<void>; isLoggingOut: boolean } {
  const navigate = useNavigate();
  const [isLoggingOut, setLoggingOut] = useState(false);
  async function logout() {
    setLoggingOut(true);
    try {
      await navigate("/");
      await signOut();
    } finally {
      setLoggingOut(false);
    }
  }
  return { logout, isLoggingOut };
}
