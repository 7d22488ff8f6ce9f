import { twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { monitoredFetch } from "./api";

/** The background session check failing is only logged (product rules, Error catalogue), never toasted. */
function isSessionCheck(input: RequestInfo | URL): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return url.includes("/get-session");
}

export const authClient = createAuthClient({
  baseURL: window.location.origin,
  basePath: "/api/auth",
  // The login form asks for the code itself when sign-in answers twoFactorRedirect.
  plugins: [twoFactorClient()],
  fetchOptions: {
    customFetchImpl: (input, init) => monitoredFetch(input, init, { quiet: isSessionCheck(input) }),
  },
});
