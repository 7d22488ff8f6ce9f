import { useState } from "react";
import { useNavigate } from "react-router";
import { signOut } from "../../lib/session";

/** Signs out and returns to the landing page. */
export function useLogout(): { logout: () => Promise<void>; isLoggingOut: boolean } {
  const navigate = useNavigate();
  const [isLoggingOut, setLoggingOut] = useState(false);
  async function logout() {
    setLoggingOut(true);
    try {
      await signOut();
      navigate("/");
    } finally {
      setLoggingOut(false);
    }
  }
  return { logout, isLoggingOut };
}
