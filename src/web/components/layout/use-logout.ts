import { useState } from "react";
import { signOut } from "../../lib/session";

/**
 * Signs out, then loads the landing page. The landing page is rendered by the server, so going there
 * is a document load, which would cancel a sign-out still on its way: the sign-out must finish first.
 * The new document also drops whatever the app held of the signed-in user.
 */
export function useLogout(): { logout: () => Promise<void>; isLoggingOut: boolean } {
  const [isLoggingOut, setLoggingOut] = useState(false);
  async function logout() {
    setLoggingOut(true);
    try {
      await signOut();
      window.location.assign("/");
    } finally {
      setLoggingOut(false);
    }
  }
  return { logout, isLoggingOut };
}
